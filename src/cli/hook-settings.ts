// The hook settings each agent runtime needs to ask toolgate before every tool call, written for this machine:
// absolute paths to node and to this installation's bin/toolgate.js, so the hook cannot fail to start (a hook
// that does not start is a non-blocking error in Claude Code and Codex and an allow in Gemini CLI: fail open).
// Printed by `toolgate integrations print`; docs/integrations.md explains each runtime.
import type { HookRuntime } from '../service/hook-formats.ts';

/** Where the hook finds the sidecar and the program that runs it. */
export interface HookSettingsOptions {
  /** The node binary (process.execPath). */
  node: string;
  /** bin/toolgate.js of this installation. */
  bin: string;
  /** The sidecar's base URL. */
  url: string;
  /** True when `url` is not the default one (then the command hook is told it). */
  customUrl: boolean;
  /** A data directory other than the default, whose tokens.json the command hook reads. */
  dataDir?: string;
  /** Claude Code: the http hook instead of the command hook. */
  http?: boolean;
}

/** A settings snippet: the text to paste, the file it goes in, and what the runtime needs for it to run at all. */
export interface HookSettings {
  file: string;
  format: 'json' | 'toml';
  text: string;
  notes: string[];
}

/** How long a runtime waits for the hook (s): above the hook's own 55 s limit, so toolgate answers first. */
const TIMEOUT_S = 60;

/** The snippet for `runtime`. */
export function hookSettings(runtime: HookRuntime, options: HookSettingsOptions): HookSettings {
  if (runtime === 'claude-code') return options.http ? claudeHttp(options) : claudeCommand(options);
  if (runtime === 'codex') return codex(options);
  return gemini(options);
}

/** The shell command that runs the hook: absolute paths, quoted; the URL and data directory when not the defaults. */
export function hookCommandLine(runtime: HookRuntime, options: HookSettingsOptions): string {
  const env = [
    ...(options.customUrl ? [`TOOLGATE_URL=${shellQuote(options.url)}`] : []),
    ...(options.dataDir ? [`TOOLGATE_DATA_DIR=${shellQuote(options.dataDir)}`] : []),
  ];
  return [...env, shellQuote(options.node), shellQuote(options.bin), 'hook', runtime].join(' ');
}

const TOKEN_NOTE =
  "The hook reads the agent token from TOOLGATE_AGENT_TOKEN, else from the data directory's tokens.json (written by `toolgate serve`, readable by the user who started it): run the agent as that user or export the token in its environment.";
/** Why the after-event hook is there too. */
const RESULTS_NOTE =
  "The after-tool hook records each tool's output with its decision in the audit log (POST /v1/results); it never blocks.";
const MOVED_NOTE =
  'The command holds absolute paths to node and to this installation: after moving either (a new node version, a reinstall elsewhere), print and paste it again.';

function claudeCommand(options: HookSettingsOptions): HookSettings {
  const hook = { type: 'command', command: hookCommandLine('claude-code', options), timeout: TIMEOUT_S };
  return {
    file: '~/.claude/settings.json (every project) or .claude/settings.json (one project)',
    format: 'json',
    text: json({
      hooks: { PreToolUse: [{ matcher: '*', hooks: [hook] }], PostToolUse: [{ matcher: '*', hooks: [hook] }] },
    }),
    notes: [
      'Merge the "hooks" entry into the settings file; Claude Code skips a whole settings file that does not validate, so check `/hooks` lists toolgate afterwards.',
      'The command hook fails closed: with the sidecar down, an error answer or no answer within 55 s it exits 2, which Claude Code reads as "block".',
      TOKEN_NOTE,
      RESULTS_NOTE,
      MOVED_NOTE,
      'Without a process per call: `toolgate integrations print claude-code --http` prints the http hook.',
    ],
  };
}

