// A MariaDB server of the test's own (Debian's mariadbd) in a temporary folder, on a free loopback port,
// with its own data directory, socket and pid file, run as the mysql user, so a test can stop it, kill it
// and start it again; the machine's own MariaDB is not touched. Durable as in production
// (innodb_flush_log_at_trx_commit=1): a commit acknowledged before a kill is there after the restart.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { freePort, isAlive, sleep } from '../support/service.js';

const run = promisify(execFile);
const MARIADBD = '/usr/sbin/mariadbd';
const USER = { user: 'cw_faults', password: 'cw-faults-test-password' };

export interface MariaDbServer {
  port: number;
  /** mysql://… of a database on it. */
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  /** Sends the signal to mariadbd and waits until it is gone (SIGTERM: a clean stop; SIGKILL: a crash). */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again on the same data and port; resolves once it answers. */
  start(): Promise<void>;
  /** Stops it and removes the folder. */
  destroy(): Promise<void>;
}

function chownRecursive(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  let entries: string[] = [];
  try {
    entries = readdirSync(path);
  } catch {
    /* a file */
  }
  for (const entry of entries) chownRecursive(join(path, entry), uid, gid);
}

export async function startMariaDbServer(): Promise<MariaDbServer> {
  if (process.getuid?.() !== 0)
    throw new Error('the fault suite runs as root: its mariadbd runs as the mysql user, in a folder it makes for it');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cw-faults-db-'));
  chmodSync(dir, 0o755);
  const socket = join(dir, 'mariadbd.sock');
  const pidFile = join(dir, 'mariadbd.pid');
  const config = join(dir, 'my.cnf');
  mkdirSync(join(dir, 'data'));
  writeFileSync(
    config,
    [
      '[mariadbd]',
      `datadir=${join(dir, 'data')}`,
      `socket=${socket}`,
      `pid-file=${pidFile}`,
      `log-error=${join(dir, 'error.log')}`,
      `port=${port}`,
      'bind-address=127.0.0.1',
      'user=mysql',
      'skip-name-resolve',
      'innodb_buffer_pool_size=64M',
      'innodb_log_file_size=32M',
      'innodb_flush_log_at_trx_commit=1',
      'max_connections=200',
      '',
    ].join('\n'),
  );
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'mysql']), run('id', ['-g', 'mysql'])]);
  chownRecursive(dir, Number(uid), Number(gid));
  await run(
    'mariadb-install-db',
    [`--defaults-file=${config}`, '--user=mysql', '--auth-root-authentication-method=socket', '--skip-test-db'],
    { timeout: 120_000 },
  );

  let child: ChildProcess | undefined;
  const pid = (): number | null => {
    try {
      return Number(readFileSync(pidFile, 'utf8').trim()) || null;
    } catch {
      return null;
    }
  };
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '(no error log)';
    }
  };
  const start = async () => {
    child = spawn(MARIADBD, [`--defaults-file=${config}`], { stdio: 'ignore', detached: true });
    child.unref();
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`mariadbd exited with ${child.exitCode}:\n${errorLog()}`);
      try {
        const connection = await mysql.createConnection({ socketPath: socket, user: 'root' });
        await connection.end();
        return;
      } catch {
        /* not up yet */
      }
      if (Date.now() - started > 120_000) throw new Error(`mariadbd did not start within 120 s:\n${errorLog()}`);
      await sleep(100);
    }
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL') => {
    const id = pid() ?? child?.pid;
    if (!id || !isAlive(id)) return;
    process.kill(id, signal);
    for (let waited = 0; isAlive(id); waited += 50) {
      if (waited > 60_000) process.kill(id, 'SIGKILL');
      await sleep(50);
    }
  };
  // A test process that ends without its after() hook still stops its server.
  const killNow = () => {
    const id = pid();
    if (id && isAlive(id)) process.kill(id, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killNow);

  await start();
  const root = await mysql.createConnection({ socketPath: socket, user: 'root' });
  try {
    await root.query(`CREATE USER '${USER.user}'@'127.0.0.1' IDENTIFIED BY '${USER.password}'`);
    await root.query(`GRANT ALL PRIVILEGES ON *.* TO '${USER.user}'@'127.0.0.1'`);
  } finally {
    await root.end();
  }
  return {
    port,
    url: (database) => `mysql://${USER.user}:${USER.password}@127.0.0.1:${port}/${database}`,
    createDatabase: async (name) => {
      const connection = await mysql.createConnection({ socketPath: socket, user: 'root' });
      try {
        await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      } finally {
        await connection.end();
      }
    },
    stop,
    start,
    destroy: async () => {
      await stop('SIGTERM').catch(() => undefined);
      process.off('exit', killNow);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
