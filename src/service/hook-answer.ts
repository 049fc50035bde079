// Answers an agent runtime's hook: decide the call, then pass an ask to the runtime's prompt or hold it for a reviewer.
import { TooManyPendingError } from './approvals.ts';
import type { DecideOutcome } from './decider.ts';
import { mcpToolServiceFor } from './mcp-tools.ts';
import { askHandling, hookCall, hookOutput, type HookAnswer, type HookInput, type HookRuntime } from './hook-formats.ts';
import type { Toolgate } from './toolgate.ts';

/** A hook's answer: the runtime's output and how it was reached. */
export interface HookReply {
  output: Record<string, unknown>;
  answer: HookAnswer;
  /** Undefined when no decision was made (the agent already had too many pending approvals). */
  outcome?: DecideOutcome;
}

/**
 * Decides a hook call. With `passthrough` an ask goes back to the runtime, which prompts its own user, and no
 * approval is opened here; with `hold` the request waits up to `hookHoldSeconds` for a reviewer's answer and
 * denies when none comes (the approval stays pending: retrying the same call waits on it again).
 */
export async function answerHook(toolgate: Toolgate, runtime: HookRuntime, input: HookInput, signal?: AbortSignal): Promise<HookReply> {
  const call = hookCall(runtime, input);
  // A toolgate MCP gateway in front of this server asks about the call itself when it reaches it: asking here too
  // would ask the reviewer twice. So an ask opens no approval here and answers no opinion (the runtime goes on, to
  // the gateway); a deny still denies and an allow still allows — a gateway's lease can only move a question.
  const gateway = mcpToolServiceFor(toolgate).gatewayFor(call.tool, call.cwd);
  const handling = gateway !== undefined ? 'passthrough' : askHandling(runtime, call.event, toolgate.config.hookAsk);
  let outcome: DecideOutcome;
  try {
    outcome = await toolgate.decider.decide({
      tool: call.tool,
      args: call.args,
      agentId: call.agentId,
      sessionId: call.sessionId,
      cwd: call.cwd,
      toolCallId: call.toolCallId,
      delegateAsk: handling === 'passthrough',
      waitSeconds: handling === 'hold' ? toolgate.config.hookHoldSeconds : undefined,
      signal,
    });
  } catch (error) {
    // A runtime reads a non-2xx hook answer as "no opinion" and runs the call: answer deny instead.
    if (!(error instanceof TooManyPendingError)) throw error;
    const answer: HookAnswer = { decision: 'deny', reason: error.message };
    return { output: hookOutput(runtime, call.event, answer, call.tool), answer };
  }
  const answer = hookAnswerOf(outcome, handling, toolgate.config.hookHoldSeconds);
  if (gateway !== undefined && answer.decision === 'ask') return { output: {}, answer: { ...answer, reason: `${answer.reason}; asked by the toolgate MCP gateway for ${gateway}` }, outcome };
  return { output: hookOutput(runtime, call.event, answer, call.tool), answer, outcome };
}

/** The answer a runtime gets for an outcome. */
export function hookAnswerOf(outcome: DecideOutcome, handling: 'passthrough' | 'hold', holdSeconds: number): HookAnswer {
  const { verdict, answered, approval } = outcome;
  if (answered) {
    const modified = answered.modifiedArgs ?? outcome.modifiedArgs;
    return { decision: answered.decision, reason: answered.reason, ...(answered.decision === 'allow' && modified != null ? { modifiedArgs: modified } : {}) };
  }
  if (verdict.decision === 'ask' && handling === 'hold') {
    const which = approval ? `approval ${approval.id}` : 'the approval';
    return { decision: 'deny', reason: `no reviewer answered within ${holdSeconds}s, so toolgate denies for now (${verdict.reason}). ${which} stays pending until ${approval?.expiresAt ?? 'it expires'}: retrying the same call waits on it again.` };
  }
  return { decision: verdict.decision, reason: verdict.reason, ...(verdict.decision !== 'deny' && outcome.modifiedArgs !== undefined ? { modifiedArgs: outcome.modifiedArgs } : {}) };
}
