// POST /v1/results (a tool's output after it ran) and GET /v1/results/{id} (an offloaded output), agent token.
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { resultServiceFor, type ResultReceipt } from '../../service/results.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import { readJson, validate } from '../body.ts';
import type { components } from '../openapi-types.ts';
import { ProblemError, problemResponse } from '../problem.ts';

type Schemas = components['schemas'];

/**
 * Tool outputs are larger than decide bodies: the point of this endpoint is to take a 1 MiB output and offload it.
 * The body may be up to twice the largest output (JSON escapes) plus room for the rest of the request.
 */
export function resultBodyLimit(resultMaxBytes: number): number {
  return resultMaxBytes * 2 + 64 * 1024;
}

export const ResultRequestSchema = z.strictObject({
  decision_id: z.string().min(1).max(200),
  result: z.strictObject({ output: z.string(), is_error: z.boolean() }),
}) satisfies z.ZodType<Schemas['ResultRequest']>;

const StoredQuery = z.object({
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).optional(),
});

export function registerResults(app: Hono<AppEnv>, deps: AppDeps): void {
  const maxSize = resultBodyLimit(deps.toolgate.config.resultMaxBytes);
  const limit = bodyLimit({
    maxSize,
    onError: (c) =>
      problemResponse(
        c,
        413,
        `the request body is larger than ${maxSize} bytes (a tool output may have ${deps.toolgate.config.resultMaxBytes} bytes)`,
      ),
  });

  app.post('/v1/results', limit, deps.requireAgent, async (c) => {
    const body = await readJson(c, ResultRequestSchema);
    const outcome = await resultServiceFor(deps.toolgate).submit(body.decision_id, body.result, c.get('identity').name);
    if (outcome.kind === 'not_found')
      throw new ProblemError(404, `no decision with id ${body.decision_id}`, [`decision_id: no such decision`]);
    if (outcome.kind === 'conflict') throw new ProblemError(409, outcome.message);
    if (outcome.kind === 'too_large')
      throw new ProblemError(
        413,
        `the tool output has ${outcome.bytes} bytes; at most ${outcome.limit} are accepted (result_max_bytes)`,
        [`result.output: larger than ${outcome.limit} bytes`],
      );
    if (outcome.kind === 'over_budget') {
      throw new ProblemError(
        429,
        `this token stored ${outcome.usedBytes} bytes of offloaded output today; ${outcome.bytes} more would pass its budget of ${outcome.budget} bytes (result_budget_bytes)`,
        [`result.output: over the token's storage budget`],
        { 'retry-after': String(outcome.retryAfterSeconds) },
      );
    }
    return c.json(receiptJson(outcome.receipt), 201);
  });

  app.get('/v1/results/:id', deps.requireAgent, async (c) => {
    const query = validate(StoredQuery, c.req.query());
    const stored = resultServiceFor(deps.toolgate).get(c.req.param('id'));
    if (!stored) throw new ProblemError(404, `no offloaded result with id ${c.req.param('id')}`);
    const offset = query.offset ?? 0;
    const output = stored.output.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
    const body: Schemas['StoredResult'] = {
      id: stored.id,
      decision_id: stored.decisionId,
      created_at: stored.createdAt,
      bytes: stored.bytes,
      is_error: stored.isError,
      output,
      offset,
      total_chars: stored.output.length,
    };
    return c.json(body);
  });
}

function receiptJson(r: ResultReceipt): Schemas['ResultReceipt'] {
  return {
    decision_id: r.decisionId,
    result: r.result,
    bytes: r.bytes,
    offloaded: r.offloaded,
    redacted: r.redacted,
    notes: r.notes,
  };
}
