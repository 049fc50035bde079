// Answers an agent runtime's hook: decide the call, then pass an ask to the runtime's prompt or hold it for a reviewer; record a ran call's output.
import { TooManyPendingError } from './approvals.ts';
import { bindCaller, claimedAgentIds } from './agent-binding.ts';
import type { DecideOutcome } from './decider.ts';
import { mcpToolServiceFor } from './mcp-tools.ts';
import {
  askHandling,
  hookCall,
  hookCalls,
  hookOutput,
  isAfterEvent,
  type HookAnswer,
  type HookCall,
  type HookInput,
  type HookRuntime,
} from './hook-formats.ts';
import { hookCallLogFor, recordHookResult, type HookResultOutcome } from './hook-results.ts';
import type { Toolgate } from './toolgate.ts';

/** A hook's answer: the runtime's output and how it was reached. */
export interface HookReply {
  output: Record<string, unknown>;
  answer: HookAnswer;
  /** Undefined when no decision was made (the agent already had too many pending approvals, or an after-event). */
  outcome?: DecideOutcome;
  /** After-events: what became of the output. */
  result?: HookResultOutcome;
}

/** Where the hook came from besides its body. */
export interface HookContext {
  /** The agent's home (`x-toolgate-agent-home`), validated by the HTTP layer. */
  agentHome?: string;
  signal?: AbortSignal;
  /** The agent id the caller's token is bound to, if any (its hooks act as that agent). */
  boundAgentId?: string;
  /** The caller's token name: the pending caps count per token. */
  token?: string;
}

/** How strict an answer is: leaving a call to the runtime is stricter than allowing it. */
function strictness(answer: HookAnswer): number {
  return answer.decision === 'deny' ? 3 : answer.decision === 'ask' ? 2 : answer.unmatched ? 1 : 0;
}

/**
 * Decides a hook call. With `passthrough` an ask goes back to the runtime, which prompts its own user, and no
 * approval is opened here; with `hold` the request waits up to `hookHoldSeconds` for a reviewer's answer and
 * denies when none comes (the approval stays pending: retrying the same call waits on it again). After-events
 * (PostToolUse, AfterTool) record the output as the result of the call's decision and answer with no effect.
 */
export async function answerHook(
  toolgate: Toolgate,
  runtime: HookRuntime,
  input: HookInput,
  context: HookContext = {},
): Promise<HookReply> {
  const log = hookCallLogFor(toolgate);
  const first = hookCall(runtime, input);
  if (isAfterEvent(first.event)) {
    const result = await recordHookResult(toolgate, log, runtime, input);
    const answer: HookAnswer = { decision: 'allow', reason: 'recorded after the tool ran' };
    return { output: hookOutput(runtime, first.event, answer, first.tool), answer, result };
  }
  // The strictest answer of the calls the input is judged as (one, but two for a Codex network request with a command).
  let reply: HookReply | undefined;
  for (const call of hookCalls(runtime, input)) {
    const next = await answerCall(toolgate, runtime, call, context);
    if (!reply || strictness(next.answer) > strictness(reply.answer)) reply = next;
    if (reply.answer.decision === 'deny') break;
  }
  if (reply!.outcome && reply!.answer.decision !== 'deny') log.remember(runtime, input, reply!.outcome.decisionId);
  return reply!;
}

async function answerCall(
  toolgate: Toolgate,
  runtime: HookRuntime,
  call: HookCall,
  context: HookContext,
): Promise<HookReply> {
  // A bound token's hook acts as its agent: the runtime names the agent itself, so a different name is replaced.
  const as = bindCaller(
    context.boundAgentId,
    { agentId: call.agentId, sessionId: call.sessionId },
    claimedAgentIds(toolgate.config.agentTokens),
    false,
  );
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
      agentId: as.agentId,
      sessionId: as.sessionId,
      cwd: call.cwd,
      toolCallId: call.toolCallId,
      agentHome: context.agentHome,
      delegateAsk: handling === 'passthrough',
      waitSeconds: handling === 'hold' ? toolgate.config.hookHoldSeconds : undefined,
      signal: context.signal,
      token: context.token,
    });
  } catch (error) {
    // A runtime reads a non-2xx hook answer as "no opinion" and runs the call: answer deny instead.
    if (!(error instanceof TooManyPendingError)) throw error;
    const answer: HookAnswer = { decision: 'deny', reason: error.message };
    return { output: hookOutput(runtime, call.event, answer, call.tool), answer };
  }
  const answer = hookAnswerOf(outcome, handling, toolgate.config.hookHoldSeconds, toolgate.config.hookDefault);
  if (gateway !== undefined && answer.decision === 'ask')
    return {
      output: {},
      answer: { ...answer, reason: `${answer.reason}; asked by the toolgate MCP gateway for ${gateway}` },
      outcome,
    };
  return { output: hookOutput(runtime, call.event, answer, call.tool), answer, outcome };
}

/**
 * The answer a runtime gets for an outcome. An allow nobody chose (source `default`: no rule, grant, mode or human,
 * nothing dangerous found) is `unmatched` — the runtime keeps its own checks — unless the operator set
 * `hook_default: allow`.
 */
export function hookAnswerOf(
  outcome: DecideOutcome,
  handling: 'passthrough' | 'hold',
  holdSeconds: number,
  hookDefault: 'unmatched' | 'allow' = 'unmatched',
): HookAnswer {
  const { verdict, answered, approval } = outcome;
  if (answered) {
    const modified = answered.modifiedArgs ?? outcome.modifiedArgs;
    return {
      decision: answered.decision,
      reason: answered.reason,
      ...(answered.decision === 'allow' && modified != null ? { modifiedArgs: modified } : {}),
    };
  }
  if (verdict.decision === 'ask' && handling === 'hold') {
    const which = approval ? `approval ${approval.id}` : 'the approval';
    return {
      decision: 'deny',
      reason: `no reviewer answered within ${holdSeconds}s, so toolgate denies for now (${verdict.reason}). ${which} stays pending until ${approval?.expiresAt ?? 'it expires'}: retrying the same call waits on it again.`,
    };
  }
  const unmatched = verdict.decision === 'allow' && verdict.source === 'default' && hookDefault === 'unmatched';
  return {
    decision: verdict.decision,
    reason: verdict.reason,
    ...(verdict.decision !== 'deny' && outcome.modifiedArgs !== undefined
      ? { modifiedArgs: outcome.modifiedArgs }
      : {}),
    ...(unmatched ? { unmatched } : {}),
  };
}
