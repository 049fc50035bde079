// A real `toolgate serve` for the agent tests, on 127.0.0.1 with a port the system picks, and a reviewer's view of it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const AGENT_TOKEN = 'agent-token-for-agent-tests-0123456789';
export const REVIEWER_TOKEN = 'reviewer-token-for-agent-tests-0123456789';

export interface Sidecar {
  url: string;
  /** A reviewer's call to the sidecar's API. */
  reviewer(path: string, body?: unknown): Promise<any>;
  /** The pending approval of a session, once there is one (polls up to `timeoutMs`). */
  pendingApproval(timeoutMs?: number): Promise<{ id: string; tool: string; args: unknown }>;
  /** Every audit row, newest first. */
  audit(): Promise<{ decision: string; tool: string; source: string; reason: string; session_id: string | null }[]>;
  close(): Promise<void>;
}

/** Starts `toolgate serve --port 0` with `flags` and resolves once it listens. */
export async function startSidecar(flags: string[] = []): Promise<Sidecar> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-agents-'));
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/toolgate.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', ...flags],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TOOLGATE_AGENT_TOKEN: AGENT_TOKEN,
        TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await listening(child);
  const reviewer = async (path: string, body?: unknown): Promise<any> => {
    const res = await fetch(url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${REVIEWER_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  return {
    url,
    reviewer,
    async pendingApproval(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const { approvals } = await reviewer('/v1/approvals?status=pending');
        if (approvals.length > 0) return approvals[0];
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no approval was opened within ${timeoutMs} ms`);
    },
    async audit() {
      return (await reviewer('/v1/audit?limit=1000')).items;
    },
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function listening(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`toolgate did not start within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!.replace(/\/$/, ''));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`toolgate exited with ${code} before listening:\n${output}`));
    });
  });
}

/** A URL where nothing listens (a port bound on 127.0.0.1, then released): a sidecar that is down. */
export async function downUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}
