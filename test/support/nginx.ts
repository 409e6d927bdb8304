// nginx (Debian's package) as the load balancer in front of several instances, started by a test on
// loopback ports with a generated configuration, under the test's control (daemon off).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep } from './service.js';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path)) ?? 'nginx';

export interface Nginx {
  port: number;
  url: string;
  stop(): Promise<void>;
  errorLog(): string;
}

/**
 * Round-robin over the upstream ports. X-Forwarded-For carries the client address; the response
 * header X-Upstream names the instance that answered. Like a typical load balancer it retries another
 * instance on a refused connection, and for idempotent requests also on 502/503.
 */
export async function startNginx(upstreamPorts: number[]): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'cw-nginx-'));
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(prefix, dir));
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, `
worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream coworking {
${upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=10s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://coworking;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_connect_timeout 2s;
      proxy_read_timeout 30s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`);
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', prefix, '-e', join(prefix, 'logs', 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    const file = join(prefix, 'logs', 'error.log');
    return stderr + (existsSync(file) ? readFileSync(file, 'utf8') : '');
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${errorLog()}`);
    const up = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false);
    if (up) break;
    if (i > 50) throw new Error(`nginx did not start:\n${errorLog()}`);
    await sleep(100);
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    errorLog,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
