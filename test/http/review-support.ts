// Helpers for the review page's HTTP tests: sign in as a browser would and send requests with the cookie alone.
import assert from 'node:assert/strict';
import { REVIEWER_TOKEN, type Harness } from '../support/harness.ts';

/** The origin of `app.request('/…')`. */
export const ORIGIN = 'http://localhost';

/** POST /review/login as a browser on this origin would; returns the response. */
export async function login(h: Harness, token: string, headers: Record<string, string> = {}): Promise<Response> {
  return h.app.request('/review/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...headers },
    body: new URLSearchParams({ token }).toString(),
  });
}

/** Signs in with the reviewer token; returns the cookie pair and the page's CSRF token. */
export async function signIn(h: Harness): Promise<{ cookie: string; csrf: string }> {
  const res = await login(h, REVIEWER_TOKEN);
  assert.equal(res.status, 303);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await h.app.request('/review', { headers: { cookie } })).text();
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page)?.[1];
  assert.ok(csrf, 'the signed-in page carries a CSRF token');
  return { cookie, csrf };
}

/** A request carrying only the cookie (no bearer token), as the page's script sends it. */
export async function withCookie(
  h: Harness,
  cookie: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return h.app.request(path, { ...init, headers: { cookie, ...init.headers } });
}
