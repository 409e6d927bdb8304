import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError, validateEnvironment } from './configuration.js';

const refuses = (env: Record<string, string>, variable: string) =>
  assert.throws(() => validateEnvironment(env), (e: unknown) => e instanceof ConfigurationError && e.message.includes(variable));

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
    const trust = (TRUST_PROXY?: string) => validateEnvironment({ DATABASE_URL: 'sqlite::memory:', ...(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }) }).TRUST_PROXY;
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
    for (const host of ['127.0.0.1', '::1', 'localhost', 'api.internal']) assert.equal(validateEnvironment({ HOST: host, DATABASE_URL: 'sqlite::memory:' }).HOST, host);
  });
});
