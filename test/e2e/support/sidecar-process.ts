// A real `toolgate serve` process for end-to-end tests: a free port, and a start that resolves once it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { BIN } from '../../support/built-bin.ts';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const AGENT = 'e2e-agent-token-0123456789abcdef';
export const REVIEWER = 'e2e-reviewer-token-0123456789abcdef';

/** A port nobody listens on right now (bound on 127.0.0.1, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

/** Starts `node [nodeFlags] bin/toolgate.js serve --port --data-dir [flags]` and resolves once it prints that it listens. */
export function startSidecarProcess(
  dataDir: string,
  port: number,
  options: { flags?: string[]; nodeFlags?: string[] } = {},
): Promise<ChildProcess> {
  const args = [
    ...(options.nodeFlags ?? []),
    BIN,
    'serve',
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    ...(options.flags ?? []),
    '--log-level',
    'silent',
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, TOOLGATE_AGENT_TOKEN: AGENT, TOOLGATE_REVIEWER_TOKEN: REVIEWER, TOOLGATE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveChild, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`toolgate did not start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolveChild(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`toolgate exited with ${code} before listening:\n${output}`));
    });
  });
}
