// toolgate integrations print claude-code|codex|gemini: the hook settings for this machine (hook-settings.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOOK_RUNTIMES, type HookRuntime } from '../service/hook-formats.ts';
import { parseFlags, UsageError, type Command } from './command.ts';
import { hookSettings } from './hook-settings.ts';
import { sidecarUrl } from './remote.ts';

const HELP = `Usage: toolgate integrations print <claude-code|codex|gemini> [options]

Prints the hook settings that make the runtime ask toolgate before every tool call, for this machine:
the command holds the absolute paths of node and of this toolgate, so it runs whatever the agent's PATH.
The snippet goes to standard output; where it goes and what the runtime needs to run it, to standard error.

  claude-code   ~/.claude/settings.json: the command hook (fails closed on every version), or --http
  codex         ~/.codex/config.toml: PreToolUse and PermissionRequest (trust them in /hooks)
  gemini        ~/.gemini/settings.json: BeforeTool

Options:
  --http           Claude Code: the http hook (no process per call; needs 2.1.295+ for "onFailure")
  --url URL        the sidecar (default TOOLGATE_URL, else http://127.0.0.1:7411)
  --data-dir DIR   the sidecar's data directory, when not the default (the hook reads tokens.json there)
  -h, --help       this help

Details for each runtime: docs/integrations.md.`;

/** bin/toolgate.js of this installation (dist/cli/ or src/cli/ → ../../bin). */
const BIN = fileURLToPath(new URL('../../bin/toolgate.js', import.meta.url));

export const integrationsCommand: Command = {
  name: 'integrations',
  summary: 'print the hook settings for Claude Code, Codex or Gemini CLI on this machine',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      http: { type: 'boolean' },
      url: { type: 'string' },
      'data-dir': { type: 'string' },
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const [action, runtime, ...extra] = positionals;
    if (action !== 'print') throw new UsageError(`unknown action ${action ?? '(none)'}: use print`);
    if (!runtime || extra.length > 0 || !HOOK_RUNTIMES.includes(runtime as HookRuntime))
      throw new UsageError(`name one runtime: ${HOOK_RUNTIMES.join(', ')}`);
    if (values.http && runtime !== 'claude-code')
      throw new UsageError('--http is for claude-code only (Codex and Gemini CLI run command hooks)');
    const url = sidecarUrl(values.url, io.env);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--url is not a URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new UsageError(`--url must be http or https: ${url}`);
    if (!existsSync(BIN)) throw new Error(`cannot find this installation's bin/toolgate.js (looked at ${BIN})`);
    const settings = hookSettings(runtime as HookRuntime, {
      node: process.execPath,
      bin: BIN,
      url,
      customUrl: values.url !== undefined || io.env.TOOLGATE_URL !== undefined,
      dataDir:
        values['data-dir'] !== undefined
          ? resolve(values['data-dir'])
          : io.env.TOOLGATE_DATA_DIR
            ? resolve(io.env.TOOLGATE_DATA_DIR)
            : undefined,
      http: values.http === true,
    });
    io.out(settings.text);
    io.err(`# ${runtime}: paste into ${settings.file}`);
    for (const note of settings.notes) io.err(`# - ${note}`);
    return 0;
  },
};
