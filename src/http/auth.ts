// Bearer-token authentication with two roles; tokens are compared in constant time.
import { hash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { NamedToken } from '../config.ts';
import { ProblemError } from './problem.ts';

export type Role = 'agent' | 'reviewer';

/** Who made a request: the role and the token's name (recorded as `resolved_by`). */
export interface Identity {
  role: Role;
  name: string;
  /** The agent id an agent token is bound to (its calls act as this agent); undefined when unbound. */
  agentId?: string;
}

/** The variables toolgate's middleware sets on the Hono context. */
export interface AppEnv {
  Variables: { identity: Identity };
}

interface Digest {
  digest: Buffer;
  identity: Identity;
}

/**
 * Resolves tokens to identities. Every configured token is checked, so timing says nothing about which matched.
 * A token once found valid is remembered by its text (a map holding only configured tokens, never a guess), so an
 * agent's every call after its first costs a lookup instead of a SHA-256 and a comparison per configured token.
 */
export class TokenAuthenticator {
  private readonly digests: Digest[];
  private readonly known = new Map<string, Identity>();
  constructor(tokens: { agent: NamedToken[]; reviewer: NamedToken[] }) {
    this.digests = [
      ...tokens.reviewer.map((t) => ({
        digest: sha256(t.token),
        identity: { role: 'reviewer' as const, name: t.name },
      })),
      ...tokens.agent.map((t) => ({
        digest: sha256(t.token),
        identity: { role: 'agent' as const, name: t.name, ...(t.agentId === undefined ? {} : { agentId: t.agentId }) },
      })),
    ];
  }

  /** The identity of a token, or undefined. */
  identify(token: string): Identity | undefined {
    const remembered = this.known.get(token);
    if (remembered) return remembered;
    const candidate = sha256(token);
    let found: Identity | undefined;
    for (const d of this.digests) if (timingSafeEqual(candidate, d.digest) && !found) found = d.identity;
    if (found) this.known.set(token, found);
    return found;
  }
}

function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/** The bearer token of a request, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = header && /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}

/** Optional hook letting another credential (the review page's cookie) authenticate a request. */
export type AlternateAuth = (
  c: Parameters<MiddlewareHandler<AppEnv>>[0],
) => Identity | undefined | Promise<Identity | undefined>;

/** Failed-authentication accounting (rate limiting), asked only for credentials that are not valid. */
export interface AuthGuard {
  /** Counts the failure; rejects with a ProblemError (429) when the client is blocked (then it is not counted). */
  failed(c: Parameters<MiddlewareHandler<AppEnv>>[0]): Promise<void>;
}

/** Requires a token of `role` (a reviewer token satisfies every role). 401 without a valid token, 403 for the wrong role. */
export function requireRole(
  role: Role,
  auth: TokenAuthenticator,
  alternate?: AlternateAuth,
  guard?: AuthGuard,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    let identity = token ? auth.identify(token) : undefined;
    if (!identity && !token && alternate) identity = await alternate(c);
    if (!identity) {
      // Failures are counted, and blocked, apart from valid credentials: a flood of bad tokens from an address (on
      // loopback, every local process shares one) must not lock the agents and the reviewer out (issue 23, row 5).
      await guard?.failed(c);
      throw new ProblemError(
        401,
        token ? 'the bearer token is not valid' : 'missing credentials: send Authorization: Bearer <token>',
        undefined,
        { 'www-authenticate': 'Bearer realm="toolgate"' },
      );
    }
    if (role === 'reviewer' && identity.role !== 'reviewer')
      throw new ProblemError(403, 'this endpoint needs a reviewer token; an agent token cannot use it');
    c.set('identity', identity);
    await next();
  };
}
