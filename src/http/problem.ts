// RFC 9457 problem+json: the one error shape, raised as ProblemError and rendered in one place.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Short titles per status, so every problem reads the same. */
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The detail of a 500: the failure itself goes to the log, never to the caller. */
export const UNEXPECTED_DETAIL = 'unexpected error; the request was not processed';

/** An expected failure with its HTTP status; `errors` lists validation issues as `path: message`. */
export class ProblemError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly detail: string,
    readonly errors?: string[],
    readonly headers?: Record<string, string>,
    /** RFC 9457 extension members (e.g. the decision a 429 could not queue). */
    readonly extensions?: Record<string, unknown>,
  ) {
    super(detail);
  }
}

/** The problem document for a status. */
export function problemBody(
  status: number,
  detail: string,
  errors?: string[],
  instance?: string,
  extensions?: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...extensions,
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
  };
  if (instance) body.instance = instance;
  if (errors && errors.length) body.errors = errors;
  return body;
}

/** Renders a problem response. */
export function problemResponse(
  c: Context,
  status: ContentfulStatusCode,
  detail: string,
  errors?: string[],
  headers?: Record<string, string>,
  extensions?: Record<string, unknown>,
): Response {
  return new Response(JSON.stringify(problemBody(status, detail, errors, c.req.path, extensions)), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}
