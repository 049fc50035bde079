// A throw-away PostgreSQL cluster for tests: initdb in a temporary directory, a free port, trust auth on 127.0.0.1.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running cluster. */
export interface Cluster {
  url: string;
  port: number;
  dir: string;
  /** A fresh database on the cluster, for one test file or suite. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (`mode` immediate is a crash: nothing is flushed that was not committed). */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Starts it again after stop(). */
  start(): void;
  /** Runs SQL through psql as the superuser; returns its output. */
  psql(sql: string, database?: string): string;
  /** Stops and deletes everything. */
  destroy(): void;
}

/** The directory of PostgreSQL's server binaries, or undefined when none is installed. */
export function findPgBin(): string | undefined {
  if (process.env.TOOLGATE_PG_BIN) return process.env.TOOLGATE_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/**
 * Why the PostgreSQL tests cannot run here, or undefined when they can. In CI (CI=true) missing binaries are a
 * failure, not a skip: the caller should throw the message then.
 */
export function pgUnavailable(): string | undefined {
  if (findPgBin()) return undefined;
  return 'PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql, or set TOOLGATE_PG_BIN';
}

/** True when a missing PostgreSQL must fail the run rather than skip it. */
export function inCi(): boolean {
  return process.env.CI === 'true' || process.env.CI === '1';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts a cluster (as the `postgres` user when running as root: initdb refuses root). */
export async function startCluster(): Promise<Cluster> {
  const bin = findPgBin();
  if (!bin) throw new Error(pgUnavailable());
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  let uid: number;
  let gid: number;
  if (asRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (cmd: string, args: string[]) => {
    const full = asRoot
      ? (['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] as const)
      : ([join(bin, cmd), args] as const);
    const result = spawnSync(full[0], [...full[1]], { encoding: 'utf8', cwd: dir });
    if (result.status !== 0)
      throw new Error(
        `${cmd} ${args.join(' ')} failed: ${result.error?.message ?? ''} ${result.signal ?? ''} ${result.stderr || result.stdout}`,
      );
    return result.stdout;
  };
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=on -c synchronous_commit=on`;
  const start = () =>
    void run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const psql = (sql: string, database = 'postgres') =>
    run('psql', [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      database,
      '-v',
      'ON_ERROR_STOP=1',
      '-At',
      '-c',
      sql,
    ]);
  let running = true;
  return {
    url,
    port,
    dir,
    async createDatabase(name) {
      psql(`CREATE DATABASE "${name}"`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop(mode = 'fast') {
      if (!running) return;
      run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
      running = false;
    },
    start() {
      if (running) return;
      start();
      running = true;
    },
    psql,
    destroy() {
      try {
        if (running) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already down
      }
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
