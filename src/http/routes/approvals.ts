// Approvals: the queue (reviewer), long-poll (agent or reviewer), resolve (reviewer), cancel (agent).
import type { Context, Hono } from 'hono';
import type { Cancellation, ResolveOutcome } from '../../service/approvals.ts';
import type { AppDeps } from '../app.ts';
import { approvalJson } from '../approval-json.ts';
import type { AppEnv } from '../auth.ts';
import { readJson, validate } from '../body.ts';
import { ProblemError } from '../problem.ts';
import { ResolveRequestSchema } from '../schemas.ts';
import { z } from 'zod';

const ListQuery = z.object({
  status: z.enum(['pending', 'approved', 'denied', 'expired', 'cancelled']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

export function registerApprovals(app: Hono<AppEnv>, deps: AppDeps): void {
  const { approvals, config } = deps.toolgate;

  app.get('/v1/approvals', deps.requireReviewer, async (c) => {
    const query = validate(ListQuery, c.req.query());
    const list = await approvals.list(query.status, query.limit);
    if (query.status !== 'pending') return c.json({ approvals: list.map(approvalJson) });
    // The newest pending ones are listed (a flood of old asks never hides what arrived last); say how many are not.
    const hidden = Math.max(0, (await deps.toolgate.store.countPendingApprovals()) - list.length);
    return c.json({ approvals: list.map(approvalJson), hidden });
  });

  app.get('/v1/approvals/:id', deps.requireAgent, async (c) => {
    const { seconds, fromPrefer } = requestedWait(c.req.query('wait'), c.req.header('prefer'), config.maxWaitSeconds);
    const body = await answerPoll(deps, c.req.param('id'), seconds, c.req.raw.signal);
    if (fromPrefer) c.header('Preference-Applied', `wait=${seconds}`);
    return c.json(body);
  });

  app.post('/v1/approvals/:id/resolve', deps.requireReviewer, async (c) => {
    const body = await readJson(c, ResolveRequestSchema);
    const outcome = await approvals.resolve(
      c.req.param('id'),
      {
        choice: body.choice,
        feedback: body.feedback,
        rulePattern: body.rule_pattern,
        modifiedArgs: body.modified_args,
      },
      c.get('identity').name,
    );
    return respond(c, outcome);
  });

  app.post('/v1/approvals/:id/cancel', deps.requireAgent, async (c) => {
    return respond(c, await approvals.cancel(c.req.param('id'), c.get('identity').name));
  });
}

function respond(c: Context<AppEnv>, outcome: ResolveOutcome): Response {
  switch (outcome.kind) {
    case 'ok':
      return c.json(approvalJson(outcome.approval));
    case 'not_found':
      throw new ProblemError(404, `no approval with id ${c.req.param('id')}`);
    case 'conflict':
      throw new ProblemError(
        409,
        `approval ${outcome.approval.id} is already ${outcome.approval.status}${outcome.approval.choice ? ` (${outcome.approval.choice})` : ''}; the first answer wins`,
      );
    case 'invalid':
      throw new ProblemError(400, `${outcome.field}: ${outcome.message}`, [`${outcome.field}: ${outcome.message}`]);
  }
}

/**
 * The long-poll's work after parsing, shared by the app and the fast path (fast-path.ts): the approval once it is
 * answered, the wait runs out or `signal` aborts; 404 for an unknown id.
 */
export function answerPoll(
  deps: Pick<AppDeps, 'toolgate'>,
  id: string,
  seconds: number,
  signal: Cancellation | undefined,
): Promise<ReturnType<typeof approvalJson>> {
  // A promise chain, not an async function: no suspended frame is kept for each of thousands of held polls.
  return deps.toolgate.approvals.wait(id, seconds * 1000, signal).then((approval) => {
    if (!approval) throw new ProblemError(404, `no approval with id ${id}`);
    return approvalJson(approval);
  });
}

/** Seconds to hold a long-poll: `?wait=N` or `Prefer: wait=N` (RFC 7240), capped. */
export function requestedWait(
  query: string | undefined,
  prefer: string | undefined,
  cap: number,
): { seconds: number; fromPrefer: boolean } {
  if (query !== undefined) {
    const n = query.trim() === '' ? Number.NaN : Number(query);
    if (!Number.isFinite(n) || n < 0)
      throw new ProblemError(400, 'wait must be a number of seconds ≥ 0', [
        `wait: expected a number ≥ 0, got ${query}`,
      ]);
    return { seconds: Math.min(n, cap), fromPrefer: false };
  }
  const m = prefer && /(?:^|[;,\s])wait\s*=\s*(\d+(?:\.\d+)?)/i.exec(prefer);
  if (m) return { seconds: Math.min(Number(m[1]), cap), fromPrefer: true };
  return { seconds: 0, fromPrefer: false };
}
