// Where a request came from and how: its own origin (behind a TLS proxy too), and whether a browser sent it from that origin.
import type { Context } from 'hono';

/** True when the request reached us over TLS, directly or through a proxy that says so in `x-forwarded-proto`. */
export function isSecureRequest(c: Context): boolean {
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === 'https';
  return new URL(c.req.url).protocol === 'https:';
}

/** The origin the browser sees this server at (`https://host:port` behind a TLS proxy that keeps `Host`). */
export function requestOrigin(c: Context): string {
  const url = new URL(c.req.url);
  return `${isSecureRequest(c) ? 'https' : 'http'}://${url.host}`;
}

/**
 * False when a browser tells us the request comes from another origin: an `Origin` header that differs,
 * or `Sec-Fetch-Site` other than `same-origin` / `none` (typed URL, bookmark). A client that sends
 * neither is not a browser acting for someone else, and passes.
 */
export function isSameOriginRequest(c: Context): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== requestOrigin(c)) return false;
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  return true;
}
