// Request logging: a request id on every request (kept from X-Request-Id when sane), one JSON line when it ends.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../service/logger.ts';
import type { AppEnv, Identity } from './auth.ts';

/** Header carrying the request id, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id';

// A caller's id is echoed into logs and headers, so only short, plain tokens are trusted.
const SAFE_ID = /^[\w.:-]{1,128}$/;
// Probes scraped every few seconds would drown the log at info.
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
// An agent's own calls: one before every tool call, each already an audit_log row (decision_id, latency).
// Logged at debug when they succeed; a line per decision at info would cost more than the decision itself.
const AGENT_CALLS: [method: string, path: RegExp][] = [
  ['POST', /^\/v1\/(?:decide|hooks\/[\w-]+)$/],
  ['GET', /^\/v1\/approvals\/[^/]+$/],
];

/** The caller's request id when it is short and plain, else a fresh one. */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
}

/** The level a request's line is written at. */
export function requestLogLevel(method: string, path: string, status: number): 'error' | 'info' | 'debug' {
  if (status >= 500) return 'error';
  if (QUIET_PATHS.has(path)) return 'debug';
  if (status < 400 && AGENT_CALLS.some(([m, p]) => m === method && p.test(path))) return 'debug';
  return 'info';
}

/** What one request's log line says. */
export interface RequestRecord {
  requestId: string;
  method: string;
  path: string;
  status: number;
  /** `performance.now()` when the request arrived. */
  started: number;
  identity?: Identity;
}

/** Writes a request's line at its level (requestLogLevel), building it only when that level is on. */
export function logRequest(logger: Logger, r: RequestRecord): void {
  const level = requestLogLevel(r.method, r.path, r.status);
  if (!logger.isLevelEnabled(level)) return;
  const line = {
    req_id: r.requestId,
    method: r.method,
    path: r.path,
    status: r.status,
    ms: Math.round((performance.now() - r.started) * 100) / 100,
    ...(r.identity ? { caller: r.identity.name, role: r.identity.role } : {}),
  };
  logger[level](line, level === 'error' ? 'request failed' : 'request');
}

/** Middleware: sets `X-Request-Id` on the response and logs method, path, status, duration and who called. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.header(REQUEST_ID_HEADER, requestId);
    try {
      await next();
    } finally {
      // Error responses are built afresh by the error handler, so the header is set again on whatever went out.
      try {
        c.res.headers.set(REQUEST_ID_HEADER, requestId);
      } catch {
        // immutable headers (a fetched response passed through): the id is still in the log line
      }
      logRequest(logger, {
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        started,
        identity: c.get('identity'),
      });
    }
  };
}
