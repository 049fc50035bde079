// POST /v1/decide: an agent asks before running a tool.
import type { Hono } from 'hono';
import { QueueFullError, type DecideOutcome } from '../../service/decider.ts';
import { TooManyPendingError, type Cancellation } from '../../service/approvals.ts';
import { AgentBindingError, bindCaller, claimedAgentIds } from '../../service/agent-binding.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv, Identity } from '../auth.ts';
import { readJson } from '../body.ts';
import type { Verdict } from '../../engine/decide.ts';
import type { components } from '../openapi-types.ts';
import { ProblemError } from '../problem.ts';
import { DecideRequestSchema } from '../schemas.ts';
import type { z } from 'zod';

type DecideResponse = components['schemas']['DecideResponse'];
/** A decide request as validated. */
export type DecideRequest = z.output<typeof DecideRequestSchema>;

export function registerDecide(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post('/v1/decide', deps.requireAgent, async (c) => {
    const body = await readJson(c, DecideRequestSchema);
    const explain = c.req.query('explain') === 'true' || c.req.query('explain') === '1';
    // Lazy: reading c.req.raw.signal builds a whole web Request per request; only a wait (or a stage) needs it.
    return c.json(await answerDecide(deps, body, explain, () => c.req.raw.signal, c.get('identity')));
  });
}

/**
 * Decides a validated request: the route's whole work after parsing, shared by the app and the fast path
 * (fast-path.ts). A full queue is a 429 ProblemError that carries the decision.
 */
export async function answerDecide(
  deps: Pick<AppDeps, 'toolgate'>,
  body: DecideRequest,
  explain: boolean,
  signal: () => Cancellation,
  caller?: Identity,
): Promise<DecideResponse> {
  return decideResponse(await decideOutcome(deps, body, explain, signal, caller), explain);
}

/** answerDecide's answer as JSON text and its length in bytes (the fast path writes it as it is). */
export async function answerDecideJson(
  deps: Pick<AppDeps, 'toolgate'>,
  body: DecideRequest,
  signal: () => Cancellation,
  caller?: Identity,
): Promise<ResponseJson> {
  return decideResponseJson(await decideOutcome(deps, body, false, signal, caller));
}

async function decideOutcome(
  deps: Pick<AppDeps, 'toolgate'>,
  body: DecideRequest,
  explain: boolean,
  signal: () => Cancellation,
  caller?: Identity,
): Promise<DecideOutcome> {
  let as;
  try {
    // A token bound to an agent id acts as that agent (403 for another), its sessions namespaced (agent-binding.ts).
    as = bindCaller(
      caller?.agentId,
      { agentId: body.agent_id, sessionId: body.session_id },
      claimedOf(deps.toolgate.config.agentTokens),
    );
  } catch (error) {
    if (error instanceof AgentBindingError)
      throw new ProblemError(403, error.message, [`${error.field}: ${error.message}`]);
    throw error;
  }
  try {
    const outcome = await deps.toolgate.decider.decide({
      tool: body.tool,
      args: body.args,
      agentId: as.agentId,
      sessionId: as.sessionId,
      cwd: body.cwd,
      mode: body.mode,
      interactive: body.interactive,
      toolCallId: body.tool_call_id,
      agentHome: body.agent_home,
      ...(body.tool_annotations ? { annotations: body.tool_annotations } : {}),
      waitSeconds: body.wait === undefined ? undefined : Math.min(body.wait, deps.toolgate.config.maxWaitSeconds),
      explain,
      // A function, not a getter: an object literal with an accessor keeps everything its closure reaches (the
      // request, the response) alive past the next scavenge, and so into the old generation, on every request.
      signal,
      token: caller?.name,
    });
    return outcome;
  } catch (error) {
    // The decision itself (ask, its risk and reason) travels as extension members: a caller that reads only
    // `decision` still sees that the call must not run yet.
    if (error instanceof TooManyPendingError)
      throw new ProblemError(
        429,
        error.message,
        undefined,
        { 'retry-after': '30' },
        error instanceof QueueFullError ? decideResponse(error.outcome, false) : undefined,
      );
    throw error;
  }
}

const claimedByTokens = new WeakMap<object, ReadonlySet<string>>();

/** The bound agent ids of a config's tokens, computed once per token list. */
function claimedOf(agentTokens: readonly { agentId?: string }[]): ReadonlySet<string> {
  let claimed = claimedByTokens.get(agentTokens);
  if (!claimed) claimedByTokens.set(agentTokens, (claimed = claimedAgentIds(agentTokens)));
  return claimed;
}

/** The response body for an outcome. */
export function decideResponse(outcome: DecideOutcome, explain: boolean): DecideResponse {
  const { verdict, approval, answered } = outcome;
  const body: DecideResponse = {
    decision_id: outcome.decisionId,
    decision: answered?.decision ?? verdict.decision,
    reason: answered?.reason ?? verdict.reason,
    risk: verdict.risk,
    source: answered?.source ?? verdict.source,
    findings: verdict.findings,
    mode: verdict.mode,
  };
  if (verdict.rule) body.rule = verdict.rule;
  if (approval)
    body.approval = {
      id: approval.id,
      status: approval.status,
      expires_at: approval.expiresAt,
      suggested_pattern: approval.suggestedPattern,
      poll: `/v1/approvals/${approval.id}?wait=30`,
    };
  if (outcome.modifiedArgs !== undefined) body.modified_args = outcome.modifiedArgs;
  if (answered) {
    body.feedback = answered.feedback;
    if (answered.modifiedArgs !== null && answered.modifiedArgs !== undefined)
      body.modified_args = answered.modifiedArgs;
  }
  if (explain && verdict.trace) body.trace = verdict.trace;
  return body;
}

/** A response body as JSON, with its length in bytes. */
export interface ResponseJson {
  text: string;
  bytes: number;
  /** The decision came from the verdict cache (a repeat of a call it holds). */
  cached: boolean;
}

/** The JSON of a plain answer after its decision id, per cached verdict (see decideResponseJson). */
const answerTails = new WeakMap<Verdict, { text: string; bytes: number }>();
/** What the JSON of an answer starts with, up to its decision id's value. */
const ID_PREFIX = '{"decision_id":';

/**
 * decideResponse(outcome, false) as JSON. A repeated call's verdict is the cached object itself, and its answer
 * differs from the last one only in the decision id: the rest (reason, findings, rule) is serialised once per
 * cached verdict, not on every request. Answers with an approval, a human's answer or rewritten arguments are
 * serialised whole.
 */
export function decideResponseJson(outcome: DecideOutcome): ResponseJson {
  const id = JSON.stringify(outcome.decisionId);
  if (!outcome.cached || outcome.approval || outcome.answered || outcome.modifiedArgs !== undefined) {
    const text = JSON.stringify(decideResponse(outcome, false));
    return { text, bytes: Buffer.byteLength(text), cached: outcome.cached === true };
  }
  let tail = answerTails.get(outcome.verdict);
  if (tail === undefined) {
    const text = JSON.stringify(decideResponse({ ...outcome, decisionId: '' }, false)).slice(ID_PREFIX.length + 2);
    tail = { text, bytes: Buffer.byteLength(text) };
    answerTails.set(outcome.verdict, tail);
  }
  return {
    text: `${ID_PREFIX}${id}${tail.text}`,
    bytes: ID_PREFIX.length + Buffer.byteLength(id) + tail.bytes,
    cached: true,
  };
}
