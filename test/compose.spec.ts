import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { ENVIRONMENT_VARIABLES, validateEnvironment } from '../src/config/configuration.js';
import { NGINX, NGINX_CONF, testNginxConfig } from './support/nginx.js';
import { ROOT } from './support/service.js';

// No Docker engine runs here: compose.yaml is parsed and checked instead (docs/operations.md,
// "Compose"). Its nginx configuration, deploy/nginx.conf, is the one the cluster tests run.

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: Array<{ path: string; required?: boolean }>;
  ports?: string[];
  secrets?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, ComposeService>;
  secrets: Record<string, { file: string }>;
}

const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as Compose;
const services = compose.services;
/** The service's own containers: built from this repository. */
const ours = Object.entries(services).filter(([, service]) => service.build !== undefined);
const instances = ours.filter(([, service]) => service.command === undefined);
const envExample = readFileSync(join(ROOT, '.env.example'), 'utf8');
/** Every NAME= of .env.example, set or commented out. */
const envExampleNames = [...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
const SECRET_VARIABLES = ['JWT_SECRET', 'JWT_PREVIOUS_SECRETS', 'DATABASE_URL', 'REDIS_URL', 'BOOTSTRAP_ADMIN_PASSWORD'];

describe('compose.yaml', () => {
  it('has two service instances, a migration job, MariaDB, Redis and nginx', () => {
    assert.deepEqual(Object.keys(services).sort(), ['api1', 'api2', 'mariadb', 'migrate', 'nginx', 'redis']);
    assert.deepEqual(instances.map(([name]) => name).sort(), ['api1', 'api2']);
    assert.deepEqual(services.migrate.command, ['node', 'dist/src/migrate.js']);
    assert.match(services.mariadb.image ?? '', /^mariadb:\d/);
    assert.match(services.redis.image ?? '', /^redis:\d/);
    assert.match(services.nginx.image ?? '', /^nginx:\d/);
    for (const [name, service] of Object.entries(services)) {
      if (service.image) assert.ok(/:/.test(service.image) && !/:latest$/.test(service.image), `${name}: a tagged image`);
    }
  });

  it('publishes only nginx; the instances, the database and Redis stay on the compose network', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === 'nginx') assert.deepEqual(service.ports, ['${HTTP_PORT:-8080}:8080']);
      else assert.equal(service.ports, undefined, `${name} publishes no port`);
    }
  });

  it('every environment variable the instances get is one the configuration knows (.env.example too)', () => {
    for (const [name, service] of ours) {
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !ENVIRONMENT_VARIABLES.includes(variable));
      assert.deepEqual(unknown, [], `${name} sets unknown variables`);
      assert.deepEqual(service.env_file, [{ path: '.env', required: false }], `${name} reads .env`);
    }
    assert.ok(envExampleNames.length >= 5);
    assert.deepEqual(
      envExampleNames.filter((variable) => !ENVIRONMENT_VARIABLES.includes(variable)),
      [],
      '.env.example',
    );
  });

  it('secrets come from files (NAME_FILE, compose secrets), never from the environment or .env.example', () => {
    for (const [name, service] of ours) {
      const environment = service.environment ?? {};
      for (const variable of ['JWT_SECRET', 'JWT_PREVIOUS_SECRETS', 'DATABASE_URL', 'BOOTSTRAP_ADMIN_PASSWORD']) {
        assert.equal(environment[variable], undefined, `${name}: ${variable} inline`);
        const file = environment[`${variable}_FILE`];
        assert.match(file ?? '', /^\/run\/secrets\/\w+$/, `${name}: ${variable}_FILE`);
        const secret = file.slice('/run/secrets/'.length);
        assert.ok(service.secrets?.includes(secret), `${name} mounts ${secret}`);
        assert.match(compose.secrets[secret]?.file ?? '', /^\.\/secrets\//);
      }
    }
    // A secret file .env.example points the operator at is one compose declares.
    for (const [, secret] of envExample.matchAll(/(?:\.\/|\/run\/)secrets\/(\w+)/g))
      assert.ok(compose.secrets[secret], `.env.example names ${secret}, which compose.yaml does not declare`);
    for (const variable of SECRET_VARIABLES)
      assert.doesNotMatch(envExample, new RegExp(`^\\s*${variable}=`, 'm'), `.env.example sets ${variable}`);
    assert.match(readFileSync(join(ROOT, '.gitignore'), 'utf8'), /^secrets\/$/m);
    // Nor are they sent to the image build.
    const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8');
    assert.match(dockerignore, /^secrets$/m);
    assert.match(dockerignore, /^\.env$/m);
  });

  it("the instances' settings pass the configuration's validation, with the secrets read from their files", () => {
    const dir = mkdtempSync(join(tmpdir(), 'cw-compose-'));
    try {
      for (const [name, service] of ours) {
        const environment: Record<string, string> = {};
        for (const [variable, value] of Object.entries(service.environment ?? {})) {
          if (!variable.endsWith('_FILE')) {
            environment[variable] = value;
            continue;
          }
          const file = join(dir, `${name}-${variable}`);
          writeFileSync(file, variable === 'DATABASE_URL_FILE' ? 'mariadb://coworking:pw@mariadb:3306/coworking\n' : `${'s'.repeat(40)}\n`);
          environment[variable] = file;
        }
        const config = validateEnvironment({ ...environment, BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com' });
        assert.equal(config.NODE_ENV, 'production');
        assert.equal(config.database.type, 'mysql');
        assert.equal(config.REDIS_URL, 'redis://redis:6379');
        assert.equal(config.MIGRATIONS_RUN, false, `${name}: the migrate job applies the migrations`);
        assert.equal(config.PORT, 3000);
        assert.notEqual(config.METRICS_PORT, undefined, `${name}: metrics on a port of their own, not through nginx`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts in order: MariaDB healthy → migrate done → instances (with Redis) ready → nginx', () => {
    assert.deepEqual(services.migrate.depends_on, { mariadb: { condition: 'service_healthy' } });
    for (const [name, service] of instances) {
      assert.deepEqual(
        service.depends_on,
        { migrate: { condition: 'service_completed_successfully' }, redis: { condition: 'service_healthy' } },
        name,
      );
      assert.match(service.healthcheck?.test.join(' ') ?? '', /\/health\/ready/, `${name}: healthy when ready`);
    }
    assert.deepEqual(services.nginx.depends_on, { api1: { condition: 'service_healthy' }, api2: { condition: 'service_healthy' } });
    assert.ok(services.mariadb.healthcheck && services.redis.healthcheck);
  });

  it('nginx runs deploy/nginx.conf, balancing over every instance on its PORT', () => {
    assert.ok(services.nginx.volumes?.includes('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro'));
    const conf = readFileSync(NGINX_CONF, 'utf8');
    const upstream = /upstream coworking \{([^}]*)\}/.exec(conf)?.[1] ?? '';
    const servers = [...upstream.matchAll(/server ([\w.-]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    assert.deepEqual(
      servers,
      instances.map(([name, service]) => `${name}:${service.environment?.PORT}`),
    );
    assert.match(conf, /^\s*listen 8080;/m, 'listens on the published container port');
    assert.doesNotMatch(conf, /^\s*daemon /m, 'the image runs it with -g "daemon off;"');
    assert.match(conf, /location = \/metrics \{\s*return 404;/, 'metrics are not served through the balancer');
  });

  it(
    'deploy/nginx.conf, as the tests run it, is a valid nginx configuration',
    { skip: !existsSync(NGINX) && !process.env.CI && 'no nginx here' },
    () => {
      const prefix = mkdtempSync(join(tmpdir(), 'cw-nginx-t-'));
      try {
        for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(prefix, dir));
        const conf = join(prefix, 'nginx.conf');
        writeFileSync(conf, testNginxConfig(readFileSync(NGINX_CONF, 'utf8'), { port: 18080, upstreamPorts: [13001, 13002], prefix }));
        const result = spawnSync(NGINX, ['-t', '-c', conf, '-p', prefix, '-e', join(prefix, 'error.log')], { encoding: 'utf8' });
        assert.equal(result.status, 0, result.stderr);
      } finally {
        rmSync(prefix, { recursive: true, force: true });
      }
    },
  );
});
