import assert from 'node:assert/strict';
import { httpRequest, type HttpAnswer } from './http.js';
import { startNginx, type Nginx } from './nginx.js';
import { startService, type Service } from './service.js';
import { basicAuth, freshMySqlDatabase, TEST_JWT_SECRET } from './test-app.js';

// Two instances of the built service on one fresh MariaDB database behind nginx, as the cluster suites
// (test/cluster/) use them: each request as the bootstrap administrator from one client address.

export interface ClusterAnswer extends HttpAnswer {
  text: string;
  /** The instance nginx sent it to (X-Upstream), when it went through nginx. */
  upstream: string | null;
}

export interface TwoInstances {
  a: Service;
  b: Service;
  nginx: Nginx;
  /** A request to `base` (an instance's URL or nginx's) as the administrator. */
  call(base: string, method: string, path: string, json?: unknown): Promise<ClusterAnswer>;
  /** A create through nginx that must succeed: the new record's Id. */
  createOk(path: string, body: unknown): Promise<number>;
  stop(): Promise<void>;
}

export async function twoInstancesBehindNginx(admin: { email: string; password: string }, clientAddress: string): Promise<TwoInstances> {
  const database = await freshMySqlDatabase();
  const env = {
    DATABASE_URL: database.url,
    JWT_SECRET: TEST_JWT_SECRET,
    BOOTSTRAP_ADMIN_EMAIL: admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: admin.password,
    TRUST_PROXY: '127.0.0.1',
  };
  const [a, b] = await Promise.all([startService('A', env), startService('B', env)]);
  const nginx = await startNginx([a.port, b.port]);
  const authorization = basicAuth(admin.email, admin.password);
  const call = async (base: string, method: string, path: string, json?: unknown): Promise<ClusterAnswer> => {
    const res = await httpRequest(base + path, {
      method,
      json,
      headers: { authorization, 'x-forwarded-for': clientAddress },
      timeoutMs: 20_000,
    });
    return { ...res, text: typeof res.body === 'string' ? res.body : JSON.stringify(res.body), upstream: res.headers.get('x-upstream') };
  };
  return {
    a,
    b,
    nginx,
    call,
    async createOk(path, body) {
      const res = await call(nginx.url, 'POST', path, body);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      return res.body.Value.Id;
    },
    async stop() {
      await nginx.stop();
      await a.stop();
      await b.stop();
      await database.drop();
    },
  };
}

/** The answers that were server errors, as text. */
export const serverErrors = (answers: ClusterAnswer[]) =>
  answers.filter((answer) => answer.status >= 500).map((answer) => `${answer.status} ${answer.text}`);
