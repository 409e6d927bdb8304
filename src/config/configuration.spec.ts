import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigurationError, ENVIRONMENT_VARIABLES, jwtKeyId, validateEnvironment } from './configuration.js';

const refuses = (env: Record<string, string>, variable: string) =>
  assert.throws(
    () => validateEnvironment(env),
    (e: unknown) => e instanceof ConfigurationError && e.message.includes(variable),
  );

describe('validateEnvironment', () => {
  it('defaults to the embedded database on port 3000', () => {
    const config = validateEnvironment({ DATABASE_URL: 'sqlite::memory:' });
    assert.deepEqual(config.database, { type: 'sqlite', database: ':memory:' });
    assert.equal(config.PORT, 3000);
    assert.equal(config.HOST, '0.0.0.0');
    assert.equal(config.ACCESS_TOKEN_TTL_SECONDS, 3600);
    assert.ok(config.JWT_SECRET.length >= 32);
  });

  it('reads a MySQL URL', () => {
    const config = validateEnvironment({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/test' });
    assert.equal(config.database.type, 'mysql');
    assert.equal(config.database.database, 'test');
    assert.equal(config.database.type === 'mysql' && config.database.dialect, 'mysql');
    const maria = validateEnvironment({ DATABASE_URL: 'mariadb://root@127.0.0.1:3306/test' }).database;
    assert.deepEqual(maria.type === 'mysql' && [maria.dialect, maria.url], ['mariadb', 'mysql://root@127.0.0.1:3306/test']);
  });

  it('trusts no proxy by default; TRUST_PROXY takes true, a hop count or addresses and ranges', () => {
    const trust = (TRUST_PROXY?: string) =>
      validateEnvironment({ DATABASE_URL: 'sqlite::memory:', ...(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }) }).TRUST_PROXY;
    assert.equal(trust(), false);
    assert.equal(trust('false'), false);
    assert.equal(trust('true'), true);
    assert.equal(trust('2'), 2);
    assert.deepEqual(trust('127.0.0.1, 10.0.0.0/8,::1,loopback'), ['127.0.0.1', '10.0.0.0/8', '::1', 'loopback']);
    refuses({ TRUST_PROXY: '10.0.0.0/33', DATABASE_URL: 'sqlite::memory:' }, 'TRUST_PROXY');
    refuses({ TRUST_PROXY: 'the load balancer', DATABASE_URL: 'sqlite::memory:' }, 'TRUST_PROXY');
    refuses({ TRUST_PROXY: '99', DATABASE_URL: 'sqlite::memory:' }, 'TRUST_PROXY');
  });

  it('keeps Redis keys under a prefix', () => {
    assert.equal(validateEnvironment({ DATABASE_URL: 'sqlite::memory:' }).REDIS_KEY_PREFIX, 'coworking:');
    assert.equal(validateEnvironment({ DATABASE_URL: 'sqlite::memory:', REDIS_KEY_PREFIX: 'cw:test:' }).REDIS_KEY_PREFIX, 'cw:test:');
    refuses({ REDIS_KEY_PREFIX: 'has space', DATABASE_URL: 'sqlite::memory:' }, 'REDIS_KEY_PREFIX');
  });

  it('names the variable of every bad value', () => {
    refuses({ PORT: 'eighty' }, 'PORT');
    refuses({ PORT: '70000' }, 'PORT');
    refuses({ DATABASE_URL: 'postgres://x/y' }, 'DATABASE_URL');
    refuses({ DATABASE_URL: 'mysql://host-only' }, 'DATABASE_URL');
    refuses({ LOG_LEVEL: 'loud', DATABASE_URL: 'sqlite::memory:' }, 'LOG_LEVEL');
    refuses({ NODE_ENV: 'staging' }, 'NODE_ENV');
    refuses({ NODE_ENV: 'production', DATABASE_URL: 'sqlite::memory:' }, 'JWT_SECRET');
    refuses({ JWT_SECRET: 'short', DATABASE_URL: 'sqlite::memory:' }, 'JWT_SECRET');
    refuses({ BOOTSTRAP_ADMIN_EMAIL: 'a@b.c', DATABASE_URL: 'sqlite::memory:' }, 'BOOTSTRAP_ADMIN_PASSWORD');
    refuses({ ACCESS_TOKEN_TTL_SECONDS: '-5', DATABASE_URL: 'sqlite::memory:' }, 'ACCESS_TOKEN_TTL_SECONDS');
    refuses({ REDIS_URL: 'localhost:6379', DATABASE_URL: 'sqlite::memory:' }, 'REDIS_URL');
    refuses({ HOST: 'http://0.0.0.0', DATABASE_URL: 'sqlite::memory:' }, 'HOST');
  });

  it('listens on HOST: an address or a host name', () => {
    for (const host of ['127.0.0.1', '::1', 'localhost', 'api.internal'])
      assert.equal(validateEnvironment({ HOST: host, DATABASE_URL: 'sqlite::memory:' }).HOST, host);
  });
});

describe('secrets from files (NAME_FILE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cw-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads JWT_SECRET, DATABASE_URL, REDIS_URL and BOOTSTRAP_ADMIN_PASSWORD from files, without the trailing newline', () => {
    const config = validateEnvironment({
      JWT_SECRET_FILE: file('jwt', 'a-secret-from-a-file-a-secret-from-a-file\n'),
      DATABASE_URL_FILE: file('db', 'mysql://app:pa ss@db:3306/coworking\r\n'),
      REDIS_URL_FILE: file('redis', 'redis://:pw@cache:6379\n'),
      BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
      BOOTSTRAP_ADMIN_PASSWORD_FILE: file('admin', ' spaces kept \n'),
      JWT_PREVIOUS_SECRETS_FILE: file('previous', 'an-older-secret-an-older-secret-0001,an-older-secret-an-older-secret-0002\n'),
    });
    assert.equal(config.JWT_SECRET, 'a-secret-from-a-file-a-secret-from-a-file');
    assert.equal(config.DATABASE_URL, 'mysql://app:pa ss@db:3306/coworking');
    assert.equal(config.REDIS_URL, 'redis://:pw@cache:6379');
    assert.equal(config.BOOTSTRAP_ADMIN_PASSWORD, ' spaces kept ');
    assert.deepEqual(config.JWT_PREVIOUS_SECRETS, ['an-older-secret-an-older-secret-0001', 'an-older-secret-an-older-secret-0002']);
  });

  it('refuses a variable set both ways, naming both, and a file it cannot read', () => {
    const path = file('both', 'x'.repeat(40));
    for (const name of ['JWT_SECRET', 'DATABASE_URL', 'REDIS_URL', 'BOOTSTRAP_ADMIN_PASSWORD']) {
      assert.throws(
        () => validateEnvironment({ DATABASE_URL: 'sqlite::memory:', [name]: 'x'.repeat(40), [`${name}_FILE`]: path }),
        (e: unknown) => e instanceof ConfigurationError && e.message.includes(`${name} and ${name}_FILE`),
      );
    }
    refuses({ DATABASE_URL: 'sqlite::memory:', JWT_SECRET_FILE: join(dir, 'missing') }, 'JWT_SECRET_FILE');
  });

  it('refuses a file that is not a regular one (/dev/zero never ends) or is longer than 64 KiB, without hanging', () => {
    refuses({ DATABASE_URL: 'sqlite::memory:', JWT_SECRET_FILE: '/dev/zero' }, 'JWT_SECRET_FILE: /dev/zero is not a regular file');
    refuses({ DATABASE_URL: 'sqlite::memory:', JWT_SECRET_FILE: dir }, 'is not a regular file');
    refuses({ DATABASE_URL: 'sqlite::memory:', JWT_SECRET_FILE: file('huge', 'x'.repeat(64 * 1024 + 1)) }, 'longer than 65536 bytes');
    const config = validateEnvironment({ DATABASE_URL: 'sqlite::memory:', JWT_SECRET_FILE: file('largest', 'y'.repeat(64 * 1024)) });
    assert.equal(config.JWT_SECRET.length, 64 * 1024);
  });

  it('a file that is read into a bad value is refused like the variable', () => {
    refuses({ DATABASE_URL: 'sqlite::memory:', JWT_SECRET_FILE: file('short', 'short\n') }, 'JWT_SECRET');
  });
});

