// toolgate hook claude-code|codex|gemini: a command hook that pipes the runtime's hook input to the sidecar and prints its answer; fails closed.
// It runs before every tool call, so it loads only small modules: no zod (config-values.ts, not config.ts), no
// engine, store or tree-sitter, and node:http instead of fetch (post-json.ts). test/cli/hook.test.ts checks the
// modules it loads; `npm run bench -- --only hook` measures its cost against `node -e ''`.
import { parseDuration } from '../config-values.ts';
import {
  defaultEvent,
  failClosedOutput,
  HOOK_EVENTS,
  HOOK_RUNTIMES,
  type HookRuntime,
} from '../service/hook-formats.ts';
import { parseFlags, UsageError, type Command, type Io } from './command.ts';
import { postJson, type PostedResponse } from './post-json.ts';
import { agentToken, sidecarUrl } from './remote.ts';

const HELP = `Usage: toolgate hook <claude-code|codex|gemini> [options]

A command hook for agent runtimes. Reads the runtime's hook input (JSON) on standard input, asks the
sidecar at TOOLGATE_URL with TOOLGATE_AGENT_TOKEN, and prints the runtime's hook output (exit 0).

  claude-code   PreToolUse and PermissionRequest (hookSpecificOutput)
  codex         PreToolUse (deny, or {}; an ask waits for a reviewer) and PermissionRequest
  gemini        BeforeTool ({"decision": "allow|deny|ask", "reason": …})

Fails closed: when the sidecar is unreachable, answers an error or takes too long, the call is blocked
(exit 2, the reason on standard error, and a deny in the runtime's format on standard output).

Sends the agent's home directory (HOME) as X-Toolgate-Agent-Home, so that paths such as ~/.ssh are
judged against the agent's home rather than the sidecar's.

Options:
  --url URL        the sidecar (default TOOLGATE_URL, else http://127.0.0.1:7411)
  --timeout DUR    give up and block after this long (default 55s; keep it below the runtime's hook timeout)
  -h, --help       this help`;

/** Exit code that every runtime reads as "block, the reason is on stderr". */
export const BLOCK = 2;

export const hookCommand: Command = {
  name: 'hook',
  summary: 'agent hook adapter for Claude Code, Codex and Gemini CLI (fails closed)',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { url: { type: 'string' }, timeout: { type: 'string' } });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const runtime = positionals[0] as HookRuntime | undefined;
    if (!runtime || positionals.length !== 1 || !HOOK_RUNTIMES.includes(runtime))
      throw new UsageError(`name one runtime: ${HOOK_RUNTIMES.join(', ')}`);
    const timeoutMs = values.timeout === undefined ? 55_000 : parseDuration(values.timeout);
    if (timeoutMs === undefined || timeoutMs <= 0)
      throw new UsageError(`--timeout is not a duration: ${values.timeout}`);
    return runHook(runtime, io, sidecarUrl(values.url, io.env), timeoutMs);
  },
};

/** Runs one hook; every failure path blocks the call, a failure no step foresaw too (never node's exit 1). */
export async function runHook(runtime: HookRuntime, io: Io, base: string, timeoutMs: number): Promise<number> {
  const call = { event: defaultEvent(runtime) };
  const block = (reason: string): number => {
    io.out(JSON.stringify(failClosedOutput(runtime, call.event, reason)));
    io.err(`toolgate hook ${runtime}: blocked: ${reason}`);
    return BLOCK;
  };
  try {
    return await askSidecar(runtime, io, base, timeoutMs, call, block);
  } catch (error) {
    return block(`the hook failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** The hook's steps: read the runtime's input, ask the sidecar, print its answer (`block` for each failure). */
async function askSidecar(
  runtime: HookRuntime,
  io: Io,
  base: string,
  timeoutMs: number,
  call: { event: string },
  block: (reason: string) => number,
): Promise<number> {
  let input: Record<string, unknown>;
  try {
    const text = io.stdin ? await io.stdin() : '';
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      return block('the hook input on standard input is not a JSON object');
    input = parsed as Record<string, unknown>;
  } catch (error) {
    return block(`the hook input on standard input is not JSON (${(error as Error).message})`);
  }
  if (typeof input.hook_event_name === 'string' && HOOK_EVENTS[runtime].includes(input.hook_event_name))
    call.event = input.hook_event_name;
  const token = agentToken(io.env);
  if (!token)
    return block(
      'no agent token: set TOOLGATE_AGENT_TOKEN (or run on the machine whose ~/.toolgate/tokens.json holds it)',
    );
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const home = agentHome(io.env);
  if (home) headers['x-toolgate-agent-home'] = home;
  let response: PostedResponse;
  try {
    response = await postJson(`${base}/v1/hooks/${runtime}`, headers, JSON.stringify(input), timeoutMs);
  } catch (error) {
    const cause =
      (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : (error as Error).message;
    return block(`cannot reach toolgate at ${base}: ${cause}`);
  }
  const text = response.text;
  // The hook route answers its own failures with a deny and the real status in X-Toolgate-Status (fail closed).
  const failedStatus = response.headers['x-toolgate-status'];
  if (!response.ok || failedStatus) {
    let detail = text.slice(0, 500);
    try {
      const parsed = JSON.parse(text) as {
        detail?: string;
        hookSpecificOutput?: { permissionDecisionReason?: string };
        reason?: string;
      };
      detail = parsed.detail ?? parsed.hookSpecificOutput?.permissionDecisionReason ?? parsed.reason ?? detail;
    } catch {
      // not a problem document; keep the text
    }
    return block(`toolgate answered ${failedStatus ?? response.status}: ${detail}`);
  }
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch {
    return block('toolgate answered something that is not JSON');
  }
  if (!output || typeof output !== 'object' || Array.isArray(output))
    return block('toolgate answered something that is not a JSON object');
  io.out(JSON.stringify(output));
  return 0;
}

/**
 * The agent's home directory for X-Toolgate-Agent-Home: HOME when it is absolute and fits in a header (printable
 * ASCII); otherwise none is sent and the sidecar uses its own.
 */
function agentHome(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.HOME;
  return home && home.startsWith('/') && /^[\x20-\x7e]+$/.test(home) ? home : undefined;
}
