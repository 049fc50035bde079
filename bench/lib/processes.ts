// Starting and stopping the real server processes the HTTP benchmarks measure (pinned to a core, ulimit raised).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/lib/ → ../..). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Fixed tokens for the benchmark servers (passed through the environment, as an operator would). */
export const AGENT_TOKEN = 'bench-agent-token-0123456789abcdef';
export const REVIEWER_TOKEN = 'bench-reviewer-token-0123456789abcdef';

/** The core the server runs on and the core the load generator runs on (the other one). */
export const SERVER_CPU = 0;
export const LOAD_CPU = availableParallelism() > 1 ? 1 : 0;

/** A server child process and its address. */
export interface ServerProcess {
  pid: number;
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far (for error reports). */
  stderr(): string;
  /** Resident set size of the process, in MB (from /proc). */
  rssMb(): number;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit. */
  kill9(): Promise<void>;
}

/** Options of a spawned server. */
export interface SpawnOptions {
  /** Pin to this core with taskset; undefined leaves it unpinned. */
  cpu?: number;
  env?: NodeJS.ProcessEnv;
  /** Raise the open-file limit to the hard limit first (long-poll capacity needs ~10k sockets). */
  raiseFdLimit?: boolean;
}

/** Runs `node <args>` through bash (for `ulimit`) and taskset (for pinning), so the child's pid is node's. */
export function spawnNode(args: string[], options: SpawnOptions = {}): ChildProcess {
  const quoted = args.map(shellQuote).join(' ');
  const pin = options.cpu === undefined ? '' : `taskset -c ${options.cpu} `;
  const ulimit = options.raiseFdLimit ? 'ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; ' : '';
  return spawn('bash', ['-c', `${ulimit}exec ${pin}${shellQuote(process.execPath)} ${quoted}`], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * The node flags `npm start` gives the server (package.json's start script): the benchmarks measure the server
 * as it is started, not a differently tuned one.
 */
export const START_NODE_FLAGS: readonly string[] = (() => {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  const flags = /^node\s+(.*?)\s*bin\/toolgate\.js\b/.exec(start)?.[1];
  return flags ? flags.split(/\s+/) : [];
})();

/** Starts `node bin/toolgate.js serve` (with the start script's node flags) on a free port with a fresh data directory and the bench tokens. */
export async function startToolgate(
  options: SpawnOptions & { dataDir?: string; flags?: string[]; nodeFlags?: string[]; entry?: string } = {},
): Promise<ServerProcess & { dataDir: string }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'toolgate-bench-'));
  // `entry`: another build's cli/run.js (a copy of dist/ from before a change, bench/http-ab.ts); default the checkout's.
  const child = spawnNode(
    [
      ...START_NODE_FLAGS,
      ...(options.nodeFlags ?? []),
      options.entry ?? 'bin/toolgate.js',
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      ...(options.flags ?? []),
    ],
    {
      ...options,
      env: { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN, ...options.env },
    },
  );
  const server = await waitForListening(child, /listening on (http:\/\/\S+)/);
  return { ...server, dataDir };
}

/**
 * Starts the durable-audit floor: the raw baseline plus toolgate's own grouped audit commit per request (no decision),
 * with the start script's node flags like toolgate. Needs dist/ built (bench/run.ts builds it).
 */
export function startAuditFloorServer(options: SpawnOptions & { nodeFlags?: string[] } = {}): Promise<ServerProcess> {
  return waitForListening(
    spawnNode([...START_NODE_FLAGS, ...(options.nodeFlags ?? []), 'bench/servers/audit-floor-server.mjs'], options),
    /listening on (http:\/\/\S+)/,
  );
}

/** Starts the baseline: a raw node:http server that parses the same JSON and answers a fixed decision. */
export function startRawServer(options: SpawnOptions = {}): Promise<ServerProcess> {
  return waitForListening(spawnNode(['bench/servers/raw-server.mjs'], options), /listening on (http:\/\/\S+)/);
}

/** Removes a benchmark's temporary data directory. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function waitForListening(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<ServerProcess> {
  let err = '';
  let out = '';
  child.stderr!.setEncoding('utf8');
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => (out = (out + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid!;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${err}${out}`));
    }, timeoutMs);
    const onData = (d: string) => {
      err = (err + d).slice(-20_000);
      const m = pattern.exec(err);
      if (!m) return;
      clearTimeout(timer);
      const url = m[1]!;
      const stopWith = (signal: NodeJS.Signals) => async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        await exited;
      };
      resolve({
        pid,
        url,
        port: Number(new URL(url).port),
        child,
        stderr: () => err,
        rssMb: () => rssMb(pid),
        stop: stopWith('SIGTERM'),
        kill9: stopWith('SIGKILL'),
      });
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${err}${out}`));
    });
  });
}

/** CPU time (user + system) a process has used so far, in microseconds (from /proc/<pid>/stat). */
export function cpuTimeUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / CLOCK_TICKS) * 1e6;
}

/** USER_HZ: /proc reports CPU times in these ticks (100 on Linux everywhere that matters). */
const CLOCK_TICKS = 100;

/** VmRSS of a process in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Builds dist/ when it is older than any file in src/ (bin/toolgate.js runs dist/); true when it built. */
export function buildIfStale(): boolean {
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((e) =>
        e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
      ),
    );
  const stamp = join(ROOT, 'dist', '.build-stamp');
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newest(join(ROOT, 'src'))) return false;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return true;
}
