// nginx (Debian's package) as the load balancer in front of several instances, started by a test on
// loopback ports with the deployed configuration (deploy/nginx.conf) templated for them, under the
// test's control (daemon off).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, sleep } from './service.js';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path)) ?? 'nginx';

export interface Nginx {
  port: number;
  url: string;
  stop(): Promise<void>;
  errorLog(): string;
}

/** The load balancer's configuration as deployed (compose.yaml mounts it). */
export const NGINX_CONF = join(ROOT, 'deploy', 'nginx.conf');

/** Replaces the one match of `pattern` in `text`; a file whose lines changed shape fails loudly. */
function replaceOnce(text: string, pattern: RegExp, replacement: (match: RegExpMatchArray) => string): string {
  const matches = [...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
  if (matches.length !== 1) throw new Error(`deploy/nginx.conf: expected one match of ${pattern}, found ${matches.length}`);
  const match = matches[0];
  return text.slice(0, match.index) + replacement(match) + text.slice(match.index + match[0].length);
}

/**
 * deploy/nginx.conf for a test: the upstream servers become the instances' loopback ports (with the
 * file's server parameters), it listens on a loopback port, keeps its files under `prefix`, runs in
 * the foreground with one worker, and names the instance that answered in the X-Upstream header.
 */
export function testNginxConfig(template: string, options: { port: number; upstreamPorts: number[]; prefix: string }): string {
  const { port, upstreamPorts, prefix } = options;
  let conf = template;
  conf = replaceOnce(conf, /^([ \t]*)upstream coworking \{\n((?:[ \t]*server [^\n]*\n)+)([ \t]*)\}/m, (m) => {
    const parameters = /server \S+((?: [^;\s]+)*);/.exec(m[2])?.[1] ?? '';
    return `${m[1]}upstream coworking {\n${upstreamPorts.map((p) => `${m[1]}  server 127.0.0.1:${p}${parameters};`).join('\n')}\n${m[3]}}`;
  });
  conf = replaceOnce(conf, /^([ \t]*)listen \d+;/m, (m) => `${m[1]}listen 127.0.0.1:${port};`);
  conf = replaceOnce(conf, /^worker_processes \w+;/m, () => 'daemon off;\nworker_processes 1;');
  conf = replaceOnce(conf, /^pid \S+;/m, () => `pid ${prefix}/nginx.pid;`);
  conf = replaceOnce(conf, /^error_log \S+/m, () => `error_log ${prefix}/logs/error.log`);
  conf = replaceOnce(conf, /^([ \t]*)access_log \S+/m, (m) => `${m[1]}access_log ${prefix}/logs/access.log`);
  conf = replaceOnce(conf, /^http \{/m, () =>
    ['http {', ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((dir) => `  ${dir}_temp_path ${prefix}/${dir};`)].join('\n'),
  );
  conf = replaceOnce(conf, /^([ \t]*)location \/ \{/m, (m) => `${m[1]}location / {\n${m[1]}  add_header X-Upstream $upstream_addr always;`);
  return conf;
}

/**
 * nginx with deploy/nginx.conf over the upstream ports (round-robin). X-Forwarded-For carries the client
 * address; the response header X-Upstream names the instance that answered. As deployed, it retries
 * another instance on a refused connection, and for idempotent requests also on 502/503.
 */
export async function startNginx(upstreamPorts: number[]): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'cw-nginx-'));
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(prefix, dir));
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, testNginxConfig(readFileSync(NGINX_CONF, 'utf8'), { port, upstreamPorts, prefix }));
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', prefix, '-e', join(prefix, 'logs', 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    const file = join(prefix, 'logs', 'error.log');
    return stderr + (existsSync(file) ? readFileSync(file, 'utf8') : '');
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${errorLog()}`);
    const up = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );
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
