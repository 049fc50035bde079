// Test harness: a whole toolgate (engine, store on :memory:, service, HTTP app) built in-process, no sockets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { createApp, type RouteModule } from '../../src/http/app.ts';
import type { AuthGuard } from '../../src/http/auth.ts';
import { failedAuthLimiter } from '../../src/http/rate-limit.ts';
import type { ShellAnalyzer } from '../../src/engine/shell/analyzer.ts';
import { loadShellAnalyzer } from '../../src/service/bash-language.ts';
import { createToolgate, type Toolgate, type ToolgateOptions } from '../../src/service/toolgate.ts';

export const AGENT_TOKEN = 'agent-token-for-tests-0123456789';
export const REVIEWER_TOKEN = 'reviewer-token-for-tests-0123456789';
/** The home directory the tests' toolgate guards (not the machine's). */
export const TEST_HOME = '/home/tester';

let sharedAnalyzer: Promise<ShellAnalyzer> | undefined;

/** One analyzer per test process (loading the grammar takes a few milliseconds). */
export function testAnalyzer(): Promise<ShellAnalyzer> {
  sharedAnalyzer ??= loadShellAnalyzer({ home: TEST_HOME });
  return sharedAnalyzer;
}

/** A running in-process toolgate and helpers to call it as an agent or a reviewer. */
export interface Harness {
  toolgate: Toolgate;
  app: ReturnType<typeof createApp>['app'];
  config: Config;
  dataDir: string;
  /** Sends a request with the agent token. */
  agent(path: string, init?: RequestInit): Promise<Response>;
  /** Sends a request with the reviewer token. */
  reviewer(path: string, init?: RequestInit): Promise<Response>;
  /** POST /v1/decide as the agent; returns status and JSON body. */
  decide(body: Record<string, unknown>, query?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Options: config flags (as the CLI would pass them), extra routes, service options. */
export interface HarnessOptions {
  flags?: Parameters<typeof loadConfig>[0];
  env?: NodeJS.ProcessEnv;
  routes?: RouteModule[];
  service?: ToolgateOptions;
  /** Use a real database file in the temporary data dir instead of :memory:. */
  file?: boolean;
  /** Failed-authentication limiter on the harness's toolgate (default: the one `serve` uses). */
  authGuard?: (toolgate: Toolgate) => AuthGuard;
}

/** Builds a toolgate with fixed tokens in a fresh temporary data directory. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-test-'));
  const env = { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN, ...options.env };
  const config = loadConfig({ 'data-dir': dataDir, ...options.flags }, env);
  const toolgate = await createToolgate(config, {
    dbPath: options.file ? undefined : ':memory:',
    home: TEST_HOME,
    analyzer: await testAnalyzer(),
    ...options.service,
  });
  const { app } = createApp(
    {
      toolgate,
      tokens: { agent: config.agentTokens, reviewer: config.reviewerTokens },
      authGuard: options.authGuard?.(toolgate) ?? failedAuthLimiter(toolgate.store),
    },
    options.routes,
  );
  const call =
    (token: string) =>
    async (path: string, init: RequestInit = {}): Promise<Response> => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return app.request(path, { ...init, headers });
    };
  const agent = call(AGENT_TOKEN);
  return {
    toolgate,
    app,
    config,
    dataDir,
    agent,
    reviewer: call(REVIEWER_TOKEN),
    async decide(body, query = '') {
      const res = await agent(`/v1/decide${query}`, { method: 'POST', body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await toolgate.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A bash decide body. */
export function bash(command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tool: 'bash',
    args: { command },
    agent_id: 'test-agent',
    session_id: 'test-session',
    cwd: `${TEST_HOME}/work/project`,
    ...extra,
  };
}
