// toolgate hook claude-code|codex|gemini: a command hook that pipes the runtime's hook input to the sidecar and prints its answer; fails closed.
import { parseDuration } from '../config.ts';
import { defaultEvent, failClosedOutput, HOOK_EVENTS, HOOK_RUNTIMES, type HookRuntime } from '../service/hook-formats.ts';
import { parseFlags, UsageError, type Command, type Io } from './command.ts';
import { agentToken, sidecarUrl } from './remote.ts';

const HELP = `Usage: toolgate hook <claude-code|codex|gemini> [options]

A command hook for agent runtimes. Reads the runtime's hook input (JSON) on standard input, asks the
sidecar at TOOLGATE_URL with TOOLGATE_AGENT_TOKEN, and prints the runtime's hook output (exit 0).

  claude-code   PreToolUse and PermissionRequest (hookSpecificOutput)
  codex         PreToolUse (deny, or {}; an ask waits for a reviewer) and PermissionRequest
  gemini        BeforeTool ({"decision": "allow|deny|ask", "reason": …})

Fails closed: when the sidecar is unreachable, answers an error or takes too long, the call is blocked
(exit 2, the reason on standard error, and a deny in the runtime's format on standard output).

Options:
  --url URL        the sidecar (default TOOLGATE_URL, else http://127.0.0.1:7411)
  --timeout DUR    give up and block after this long (default 55s; keep it below the runtime's hook timeout)
  -h, --help       this help`;

/** Exit code that every runtime reads as "block, the reason is on stderr". */
const BLOCK = 2;

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
    if (!runtime || positionals.length !== 1 || !HOOK_RUNTIMES.includes(runtime)) throw new UsageError(`name one runtime: ${HOOK_RUNTIMES.join(', ')}`);
    const timeoutMs = values.timeout === undefined ? 55_000 : parseDuration(values.timeout);
    if (timeoutMs === undefined || timeoutMs <= 0) throw new UsageError(`--timeout is not a duration: ${values.timeout}`);
    return runHook(runtime, io, sidecarUrl(values.url, io.env), timeoutMs);
  },
};

/** Runs one hook; every failure path blocks the call. */
export async function runHook(runtime: HookRuntime, io: Io, base: string, timeoutMs: number): Promise<number> {
  let event = defaultEvent(runtime);
  const block = (reason: string): number => {
    io.out(JSON.stringify(failClosedOutput(runtime, event, reason)));
    io.err(`toolgate hook ${runtime}: blocked: ${reason}`);
    return BLOCK;
  };
  let input: Record<string, unknown>;
  try {
    const text = io.stdin ? await io.stdin() : '';
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return block('the hook input on standard input is not a JSON object');
    input = parsed as Record<string, unknown>;
  } catch (error) {
    return block(`the hook input on standard input is not JSON (${(error as Error).message})`);
  }
  if (typeof input.hook_event_name === 'string' && HOOK_EVENTS[runtime].includes(input.hook_event_name)) event = input.hook_event_name;
  const token = agentToken(io.env);
  if (!token) return block('no agent token: set TOOLGATE_AGENT_TOKEN (or run on the machine whose ~/.toolgate/tokens.json holds it)');
  let response: Response;
  try {
    response = await fetch(`${base}/v1/hooks/${runtime}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : `${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}`;
    return block(`cannot reach toolgate at ${base}: ${cause}`);
  }
  const text = await response.text().catch(() => '');
  // The hook route answers its own failures with a deny and the real status in X-Toolgate-Status (fail closed).
  const failedStatus = response.headers.get('x-toolgate-status');
  if (!response.ok || failedStatus) {
    let detail = text.slice(0, 500);
    try {
      const parsed = JSON.parse(text) as { detail?: string; hookSpecificOutput?: { permissionDecisionReason?: string }; reason?: string };
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
  if (!output || typeof output !== 'object' || Array.isArray(output)) return block('toolgate answered something that is not a JSON object');
  io.out(JSON.stringify(output));
  return 0;
}
