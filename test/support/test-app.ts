import 'reflect-metadata';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import mysql from 'mysql2/promise';
import { AppModule } from '../../src/app.module.js';
import { createFastifyAdapter, setupApp } from '../../src/app.setup.js';
import { Database } from '../../src/persistence/database.js';
import { createLogger } from '../../src/platform/logging.js';
import { validateEnvironment } from '../../src/config/configuration.js';

/** The database the HTTP suites run on: in-memory SQLite, or MariaDB when TEST_DATABASE=mysql. */
export const onMySql = process.env.TEST_DATABASE === 'mysql';
export const MYSQL_SERVER_URL = process.env.TEST_MYSQL_URL ?? 'mariadb://root@127.0.0.1:3306/test';

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Sent verbatim with the given content type. */
  raw?: { contentType: string; data: string };
  headers?: Record<string, string>;
  /** The Authorization header; the bootstrap administrator's by default, null for none. */
  auth?: string | null;
}

export interface TestApp {
  url: string;
  /** Authorization header of the full administrator created at start-up (sent by default). */
  adminAuth: string;
  app: NestFastifyApplication;
  db: Database;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
  delete<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  /** Every row of a table, for showing that a refused request changed nothing. */
  rows(table: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';
export const ADMIN_EMAIL = 'admin@test.example';
export const ADMIN_PASSWORD = 'admin-password-for-tests';

export const basicAuth = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/**
 * Creates a database of its own on the MariaDB test server (utf8mb4 unless another default character
 * set is asked for); `drop` removes it.
 */
export async function freshMySqlDatabase(
  options: { characterSet?: string } = {},
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const server = new URL(MYSQL_SERVER_URL);
  const name = `cw_test_${randomBytes(6).toString('hex')}`;
  const admin = await mysql.createConnection({
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username),
    password: decodeURIComponent(server.password),
  });
  const characterSet = options.characterSet ?? 'utf8mb4 COLLATE utf8mb4_unicode_ci';
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET ${characterSet}`);
  await admin.end();
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const conn = await mysql.createConnection({
        host: server.hostname,
        port: Number(server.port || 3306),
        user: decodeURIComponent(server.username),
        password: decodeURIComponent(server.password),
      });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

/**
 * The app a describe block shares: started on a fresh database by a `before` hook registered here
 * (so before the block's own hooks) and closed after its last test. Use it inside hooks and tests;
 * touched while the block is being declared, it fails.
 */
export function appPerSuite(env: Record<string, string> = {}): TestApp {
  let started: TestApp | undefined;
  before(async () => {
    started = await startApp(env);
  });
  after(() => started?.close());
  const app = (): TestApp => started ?? assert.fail("the suite's app is used before its before() hook ran");
  return {
    get url() {
      return app().url;
    },
    get adminAuth() {
      return app().adminAuth;
    },
    get app() {
      return app().app;
    },
    get db() {
      return app().db;
    },
    request: (method, path, options) => app().request(method, path, options),
    get: (path, options) => app().get(path, options),
    post: (path, body, options) => app().post(path, body, options),
    put: (path, body, options) => app().put(path, body, options),
    delete: (path, options) => app().delete(path, options),
    rows: (table) => app().rows(table),
    close: () => app().close(),
  };
}

/** Builds the real AppModule with @nestjs/testing, the same global setup as production, on a fresh database. */
export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = onMySql ? await freshMySqlDatabase() : { url: 'sqlite::memory:', drop: async () => undefined };
  const config = validateEnvironment({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    DATABASE_URL: database.url,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...env,
  });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(config)] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(config, createLogger(config)));
  await setupApp(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const db = app.get(Database);
  const adminAuth = basicAuth(ADMIN_EMAIL, ADMIN_PASSWORD);

  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      body = options.raw.data;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const auth = options.auth === undefined ? adminAuth : options.auth;
    if (auth) headers.authorization = auth;
    const response = await fetch(url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  return {
    url,
    adminAuth,
    app,
    db,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
    rows: (table) => db.query(`SELECT * FROM ${db.id(table)} ORDER BY ${db.id('Id')}`),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
