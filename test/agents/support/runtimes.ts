// Drives the real agent runtimes (pinned in test/agents/package.json) against a model stand-in, with toolgate wired
// in through their hooks exactly as docs/integrations.md shows, in a throwaway HOME that holds a fake SSH key.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookSettings } from '../../../src/cli/hook-settings.ts';
import type { HookRuntime } from '../../../src/service/hook-formats.ts';
import { startStandIn, type Api, type StandIn, type ToolCallSpec } from './model-stand-in.ts';
import { AGENT_TOKEN, ROOT } from './sidecar.ts';

const MODULES = join(ROOT, 'test/agents/node_modules');

/**
 * The hook settings exactly as `toolgate integrations print <runtime>` prints them for this checkout (the README's
 * wiring): absolute node and bin/toolgate.js; the sidecar's URL reaches the command hook through TOOLGATE_URL in the
 * agent's environment, as on a machine whose sidecar is not on the default port.
 */
function printed(runtime: HookRuntime, toolgateUrl: string, http = false): string {
  return hookSettings(runtime, {
    node: process.execPath,
    bin: join(ROOT, 'bin/toolgate.js'),
    url: toolgateUrl,
    customUrl: false,
    http,
  }).text;
}

export type Runtime = 'claude-code' | 'codex' | 'gemini';
/** How toolgate is wired in: the `toolgate hook` command, or Claude Code's http hook posting to the sidecar. */
export type Wiring = 'command' | 'http';

/** A fake private key: if it ever reaches the model, the test fails. */
export const SECRET = 'FAKE-PRIVATE-KEY-3f9c2a71-never-show-the-model';

/** A throwaway agent environment: a HOME with ~/.ssh/id_rsa and a project with a data/ directory (what a recursive delete there loses is not build output: it asks). */
export interface Workspace {
  home: string;
  work: string;
  /** Whether the project's data/ directory is still there (an `rm -r data` ran or not). */
  dataExists(): boolean;
  /** Whether the harmless command ran (it writes ran.txt). */
  ran(): boolean;
  remove(): void;
}

