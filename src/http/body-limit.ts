// Body size limit that decides from Content-Length without touching the body stream (hono's bodyLimit reads
// `c.req.raw.body`, which makes @hono/node-server build a full web Request for every request, GETs included).
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** Options, as for hono's bodyLimit. */
export interface FastBodyLimitOptions {
  maxSize: number;
  onError: (c: Context) => Response | Promise<Response>;
}

/**
 * Same answers as hono's `bodyLimit`: a request without a body passes, a declared Content-Length (without
 * Transfer-Encoding) is compared with the limit, and only a streamed body is counted through hono's middleware.
 */
export function fastBodyLimit(options: FastBodyLimitOptions): MiddlewareHandler {
  const streamed = bodyLimit(options);
  return async (c, next) => {
    const method = c.req.method;
    // GET and HEAD requests have no body in the Fetch API: hono's middleware passes them straight on.
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return parseInt(length || '0', 10) > options.maxSize ? options.onError(c) : next();
    }
    return streamed(c, next);
  };
}
