// Drives the real agent runtimes (pinned in test/agents/package.json) against a model stand-in, with toolgate wired
// in through their hooks exactly as docs/integrations.md shows, in a throwaway HOME that holds a fake SSH key.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandIn, type Api, type StandIn, type ToolCallSpec } from './model-stand-in.ts';
import { AGENT_TOKEN, ROOT } from './sidecar.ts';

const MODULES = join(ROOT, 'test/agents/node_modules');
/** The toolgate command as an agent runs it (the docs say `toolgate hook <runtime>` once toolgate is installed). */
const TOOLGATE = `${process.execPath} ${join(ROOT, 'bin/toolgate.js')}`;

export type Runtime = 'claude-code' | 'codex' | 'gemini';
/** How toolgate is wired in: the `toolgate hook` command, or Claude Code's http hook posting to the sidecar. */
export type Wiring = 'command' | 'http';

/** A fake private key: if it ever reaches the model, the test fails. */
export const SECRET = 'FAKE-PRIVATE-KEY-3f9c2a71-never-show-the-model';

/** A throwaway agent environment: a HOME with ~/.ssh/id_rsa and a project with a build/ directory. */
export interface Workspace {
  home: string;
  work: string;
  /** Whether the project's build/ directory is still there (an `rm -rf build` ran or not). */
  buildExists(): boolean;
  /** Whether the harmless command ran (it writes ran.txt). */
  ran(): boolean;
  remove(): void;
}

export function makeWorkspace(): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'toolgate-agent-'));
  const home = join(root, 'home');
  const work = join(home, 'project');
  mkdirSync(join(home, '.ssh'), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n-----END OPENSSH PRIVATE KEY-----\n`, { mode: 0o600 });
  mkdirSync(join(work, 'build'), { recursive: true });
  writeFileSync(join(work, 'build', 'app.js'), 'built\n');
  return {
    home,
    work,
    buildExists: () => existsSync(join(work, 'build')),
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
  DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_BUG_COMMAND: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
  GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_TELEMETRY_ENABLED: 'false', NO_COLOR: '1', CI: '1',
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
export async function runAgent(runtime: Runtime, wiring: Wiring, ws: Workspace, toolgateUrl: string, command: string, options: AgentOptions = {}): Promise<AgentRun> {
  const { userAllowsShell = true, timeoutMs = 120_000 } = options;
  const model = await startStandIn(API[runtime], command, options.mcpCall);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: ws.home, TOOLGATE_URL: toolgateUrl, TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, ...OFFLINE };
  let argv: string[];
  if (runtime === 'claude-code') {
    mkdirSync(join(ws.home, '.claude'), { recursive: true });
    writeFileSync(join(ws.home, '.claude', 'settings.json'), JSON.stringify(claudeSettings(wiring, toolgateUrl), null, 2));
    Object.assign(env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-stand-in' });
    // `--allowedTools Bash`: the user's own settings allow the shell; toolgate's hook is what stops a bad call.
    argv = [join(MODULES, '@anthropic-ai/claude-code/bin/claude.exe'), '-p', 'Run the command.', '--output-format', 'json', ...(userAllowsShell ? ['--allowedTools', 'Bash'] : []), '--model', 'claude-sonnet-4-5'];
  } else if (runtime === 'codex') {
    const codexHome = join(ws.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), codexConfig(model.url));
    Object.assign(env, { CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-stand-in' });
    // Hooks run only once trusted (Codex records trust per hook hash, via /hooks); a one-off run vouches for them here.
    argv = [process.execPath, join(MODULES, '@openai/codex/bin/codex.js'), 'exec', '--ephemeral', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', 'Run the command.'];
  } else {
    mkdirSync(join(ws.home, '.gemini'), { recursive: true });
    const settings = geminiSettings();
    if (options.mcpCall) settings.mcpServers = { 'desktop-commander': { command: process.execPath, args: [join(ROOT, 'test/agents/support/mcp-stub.mjs')], env: { MCP_STUB_LOG: mcpLog(ws) }, trust: false } };
    writeFileSync(join(ws.home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
    // Folder trust: Gemini CLI loads a project's hooks only in a trusted folder; the project is trusted here.
    writeFileSync(join(ws.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws.work]: 'TRUST_FOLDER' }));
    Object.assign(env, { GEMINI_API_KEY: 'stand-in', GOOGLE_GEMINI_BASE_URL: model.url });
    // -m: a named model skips the routing classifier call; --yolo: the user lets the shell run, toolgate's hook decides.
    argv = [process.execPath, join(MODULES, '@google/gemini-cli/bundle/gemini.js'), '-p', 'Run the command.', '-m', 'gemini-2.5-pro', '--yolo', '-o', 'json'];
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

/** Claude Code's ~/.claude/settings.json: the command hook, or the http hook (docs/integrations.md). */
export function claudeSettings(wiring: Wiring, toolgateUrl: string): Record<string, unknown> {
  const hook = wiring === 'command'
    ? { type: 'command', command: `${TOOLGATE} hook claude-code`, timeout: 60, onFailure: 'block' }
    : {
        type: 'http',
        url: `${toolgateUrl}/v1/hooks/claude-code`,
        headers: { Authorization: 'Bearer $TOOLGATE_AGENT_TOKEN', 'x-toolgate-agent-home': '$HOME' },
        allowedEnvVars: ['TOOLGATE_AGENT_TOKEN', 'HOME'],
        timeout: 60,
        onFailure: 'block',
      };
  const after = wiring === 'command' ? { type: 'command', command: `${TOOLGATE} hook claude-code`, timeout: 30 } : { ...hook, timeout: 30, onFailure: undefined };
  return { hooks: { PreToolUse: [{ matcher: '*', hooks: [hook] }], PostToolUse: [{ matcher: '*', hooks: [after] }] } };
}

/** Codex's config.toml: the stand-in as a model provider, and toolgate's command hook for every tool event. */
export function codexConfig(modelUrl: string): string {
  const hook = (event: string, timeout: number) => `[[hooks.${event}]]\nmatcher = ".*"\n[[hooks.${event}.hooks]]\ntype = "command"\ncommand = "${TOOLGATE} hook codex"\ntimeout = ${timeout}\n`;
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
    hook('PreToolUse', 60),
    hook('PermissionRequest', 60),
    hook('PostToolUse', 30),
  ].join('\n');
}

/** Gemini CLI's ~/.gemini/settings.json: toolgate's command hook before and after every tool, nothing sent home. */
export function geminiSettings(): Record<string, unknown> {
  const hook = (timeout: number) => [{ matcher: '.*', hooks: [{ type: 'command', command: `${TOOLGATE} hook gemini`, timeout }] }];
  return {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    // Ripgrep would be downloaded on first use: the built-in grep needs nothing.
    tools: { useRipgrep: false },
    hooks: { BeforeTool: hook(60_000), AfterTool: hook(30_000) },
  };
}
