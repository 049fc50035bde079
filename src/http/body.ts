// Reading request bodies: JSON parsed by us (so malformed JSON is a 400), depth-limited, then validated with zod.
import type { Context } from 'hono';
import type { z } from 'zod';
import { ProblemError } from './problem.ts';

/** Deepest nesting accepted in a JSON body. */
export const MAX_JSON_DEPTH = 64;

/** Parses the JSON body and validates it; every failure is a ProblemError with `path: message` issues. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (type && !/^application\/(?:[\w.+-]*\+)?json\b/i.test(type)) throw new ProblemError(415, `expected an application/json body, got ${type}`);
  let text: string;
  try {
    text = await c.req.text();
  } catch {
    throw new ProblemError(400, 'the request body could not be read');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProblemError(400, `malformed JSON: ${(error as Error).message}`, [`(body): malformed JSON`]);
  }
  if (jsonDepth(json) > MAX_JSON_DEPTH) throw new ProblemError(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, [`(body): nested deeper than ${MAX_JSON_DEPTH} levels`]);
  return validate(schema, json);
}

/** Validates a value with zod; a failure is a 400 ProblemError listing every issue. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(body)'}: ${i.message}`);
  throw new ProblemError(400, `invalid request: ${errors.join('; ')}`, errors);
}

/** Nesting depth of a JSON value, without recursion (a hostile body cannot overflow the stack). */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return max;
}
