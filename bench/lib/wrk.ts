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
  latencyUs: { p50: number; p90: number; p99: number; max: number; mean: number };
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
        latency_us: WrkRun['latencyUs'];
      };
      const errorCount = Object.values(raw.errors).reduce((a, b) => a + b, 0);
      resolve({
        requests: raw.requests,
        durationUs: raw.duration_us,
        rps: raw.requests / (raw.duration_us / 1e6),
        errors: raw.errors,
        errorCount,
        latencyUs: raw.latency_us,
      });
    });
  });
}