describe('operations settings', () => {
  const base = { DATABASE_URL: 'sqlite::memory:', JWT_SECRET: 'current-secret-current-secret-current' };

  it('defaults: no CORS origin, metrics off, migrations at start-up, no previous secret', () => {
    const config = validateEnvironment(base);
    assert.deepEqual(config.CORS_ORIGINS, []);
    assert.equal(config.METRICS_ENABLED, false);
    assert.equal(config.METRICS_PORT, undefined);
    assert.equal(config.MIGRATIONS_RUN, true);
    assert.deepEqual(config.JWT_PREVIOUS_SECRETS, []);
  });

  it('reads CORS origins, metrics, MIGRATIONS_RUN and previous secrets, and refuses bad ones', () => {
    const config = validateEnvironment({
      ...base,
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      METRICS_PORT: '9100',
      MIGRATIONS_RUN: 'false',
      JWT_PREVIOUS_SECRETS: `${base.JWT_SECRET},older-secret-older-secret-older-secret`,
    });
    assert.deepEqual(config.CORS_ORIGINS, ['https://app.example.com', 'http://localhost:5173']);
    assert.equal(config.METRICS_ENABLED, true);
    assert.equal(config.METRICS_PORT, 9100);
    assert.equal(config.MIGRATIONS_RUN, false);
    assert.deepEqual(config.JWT_PREVIOUS_SECRETS, ['older-secret-older-secret-older-secret'], 'the current secret is not repeated');
    for (const origin of ['*', 'https://app.example.com/', 'app.example.com', 'ftp://x.example'])
      refuses({ ...base, CORS_ORIGINS: origin }, 'CORS_ORIGINS');
    refuses({ ...base, METRICS_ENABLED: 'yes please' }, 'METRICS_ENABLED');
    refuses({ ...base, METRICS_PORT: '3000' }, 'METRICS_PORT');
    refuses({ ...base, MIGRATIONS_RUN: 'later' }, 'MIGRATIONS_RUN');
    refuses({ ...base, JWT_PREVIOUS_SECRETS: 'short' }, 'JWT_PREVIOUS_SECRETS');
  });

  it('a key id is a hash of the secret, not the secret', () => {
    const kid = jwtKeyId(base.JWT_SECRET);
    assert.match(kid, /^[\w-]{16}$/);
    assert.ok(!base.JWT_SECRET.includes(kid));
    assert.notEqual(kid, jwtKeyId('older-secret-older-secret-older-secret'));
  });

  it('ENVIRONMENT_VARIABLES lists every variable the configuration reads', () => {
    const read = new Set<string>();
    const spy = (env: Record<string, string>) =>
      new Proxy(env, { get: (target, name) => (typeof name === 'string' && read.add(name), target[name as string]) });
    validateEnvironment(spy({ ...base }));
    validateEnvironment(spy({ ...base, METRICS_PORT: '9100', BOOTSTRAP_ADMIN_EMAIL: 'a@b.c', BOOTSTRAP_ADMIN_PASSWORD: 'x' }));
    assert.deepEqual(
      [...read].filter((name) => !ENVIRONMENT_VARIABLES.includes(name)),
      [],
    );
    assert.ok(read.size > 20);
  });
});