export function makeWorkspace(): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'toolgate-agent-'));
  const home = join(root, 'home');
  const work = join(home, 'project');
  mkdirSync(join(home, '.ssh'), { recursive: true, mode: 0o700 });
  writeFileSync(
    join(home, '.ssh', 'id_rsa'),
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n-----END OPENSSH PRIVATE KEY-----\n`,
    { mode: 0o600 },
  );
  mkdirSync(join(work, 'data'), { recursive: true });
  writeFileSync(join(work, 'data', 'customers.csv'), 'id,name\n1,Ada\n');
  return {
    home,
    work,
    dataExists: () => existsSync(join(work, 'data')),
    ran: () => existsSync(join(work, 'ran.txt')),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** One agent run: what it printed, and what its model was sent. */
export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  model: StandIn;
}

const API: Record<Runtime, Api> = { 'claude-code': 'anthropic', codex: 'openai', gemini: 'gemini' };

/** Environment that keeps every runtime off the network (telemetry, update checks, error reports). */
const OFFLINE = {
  DISABLE_TELEMETRY: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_BUG_COMMAND: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
  GEMINI_CLI_NO_RELAUNCH: 'true',
  GEMINI_TELEMETRY_ENABLED: 'false',
  NO_COLOR: '1',
  CI: '1',
};

/** How a run differs from the plain one. */
export interface AgentOptions {
  /** Claude Code: the user's settings allow Bash (default true). */
  userAllowsShell?: boolean;
  timeoutMs?: number;
  /** Gemini CLI: the model calls this tool of the stub MCP server `desktop-commander` instead of the shell. */
  mcpCall?: ToolCallSpec;
}

/** Where the stub MCP server writes the commands it was given. */
export function mcpLog(ws: Workspace): string {
  return join(ws.home, 'mcp-calls.log');
}

/**
 * Runs `runtime` in `ws` with toolgate at `toolgateUrl` wired as `wiring`; the model asks for `command` once, then
 * ends with a text.
 */
export async function runAgent(
  runtime: Runtime,
  wiring: Wiring,
  ws: Workspace,
  toolgateUrl: string,
  command: string,
  options: AgentOptions = {},
): Promise<AgentRun> {
  const { userAllowsShell = true, timeoutMs = 120_000 } = options;
  const model = await startStandIn(API[runtime], command, options.mcpCall);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: ws.home,
    TOOLGATE_URL: toolgateUrl,
    TOOLGATE_AGENT_TOKEN: AGENT_TOKEN,
    ...OFFLINE,
  };
  let argv: string[];
  if (runtime === 'claude-code') {
    mkdirSync(join(ws.home, '.claude'), { recursive: true });
    writeFileSync(
      join(ws.home, '.claude', 'settings.json'),
      JSON.stringify(claudeSettings(wiring, toolgateUrl), null, 2),
    );
    Object.assign(env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-stand-in' });
    // `--allowedTools Bash`: the user's own settings allow the shell; toolgate's hook is what stops a bad call.
    argv = [
      join(MODULES, '@anthropic-ai/claude-code/bin/claude.exe'),
      '-p',
      'Run the command.',
      '--output-format',
      'json',
      ...(userAllowsShell ? ['--allowedTools', 'Bash'] : []),
      '--model',
      'claude-sonnet-4-5',
    ];
  } else if (runtime === 'codex') {
    const codexHome = join(ws.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), codexConfig(model.url, toolgateUrl));
    Object.assign(env, { CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-stand-in' });
    // Hooks run only once trusted (Codex records trust per hook hash, via /hooks); a one-off run vouches for them here.
    argv = [
      process.execPath,
      join(MODULES, '@openai/codex/bin/codex.js'),
      'exec',
      '--ephemeral',
      '--skip-git-repo-check',
      '--dangerously-bypass-hook-trust',
      'Run the command.',
    ];
  } else {
    mkdirSync(join(ws.home, '.gemini'), { recursive: true });
    const settings = geminiSettings(toolgateUrl);
    if (options.mcpCall)
      settings.mcpServers = {
        'desktop-commander': {
          command: process.execPath,
          args: [join(ROOT, 'test/agents/support/mcp-stub.mjs')],
          env: { MCP_STUB_LOG: mcpLog(ws) },
          trust: false,
        },
      };
    writeFileSync(join(ws.home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
    // Folder trust: Gemini CLI loads a project's hooks only in a trusted folder; the project is trusted here.
    writeFileSync(join(ws.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws.work]: 'TRUST_FOLDER' }));
    Object.assign(env, { GEMINI_API_KEY: 'stand-in', GOOGLE_GEMINI_BASE_URL: model.url });
    // -m: a named model skips the routing classifier call; --yolo: the user lets the shell run, toolgate's hook decides.
    argv = [
      process.execPath,
      join(MODULES, '@google/gemini-cli/bundle/gemini.js'),
      '-p',
      'Run the command.',
      '-m',
      'gemini-2.5-pro',
      '--yolo',
      '-o',
      'json',
    ];
  }
  const child = spawn(argv[0]!, argv.slice(1), { cwd: ws.work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  clearTimeout(timer);
  await model.close();
  return { code, stdout, stderr, model };
}

/** Claude Code's ~/.claude/settings.json: the command hook, or the http hook, as `toolgate integrations print` writes them. */
export function claudeSettings(wiring: Wiring, toolgateUrl: string): Record<string, unknown> {
  return JSON.parse(printed('claude-code', toolgateUrl, wiring === 'http')) as Record<string, unknown>;
}

/** Codex's config.toml: the stand-in as a model provider, and toolgate's command hook for every tool event. */
export function codexConfig(modelUrl: string, toolgateUrl: string): string {
  return [
    'model = "stand-in"',
    'model_provider = "stand_in"',
    // The user lets Codex run commands without its own prompt; toolgate's hook is the guard.
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.stand_in]',
    'name = "stand-in"',
    `base_url = "${modelUrl}/v1"`,
    'wire_api = "responses"',
    '',
    // Nothing leaves the machine: no plugin or app sync, no update check, no analytics.
    '[features]',
    'plugins = false',
    'apps = false',
    'remote_plugin = false',
    'in_app_updates = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    // toolgate's hooks, as `toolgate integrations print codex` writes them.
    printed('codex', toolgateUrl),
  ].join('\n');
}

/** Gemini CLI's ~/.gemini/settings.json: toolgate's command hook before and after every tool, nothing sent home. */
export function geminiSettings(toolgateUrl: string): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    // Ripgrep would be downloaded on first use: the built-in grep needs nothing.
    tools: { useRipgrep: false },
    // toolgate's hooks, as `toolgate integrations print gemini` writes them.
    ...(JSON.parse(printed('gemini', toolgateUrl)) as Record<string, unknown>),
  };
}
