// Real `toolgate serve` processes on one PostgreSQL database (the built bin, as an operator runs it).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const AGENT_TOKEN = 'tgt_pg_replica_agent_token_0001';
export const REVIEWER_TOKEN = 'tgr_pg_replica_reviewer_token_01';
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** One replica. */
export interface Replica {
  name: string;
  url: string;
  process: ChildProcess;
  /** Standard error so far (JSON logs). */
  log(): string;
  /** kill -9. */
  kill(): void;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Config every replica shares (caps as the test wants them). */
export function writeConfig(config: Record<string, unknown>): { file: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-pg-config-'));
  const file = join(dir, 'toolgate.json');
  writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts `node bin/toolgate.js serve --database URL` and waits until /readyz answers 200. */
export async function startReplica(name: string, databaseUrl: string, configFile: string): Promise<Replica> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `toolgate-replica-${name}-`));
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin/toolgate.js'),
      'serve',
      '--database',
      databaseUrl,
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--config',
      configFile,
      '--log-level',
      'warn',
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        TOOLGATE_AGENT_TOKEN: AGENT_TOKEN,
        TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN,
        TOOLGATE_DATABASE_URL: '',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`replica ${name} exited ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`replica ${name} not ready in 30 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    url,
    process: child,
    log: () => stderr,
    kill() {
      child.kill('SIGKILL');
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON request with a bearer token; never throws for a refused connection (status 0 then). */
export async function call(
  base: string,
  path: string,
  options: { token?: string; body?: unknown; method?: string } = {},
): Promise<{ status: number; body: any }> {
  try {
    const res = await fetch(`${base}${path}`, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${options.token ?? AGENT_TOKEN}`, 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

export function decide(base: string, command: string, extra: Record<string, unknown> = {}, token = AGENT_TOKEN) {
  return call(base, '/v1/decide', { token, body: { tool: 'bash', args: { command }, ...extra } });
}

export function resolve(base: string, id: string, choice: string) {
  return call(base, `/v1/approvals/${id}/resolve`, { token: REVIEWER_TOKEN, body: { choice } });
}

/** The p-th percentile (0–100) of values. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
