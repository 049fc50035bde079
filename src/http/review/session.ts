// The review page's sign-in session: an in-memory session store and the cookie check that lets it call a few API routes.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AlternateAuth, AppEnv, Identity } from '../auth.ts';
import { ProblemError } from '../problem.ts';
import { isSameOriginRequest, requestOrigin } from './origin.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set on every request by registerReview, so reviewCookieAuth can find the app's sessions. */
    reviewSessions: ReviewSessions;
  }
}

/** The session cookie. Path=/ because the page calls /v1/…; HttpOnly and SameSite=Strict are set where it is issued. */
export const SESSION_COOKIE = 'toolgate_review';
/** The header carrying the CSRF token on the page's state-changing requests. */
export const CSRF_HEADER = 'x-csrf-token';

/** One signed-in reviewer. */
export interface ReviewSession {
  id: string;
  identity: Identity;
  /** Sent back by the page in `x-csrf-token` on state-changing requests. */
  csrfToken: string;
  expiresAt: number;
}

/** Options of the session store. */
export interface ReviewSessionsOptions {
  /** How long a sign-in lasts (default 12 hours). */
  ttlMs?: number;
  /** The most sessions kept; the oldest is dropped beyond it (default 1000). */
  maxSessions?: number;
  now?: () => number;
}

/**
 * Sessions live only in this process's memory: a restart signs everybody out, which is the safe direction,
 * and nothing about a session is ever written to disk where an agent could read it.
 */
export class ReviewSessions {
  private readonly sessions = new Map<string, ReviewSession>();
  private readonly ttlMs: number;
  private readonly maxSessions: number;
  private readonly now: () => number;

  constructor({ ttlMs = 12 * 3600_000, maxSessions = 1000, now = Date.now }: ReviewSessionsOptions = {}) {
    this.ttlMs = ttlMs;
    this.maxSessions = maxSessions;
    this.now = now;
  }

  /** Starts a session for a reviewer. */
  create(identity: Identity): ReviewSession {
    this.sweep();
    while (this.sessions.size >= this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    const session: ReviewSession = {
      id: randomToken(),
      identity,
      csrfToken: randomToken(),
      expiresAt: this.now() + this.ttlMs,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id, or undefined (an expired one is forgotten on the way). */
  get(id: string | undefined): ReviewSession | undefined {
    if (!id) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return session;
  }

  /** Ends a session (sign-out). */
  delete(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }

  /** Seconds a new session's cookie should live. */
  get maxAgeSeconds(): number {
    return Math.floor(this.ttlMs / 1000);
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
  }
}

/** The session a request's cookie names, if any. */
export function sessionOf(c: Context<AppEnv>): ReviewSession | undefined {
  return c.get('reviewSessions')?.get(getCookie(c, SESSION_COOKIE));
}

/**
 * The API calls the review page makes, and the only ones its cookie may authenticate. Everything else
 * (rules, decide, grants, cancel…) needs a bearer token, so a stolen or ridden cookie cannot change policy.
 */
const PAGE_API: { method: string; path: RegExp }[] = [
  { method: 'GET', path: /^\/v1\/events$/ },
  { method: 'GET', path: /^\/v1\/approvals$/ },
  { method: 'GET', path: /^\/v1\/approvals\/[^/]+$/ },
  { method: 'POST', path: /^\/v1\/approvals\/[^/]+\/resolve$/ },
  { method: 'GET', path: /^\/v1\/audit(?:\/[^/]+)*$/ },
  // Replays the audit log against the rule in the "always allow" editor; it reads, and saves nothing.
  { method: 'POST', path: /^\/v1\/rules\/preview$/ },
];

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** True when the page makes this call (HEAD counts as GET). */
export function isPageApiCall(method: string, path: string): boolean {
  const m = method === 'HEAD' ? 'GET' : method;
  return PAGE_API.some((entry) => entry.method === m && entry.path.test(path));
}

/**
 * The `alternateAuth` hook of createApp: the review cookie as a credential, on the page's own calls only.
 * A cookie request from another origin is refused (403) even for reads — SameSite=Strict does not stop a
 * page on another port of the same host. A state-changing one must also carry the session's CSRF token.
 */
export const reviewCookieAuth: AlternateAuth = (c) => {
  if (!isPageApiCall(c.req.method, c.req.path)) return undefined;
  const session = sessionOf(c);
  if (!session) return undefined;
  if (!isSameOriginRequest(c))
    throw new ProblemError(
      403,
      `a review-page session cannot be used from another origin (expected ${requestOrigin(c)})`,
    );
  if (!SAFE_METHODS.has(c.req.method)) {
    if (!c.req.header('origin'))
      throw new ProblemError(403, 'a state-changing request with the review-page session must carry an Origin header');
    if (!sameSecret(c.req.header(CSRF_HEADER), session.csrfToken))
      throw new ProblemError(
        403,
        `a state-changing request with the review-page session must carry its CSRF token in ${CSRF_HEADER}`,
      );
  }
  return session.identity;
};

/** Constant-time comparison of a presented secret with the expected one. */
export function sameSecret(presented: string | undefined, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}
