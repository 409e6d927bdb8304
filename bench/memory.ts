// npm run bench:memory: the resident memory of the service started as the README starts it (`npm run
// start:prod`, whose script gives the runtime settings; SQLite) under 50 connections mixing reads by id,
// lists and creates (docs/operations.md, "Memory and GC": the 250 MB budget). Prints the idle and the
// highest resident memory of the whole process tree (npm and the service) and of the service alone,
// sampled every 250 ms. SECONDS sets the load's length (30).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { childProcesses, freePort, residentMemoryMb, treeResidentMemoryMb } from './harness.js';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'cw-memory-'));
const port = await freePort();
const admin = { email: 'admin@example.com', password: 'a long secret' };
const child = spawn('npm', ['run', 'start:prod'], {
  cwd: root,
  // The README's start, on a database of its own; the rate limit lifted so the load is served, not refused.
  env: {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    DATABASE_URL: `sqlite:${join(dir, 'coworking.sqlite')}`,
    BOOTSTRAP_ADMIN_EMAIL: admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: admin.password,
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
  // A process group of its own, so that npm and the service it runs are stopped together.
  detached: true,
});
const url = `http://127.0.0.1:${port}`;
try {
  for (let waited = 0; ; waited += 200) {
    if ((await fetch(`${url}/health`).catch(() => null))?.ok) break;
    if (waited > 120_000 || child.exitCode !== null) throw new Error('the service did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const token = (
    (await (
      await fetch(`${url}/api/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', username: admin.email, password: admin.password }),
      })
    ).json()) as { access_token: string }
  ).access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const create = async (path: string, body: unknown) =>
    ((await (await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { Value: { Id: number } }).Value
      .Id;
  const business = await create('/api/sys/businesses', { Name: 'Memory', CurrencyId: 1, CountryId: 1 });
  const ids: number[] = [];
  for (let i = 0; i < 200; i++)
    ids.push(await create('/api/spaces/coworkers', { BusinessId: business, FullName: `Seed ${i}`, Email: `seed${i}@example.com` }));

  const pid = childProcesses(child.pid!)[0];
  const tree = () => treeResidentMemoryMb(child.pid!);
  const idle = [tree(), residentMemoryMb(pid)];
  const peak = [...idle];
  const sampler = setInterval(() => {
    peak[0] = Math.max(peak[0], tree());
    peak[1] = Math.max(peak[1], residentMemoryMb(pid));
  }, 250);
  let n = 0;
  const result = await autocannon({
    url,
    connections: 50,
    duration: Number(process.env.SECONDS ?? 30),
    headers,
    requests: [
      {
        // Each request gets headers of its own: autocannon writes a POST's Content-Length into the headers
        // object it is given, and a GET sent after it on a shared object then announced a body it did not
        // have, so the server read the next request as that body and answered 400 (about 40% of the load).
        setupRequest: (template) => {
          const kind = n++ % 3;
          const request = { ...template, headers: { ...headers } };
          if (kind === 0) return { ...request, method: 'GET', path: `/api/spaces/coworkers/${ids[n % ids.length]}` };
          if (kind === 1) return { ...request, method: 'GET', path: `/api/spaces/coworkers?Coworker_Business=${business}&size=100` };
          return {
            ...request,
            method: 'POST',
            path: '/api/spaces/coworkers',
            body: JSON.stringify({ BusinessId: business, FullName: `Load ${n}`, Email: `load${n}@example.com` }),
          };
        },
      },
    ],
  });
  clearInterval(sampler);
  console.log(
    `50 connections, ${result.duration} s: ${Math.round(result.requests.average)} requests/s, ${result.non2xx} non-2xx, ${result.errors + result.timeouts} errors, p99 ${result.latency.p99} ms`,
  );
  console.log(
    `resident memory of the process tree (npm and the service): idle ${Math.round(idle[0])} MB, highest ${Math.round(peak[0])} MB, after ${Math.round(tree())} MB`,
  );
  console.log(
    `of the service alone: idle ${Math.round(idle[1])} MB, highest ${Math.round(peak[1])} MB, after ${Math.round(residentMemoryMb(pid))} MB`,
  );
} finally {
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
