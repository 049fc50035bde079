// Reading request bodies: JSON parsed by us (so malformed JSON is a 400), depth-limited, then validated with zod.
import type { Context } from 'hono';
import type { z } from 'zod';
import { ProblemError } from './problem.ts';

/** Deepest nesting accepted in a JSON body. */
export const MAX_JSON_DEPTH = 64;

/** Parses the JSON body and validates it; every failure is a ProblemError with `path: message` issues. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  checkJsonContentType(c.req.header('content-type'));
  let text: string;
  try {
    text = await c.req.text();
  } catch {
    throw new ProblemError(400, 'the request body could not be read');
  }
  return parseJsonText(text, schema);
}

/** 415 unless the content type is absent or JSON (`application/json`, `application/*+json`). */
export function checkJsonContentType(type: string | undefined): void {
  if (type && !isJsonContentType(type)) throw new ProblemError(415, `expected an application/json body, got ${type}`);
}

/** Whether a Content-Type names JSON. */
export function isJsonContentType(type: string): boolean {
  return /^application\/(?:[\w.+-]*\+)?json\b/i.test(type);
}

/** Parses a body's text as JSON, checks its depth and NUL bytes, and validates it (the rest of `readJson`). */
export function parseJsonText<S extends z.ZodType>(text: string, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProblemError(400, `malformed JSON: ${(error as Error).message}`, [`(body): malformed JSON`]);
  }
  // Both walks are skipped when the text proves them needless: JSON cannot hold a raw NUL in a string (only the
  // escape \u0000), and nesting deeper than the limit needs more than that many `[`/`{` in the text.
  if (openersExceed(text, MAX_JSON_DEPTH) && jsonDepth(json) > MAX_JSON_DEPTH)
    throw new ProblemError(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, [
      `(body): nested deeper than ${MAX_JSON_DEPTH} levels`,
    ]);
  const nul = text.includes('\\u0000') ? nulBytePath(json) : undefined;
  if (nul !== undefined) throw new ProblemError(400, `${nul}: contains a NUL byte`, [`${nul}: contains a NUL byte`]);
  return validate(schema, json);
}

/**
 * Whether a text holds more than `limit` `[` and `{` together (a bound on the nesting of the JSON it encodes), found
 * with indexOf (native) and stopping at the limit: a character loop over every body was ~3 % of a cached decision.
 */
function openersExceed(text: string, limit: number): boolean {
  let n = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++n > limit) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++n > limit) return true;
  return false;
}

/**
 * The path of the first string (or key) holding U+0000, or undefined. Rejected everywhere: a C string ends at
 * NUL, so the command a shell or a file API would see is not the one toolgate judged.
 */
export function nulBytePath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path || '(body)';
    } else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return path || '(body)';
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}

/** Hand-written checks of a schema's valid case (see fastCheck). */
const fastChecks = new WeakMap<z.ZodType, (value: unknown) => unknown>();

/**
 * Gives a schema a hand-written check for its valid case, tried before zod: it returns the schema's output for a
 * value the schema accepts with that output, or undefined for anything else (which zod then parses, so the
 * errors are zod's). A check may turn away valid values; it must never accept an invalid one.
 */
export function fastCheck<S extends z.ZodType>(schema: S, check: (value: unknown) => z.output<S> | undefined): void {
  fastChecks.set(schema, check);
}

/** Validates a value with zod; a failure is a 400 ProblemError listing every issue. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const fast = fastChecks.get(schema)?.(value);
  if (fast !== undefined) return fast as z.output<S>;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map(
    (i) => `${i.path.length ? i.path.map(String).join('.') : '(body)'}: ${i.message}`,
  );
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
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return max;
}
