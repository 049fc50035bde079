// The gateway's test bench: a real sidecar in this process (127.0.0.1, port 0, a temporary data directory), the
// stub upstream as `toolgate mcp`'s child, and a real SDK client speaking to `toolgate mcp` over stdio.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startServer, type RunningServer } from '../../../src/cli/serve.ts';
import { loadConfig } from '../../../src/config.ts';
import { createToolgateClient, type ToolgateClient } from '../../../src/client/index.ts';

export const AGENT = 'mcp-test-agent-token-0123456789';
export const REVIEWER = 'mcp-test-reviewer-token-0123456789';

/** A running sidecar and a reviewer client for it. */
export interface Sidecar {
  server: RunningServer;
  url: string;
  dataDir: string;
  reviewer: ToolgateClient;
  close(): Promise<void>;
}

/** Starts a sidecar on a free port; `flags` are serve's (e.g. approval timeout). */
export async function startSidecar(
  flags: Record<string, string> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'toolgate-mcp-')),
): Promise<Sidecar> {
  const config = loadConfig(
    { 'data-dir': dataDir, port: '0', ...flags },
    { TOOLGATE_AGENT_TOKEN: AGENT, TOOLGATE_REVIEWER_TOKEN: REVIEWER },
  );
  const server = await startServer(config, { out: () => {}, err: () => {}, env: {} });
  return {
    server,
    url: server.url,
    dataDir,
    reviewer: createToolgateClient({ baseUrl: server.url, token: REVIEWER }),
    close: () => server.close(),
  };
}

/** A gateway process with a connected SDK client, and the upstream's call log. */
export interface GatewaySession {
  client: Client;
  /** The calls the stub upstream received, in order. */
  upstreamCalls(): { name: string; args: Record<string, unknown> }[];
  stderr(): string;
  close(): Promise<void>;
}

export interface GatewayOptions {
  toolgateUrl: string;
  name?: string;
  extraFlags?: string[];
  /** STUB_VARIANT for the upstream (`changed` alters a description). */
  variant?: string;
  /** A file the upstream appends its calls to (shared across sessions); default a fresh one. */
  callsFile?: string;
  token?: string;
  /** What follows `--name stub …`: default `-- node --import tsx stub-upstream.ts` (stdio). */
  upstreamArgs?: string[];
}

const stubPath = new URL('./stub-upstream.ts', import.meta.url).pathname;
const binPath = new URL('../../../bin/toolgate.js', import.meta.url).pathname;

/** Spawns `toolgate mcp --name stub … -- node --import tsx stub-upstream.ts` and connects an SDK client to it. */
export async function startGateway(options: GatewayOptions): Promise<GatewaySession> {
  const callsFile = options.callsFile ?? join(mkdtempSync(join(tmpdir(), 'toolgate-mcp-calls-')), 'calls.jsonl');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      binPath,
      'mcp',
      '--name',
      options.name ?? 'stub',
      ...(options.extraFlags ?? []),
      ...(options.upstreamArgs ?? ['--', process.execPath, '--import', 'tsx', stubPath]),
    ],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      TOOLGATE_URL: options.toolgateUrl,
      TOOLGATE_AGENT_TOKEN: options.token ?? AGENT,
      STUB_CALLS: callsFile,
      ...(options.variant ? { STUB_VARIANT: options.variant } : {}),
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'toolgate-test-client', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    upstreamCalls: () => {
      try {
        return readFileSync(callsFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      } catch {
        return [];
      }
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function until<T>(check: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The text of a tool result's first block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** An SDK client straight to the stub upstream (no gateway): what the gateway's answers must equal. */
export async function startDirect(callsFile?: string): Promise<Client> {
  const client = new Client({ name: 'toolgate-test-direct', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', stubPath],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ...(callsFile ? { STUB_CALLS: callsFile } : {}),
      },
      stderr: 'ignore',
    }),
  );
  return client;
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
