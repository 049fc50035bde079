// After a hooked tool ran (PostToolUse, AfterTool): finds the decision made for that call and records its output through the results service.
import { canonicalJson } from '../engine/normalize.ts';
import type { HookInput, HookRuntime } from './hook-formats.ts';
import { resultServiceFor, type SubmitOutcome } from './results.ts';
import type { Toolgate } from './toolgate.ts';

/** Calls remembered per toolgate: enough for every agent's calls in flight, bounded so a stream of calls cannot grow it. */
const REMEMBERED = 4096;

/**
 * Which decision each hooked call got, by the call's identity: the runtime's tool call id when it sends one
 * (Claude Code's and Codex's `tool_use_id`), else the tool and its arguments in the session (Gemini CLI has no id).
 */
export class HookCallLog {
  private readonly decisions = new Map<string, string>();

  remember(runtime: HookRuntime, input: HookInput, decisionId: string): void {
    const key = callKey(runtime, input);
    this.decisions.delete(key);
    if (this.decisions.size >= REMEMBERED) this.decisions.delete(this.decisions.keys().next().value!);
    this.decisions.set(key, decisionId);
  }

  /** The decision of the call this after-event reports on (each is answered once), or undefined. */
  take(runtime: HookRuntime, input: HookInput): string | undefined {
    const key = callKey(runtime, input);
    const id = this.decisions.get(key);
    this.decisions.delete(key);
    return id;
  }
}

function callKey(runtime: HookRuntime, input: HookInput): string {
  const id = input.tool_use_id
    ? `id:${input.tool_use_id}`
    : `call:${input.tool_name}:${canonicalJson(input.tool_input ?? {})}`;
  return `${runtime}\u0000${input.session_id ?? ''}\u0000${id}`;
}

/** What happened to an after-event's output. */
export type HookResultOutcome = SubmitOutcome | { kind: 'no_decision' };

/** Records the output of a hooked call that ran. The runtime's answer does not depend on it (the tool already ran). */
export async function recordHookResult(
  toolgate: Toolgate,
  log: HookCallLog,
  runtime: HookRuntime,
  input: HookInput,
): Promise<HookResultOutcome> {
  const decisionId = log.take(runtime, input);
  if (!decisionId) return { kind: 'no_decision' };
  return resultServiceFor(toolgate).submit(decisionId, toolResultOf(input.tool_response));
}

/**
 * A runtime's tool response as toolgate's result: text as it is, anything else as JSON. An error is what the runtime
 * marks as one (`is_error`, Gemini's `error`, a non-zero `exit_code`).
 */
export function toolResultOf(response: unknown): { output: string; is_error: boolean } {
  if (typeof response === 'string') return { output: response, is_error: false };
  let output: string;
  try {
    output = JSON.stringify(response ?? null) ?? 'null';
  } catch {
    output = String(response);
  }
  const r = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
  const isError =
    r.is_error === true ||
    r.isError === true ||
    (r.error !== undefined && r.error !== null && r.error !== '' && r.error !== false) ||
    (typeof r.exit_code === 'number' && r.exit_code !== 0);
  return { output, is_error: isError };
}

const logs = new WeakMap<Toolgate, HookCallLog>();

/** The hook call log of a toolgate (one per instance). */
export function hookCallLogFor(toolgate: Toolgate): HookCallLog {
  let log = logs.get(toolgate);
  if (!log) logs.set(toolgate, (log = new HookCallLog()));
  return log;
}
