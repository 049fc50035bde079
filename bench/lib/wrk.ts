// Runs wrk (pinned to the load core) with the decide Lua script and parses the figures it prints.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { LOAD_CPU, ROOT } from './processes.ts';

/** What one wrk run measured. */
export interface WrkRun {
  requests: number;
  durationUs: number;
  rps: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  /** Sum of every error kind (non-2xx/3xx answers count as `status`). */
  errorCount: number;
  /**
   * wrk's latency figures. With one connection they are not what its calls took: wrk adds samples for coordinated
   * omission (see bench/wrk/decide.lua) — use `calls` there.
   */
  latencyUs: Latency;
  /** One connection only: every call's own latency, each call counted once (bench/wrk/decide.lua). */
  calls?: Latency & { n: number };
}

/** Latency figures in µs. */
export interface Latency {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Options of one run. */
export interface WrkOptions {
  url: string;
  bodiesFile: string;
  token: string;
  unique: boolean;
  runId: string;
  connections: number;
  seconds: number;
  /** Time every call on its own (default: when there is one connection; more than one is refused). */
  timeEachCall?: boolean;
}

/** Whether wrk is installed. */
export async function hasWrk(): Promise<boolean> {
  return new Promise((resolve) => {
    const p = spawn('wrk', ['--version'], { stdio: 'ignore' });
    p.once('error', () => resolve(false));
    p.once('exit', () => resolve(true));
  });
}

/** One wrk run: one thread, `connections` connections, on the load core. */
export function runWrk(options: WrkOptions): Promise<WrkRun> {
  const timeEachCall = options.timeEachCall ?? options.connections === 1;
  if (timeEachCall && options.connections !== 1)
    throw new Error('calls can be timed one by one on one connection only');
  const args = [
    '-c',
    String(LOAD_CPU),
    'wrk',
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    '5s',
    '-s',
    join(ROOT, 'bench/wrk/decide.lua'),
    options.url,
    '--',
    options.bodiesFile,
    options.token,
    options.unique ? '1' : '0',
    options.runId,
    timeEachCall ? '1' : '0',
  ];
  return new Promise((resolve, reject) => {
    const p = spawn('taskset', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    p.once('error', reject);
    p.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (${code}): ${err}${out}`));
      const raw = JSON.parse(line.slice('WRK_JSON '.length)) as {
        requests: number;
        duration_us: number;
        errors: WrkRun['errors'];
        latency_us: Latency;
        calls_us: (Latency & { n: number }) | null;
      };
      const errorCount = Object.values(raw.errors).reduce((a, b) => a + b, 0);
      // Every answered call timed once: a difference means the request/response pairing went wrong.
      if (timeEachCall && raw.calls_us?.n !== raw.requests)
        return reject(new Error(`wrk timed ${raw.calls_us?.n ?? 0} calls of ${raw.requests}: ${out}`));
      resolve({
        requests: raw.requests,
        durationUs: raw.duration_us,
        rps: raw.requests / (raw.duration_us / 1e6),
        errors: raw.errors,
        errorCount,
        latencyUs: raw.latency_us,
        ...(raw.calls_us ? { calls: raw.calls_us } : {}),
      });
    });
  });
}