function claudeHttp(options: HookSettingsOptions): HookSettings {
  const hook = {
    type: 'http',
    url: `${options.url}/v1/hooks/claude-code`,
    headers: { Authorization: 'Bearer $TOOLGATE_AGENT_TOKEN', 'X-Toolgate-Agent-Home': '$HOME' },
    allowedEnvVars: ['TOOLGATE_AGENT_TOKEN', 'HOME'],
    timeout: TIMEOUT_S,
    onFailure: 'block',
  };
  return {
    file: '~/.claude/settings.json (every project) or .claude/settings.json (one project)',
    format: 'json',
    text: json({
      hooks: { PreToolUse: [{ matcher: '*', hooks: [hook] }], PostToolUse: [{ matcher: '*', hooks: [hook] }] },
    }),
    notes: [
      '"onFailure": "block" needs Claude Code 2.1.295 or later (`claude --version`). Without it, a sidecar that is down or does not answer lets every call through; an older version may also reject the unknown field and skip the whole settings file. On an older version use the command hook (`toolgate integrations print claude-code`).',
      'Claude Code must have TOOLGATE_AGENT_TOKEN in its environment (the header is filled from it; allowedEnvVars lets it through), e.g. `export TOOLGATE_AGENT_TOKEN=$(node -p "require(\'<data-dir>/tokens.json\').agent")`.',
      'toolgate answers its own failures (bad token, bad body, rate limit) with a deny and the real status in X-Toolgate-Status, so those fail closed on every version.',
    ],
  };
}

function codex(options: HookSettingsOptions): HookSettings {
  const command = tomlString(hookCommandLine('codex', options));
  const text = [
    '[[hooks.PreToolUse]]',
    '[[hooks.PreToolUse.hooks]]',
    'type = "command"',
    `command = ${command}`,
    `timeout = ${TIMEOUT_S}`,
    '',
    '[[hooks.PermissionRequest]]',
    '[[hooks.PermissionRequest.hooks]]',
    'type = "command"',
    `command = ${command}`,
    `timeout = ${TIMEOUT_S}`,
    '',
    '[[hooks.PostToolUse]]',
    '[[hooks.PostToolUse.hooks]]',
    'type = "command"',
    `command = ${command}`,
    `timeout = ${TIMEOUT_S}`,
    '',
  ].join('\n');
  return {
    file: '~/.codex/config.toml',
    format: 'toml',
    text,
    notes: [
      'Codex runs a hook only after you trust it: open `/hooks` in Codex, review the toolgate hooks and trust them. An untrusted hook is skipped without an error, and trust is kept per hook definition, so trust it again after pasting a changed one.',
      "In a project's .codex/config.toml the hooks load only when the project is trusted; ~/.codex/config.toml avoids that.",
      'Versions that still gate hooks behind a feature flag need `hooks = true` (older: `codex_hooks = true`) under [features].',
      'The hook fails closed: with the sidecar down, an error answer or no answer within 55 s it exits 2 and denies.',
      TOKEN_NOTE,
      RESULTS_NOTE,
      MOVED_NOTE,
    ],
  };
}

function gemini(options: HookSettingsOptions): HookSettings {
  const hook = {
    name: 'toolgate',
    type: 'command',
    command: hookCommandLine('gemini', options),
    timeout: TIMEOUT_S * 1000,
  };
  return {
    file: '~/.gemini/settings.json',
    format: 'json',
    text: json({
      hooks: { BeforeTool: [{ matcher: '.*', hooks: [hook] }], AfterTool: [{ matcher: '.*', hooks: [hook] }] },
    }),
    notes: [
      "Put it in the user settings (~/.gemini/settings.json): with folder trust on, a project's .gemini/settings.json is loaded only in a trusted folder, so a project-level hook silently does nothing elsewhere.",
      'Gemini CLI treats a hook that exits with anything but 0 or 2 as "allow"; toolgate\'s hook exits 2 (block) on every failure it can see. A hook that cannot start at all is such a failure: keep the paths valid.',
      TOKEN_NOTE,
      RESULTS_NOTE,
      MOVED_NOTE,
    ],
  };
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A TOML basic string. */
function tomlString(text: string): string {
  return JSON.stringify(text);
}

/** A word for sh: as is when it is plain, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
