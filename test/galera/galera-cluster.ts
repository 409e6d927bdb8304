// A three-node MariaDB Galera cluster on loopback ports in a temporary folder, from Debian's packages
// (mariadb-server's mariadbd with galera-4 as the wsrep provider, state transfers by rsync). Each node
// is a mariadbd process of its own, run as the mysql user with its own data directory, socket, pid file
// and ports; nothing of the machine's own MariaDB is touched.
import { execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { isAlive } from '../support/service.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const PROVIDER = '/usr/lib/galera/libgalera_smm.so';
const MARIADBD = '/usr/sbin/mariadbd';
export const GALERA_USER = { user: 'cw_galera', password: 'cw-galera-test-password' };

export interface GaleraNode {
  index: number;
  name: string;
  /** The MySQL port (127.0.0.1). */
  port: number;
  dir: string;
}

export interface GaleraCluster {
  nodes: GaleraNode[];
  dir: string;
  /** mysql://user:password@127.0.0.1:<node's port>/<database> */
  url(node: GaleraNode, database: string): string;
  /** Creates a database (utf8mb4) through the first node; replicated to all. */
  createDatabase(name: string): Promise<void>;
  /** SIGTERM to the node's mariadbd (a clean leave) and wait until it is gone. */
  stopNode(node: GaleraNode): Promise<void>;
  /** Starts the node again; it rejoins the cluster (incremental transfer) and resolves once it is synced. */
  startNode(node: GaleraNode): Promise<void>;
  /** A node's wsrep status values. */
  status(node: GaleraNode): Promise<Record<string, string>>;
  /** Stops every node and removes the folder. */
  destroy(): Promise<void>;
}

/** Where each node listens: MySQL base+i; Galera replication, incremental and full transfers from 4567+10*i. */
export interface GaleraPorts {
  mysqlBase: number;
  galeraBase: number;
}

const portsOf = (ports: GaleraPorts, index: number) => ({
  mysql: ports.mysqlBase + index,
  galera: ports.galeraBase + 10 * index,
  ist: ports.galeraBase + 10 * index + 1,
  sst: ports.galeraBase + 10 * index + 2,
});

async function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What the test needs from the machine; an explanation of what is missing, or null. */
export function missingPackages(): string | null {
  const missing = [
    [MARIADBD, 'mariadb-server'],
    [PROVIDER, 'galera-4'],
    ['/usr/bin/rsync', 'rsync'],
  ]
    .filter(([file]) => !existsSync(file))
    .map(([, name]) => name);
  return missing.length ? `missing Debian packages: ${missing.join(', ')} (apt-get install ${missing.join(' ')})` : null;
}

export async function startGaleraCluster(
  options: { size?: number; ports?: GaleraPorts; log?: (line: string) => void } = {},
): Promise<GaleraCluster> {
  const size = options.size ?? 3;
  const ports = options.ports ?? { mysqlBase: 4306, galeraBase: 4567 };
  const log = options.log ?? (() => undefined);
  for (let i = 0; i < size; i++) {
    for (const port of Object.values(portsOf(ports, i))) {
      if (await portInUse(port)) throw new Error(`port ${port} is in use: another Galera test running, or set other ports`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'cw-galera-'));
  // mariadbd runs as mysql and must reach its folders inside.
  chmodSync(dir, 0o755);
  const { uid, gid } = await mysqlAccount();
  const address = Array.from({ length: size }, (_, i) => `127.0.0.1:${portsOf(ports, i).galera}`).join(',');

  const nodes: GaleraNode[] = Array.from({ length: size }, (_, i) => ({
    index: i,
    name: `node${i + 1}`,
    port: portsOf(ports, i).mysql,
    dir: join(dir, `node${i + 1}`),
  }));
  const configFile = (node: GaleraNode) => join(node.dir, 'my.cnf');
  const pidFile = (node: GaleraNode) => join(node.dir, 'mariadbd.pid');
  const socket = (node: GaleraNode) => join(node.dir, 'mariadbd.sock');

  for (const node of nodes) {
    const p = portsOf(ports, node.index);
    mkdirSync(join(node.dir, 'data'), { recursive: true });
    writeFileSync(
      configFile(node),
      [
        '[mariadbd]',
        `datadir=${join(node.dir, 'data')}`,
        `socket=${socket(node)}`,
        `pid-file=${pidFile(node)}`,
        `log-error=${join(node.dir, 'error.log')}`,
        `port=${p.mysql}`,
        'bind-address=127.0.0.1',
        'user=mysql',
        'skip-name-resolve',
        // What Galera needs: InnoDB, row-based replication, interleaved auto-increment locks.
        'default_storage_engine=InnoDB',
        'binlog_format=ROW',
        'innodb_autoinc_lock_mode=2',
        // Small and fast for a test: durability comes from the other nodes.
        'innodb_buffer_pool_size=64M',
        'innodb_log_file_size=32M',
        'innodb_flush_log_at_trx_commit=0',
        'max_connections=200',
        'wsrep_on=ON',
        `wsrep_provider=${PROVIDER}`,
        'wsrep_cluster_name=cw_galera_test',
        `wsrep_cluster_address=gcomm://${address}`,
        `wsrep_node_name=${node.name}`,
        `wsrep_node_address=127.0.0.1:${p.galera}`,
        `wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:${p.galera};ist.recv_addr=127.0.0.1:${p.ist};gcache.size=128M;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S"`,
        'wsrep_sst_method=rsync',
        `wsrep_sst_receive_address=127.0.0.1:${p.sst}`,
        '',
      ].join('\n'),
    );
  }
  chownRecursive(dir, uid, gid);

  const launch = async (node: GaleraNode, bootstrap: boolean) => {
    const child = spawn(MARIADBD, [`--defaults-file=${configFile(node)}`, ...(bootstrap ? ['--wsrep-new-cluster'] : [])], {
      stdio: 'ignore',
      detached: true,
    });
    child.unref();
    await waitUntilSynced(node, child);
  };
  const errorLog = (node: GaleraNode) => {
    try {
      return readFileSync(join(node.dir, 'error.log'), 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '(no error log)';
    }
  };
  const connect = (node: GaleraNode) => mysql.createConnection({ socketPath: socket(node), user: 'root' });
  const status = async (node: GaleraNode) => {
    const connection = await connect(node);
    try {
      const [rows] = await connection.query<Array<mysql.RowDataPacket>>("SHOW GLOBAL STATUS LIKE 'wsrep_%'");
      return Object.fromEntries(rows.map((row) => [row.Variable_name as string, String(row.Value)]));
    } finally {
      await connection.end();
    }
  };
  const waitUntilSynced = async (node: GaleraNode, child: ReturnType<typeof spawn>) => {
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${node.name} exited with ${child.exitCode}:\n${errorLog(node)}`);
      try {
        const values = await status(node);
        if (values.wsrep_local_state_comment === 'Synced' && values.wsrep_ready === 'ON') {
          log(`${node.name} synced in ${Date.now() - started} ms (cluster size ${values.wsrep_cluster_size})`);
          return;
        }
      } catch {
        /* not up yet */
      }
      if (Date.now() - started > 120_000) throw new Error(`${node.name} not synced within 120 s:\n${errorLog(node)}`);
      await sleep(250);
    }
  };
  const pidOf = (node: GaleraNode): number | null => {
    try {
      return Number(readFileSync(pidFile(node), 'utf8').trim()) || null;
    } catch {
      return null;
    }
  };
  const stopNode = async (node: GaleraNode) => {
    const pid = pidOf(node);
    if (!pid || !isAlive(pid)) return;
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; isAlive(pid); waited += 100) {
      if (waited > 60_000) process.kill(pid, 'SIGKILL');
      await sleep(100);
    }
  };
  // A test process that ends without its after() hook (interrupted, crashed) still stops its nodes.
  const killNow = () => {
    for (const node of nodes) {
      const pid = pidOf(node);
      if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    killNow();
    process.kill(process.pid, signal);
  };
  process.once('exit', killNow);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const destroy = async () => {
    await Promise.all(nodes.map((node) => stopNode(node).catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', killNow);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };

  try {
    // The first node's data directory is made once; the others receive theirs by state transfer.
    log('initialising the first node');
    await run(
      'mariadb-install-db',
      [`--defaults-file=${configFile(nodes[0])}`, '--user=mysql', '--auth-root-authentication-method=socket', '--skip-test-db'],
      { timeout: 120_000 },
    );
    log('bootstrapping the cluster on node1');
    await launch(nodes[0], true);
    const root = await connect(nodes[0]);
    try {
      // The service's account, on loopback TCP (replicated to the joiners by their state transfer).
      await root.query(`CREATE USER '${GALERA_USER.user}'@'127.0.0.1' IDENTIFIED BY '${GALERA_USER.password}'`);
      await root.query(`GRANT ALL PRIVILEGES ON *.* TO '${GALERA_USER.user}'@'127.0.0.1'`);
    } finally {
      await root.end();
    }
    for (const node of nodes.slice(1)) {
      log(`${node.name} joining`);
      await launch(node, false);
    }
  } catch (error) {
    await destroy();
    throw error;
  }

  return {
    nodes,
    dir,
    url: (node, database) => `mysql://${GALERA_USER.user}:${GALERA_USER.password}@127.0.0.1:${node.port}/${database}`,
    createDatabase: async (name) => {
      const connection = await connect(nodes[0]);
      try {
        await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      } finally {
        await connection.end();
      }
    },
    stopNode,
    startNode: (node) => launch(node, false),
    status,
    destroy,
  };
}

async function mysqlAccount(): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'mysql']), run('id', ['-g', 'mysql'])]);
  return { uid: Number(uid), gid: Number(gid) };
}

function chownRecursive(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  for (const entry of readdirSafe(path)) chownRecursive(join(path, entry), uid, gid);
}

function readdirSafe(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
