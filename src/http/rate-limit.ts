// Failed-authentication rate limiting per client address: too many bad credentials in a window → 429 for a while.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AuthGuard } from './auth.ts';
import { ProblemError } from './problem.ts';

/** Options of the failed-authentication limiter; every field has a default. */
export interface FailedAuthLimitOptions {
  /** Failures an address may make within `windowMs` before it is blocked (default 30). */
  maxFailures?: number;
  /** The counting window (default 60 s). */
  windowMs?: number;
  /** How long a blocked address gets 429 for every authenticated endpoint (default 60 s). */
  blockMs?: number;
  /**
   * Take the client address from the first `X-Forwarded-For` entry. Off by default: any client can write that
   * header, so trusting it without a proxy that sets it would let an attacker pick a fresh address per guess.
   */
  trustForwardedFor?: boolean;
  /** Addresses tracked at most (oldest forgotten first), so a spray of addresses cannot exhaust memory (default 10 000). */
  maxTracked?: number;
  now?: () => number;
}

interface Entry {
  windowStart: number;
  failures: number;
  blockedUntil: number;
}

/** The limiter plus a peek at its state, for tests and metrics. */
export interface FailedAuthLimiter extends AuthGuard {
  check(c: Context): void;
  failed(c: Context): void;
  /** Addresses currently blocked. */
  blocked(): number;
  /** Whether a peer (socket address, `X-Forwarded-For`) is blocked now: the same test as `check`, without a context. */
  blocks(remote: string | undefined, forwardedFor: string | undefined): boolean;
  /** Addresses currently remembered. */
  tracked(): number;
}

/**
 * Builds the limiter that `createApp({authGuard})` plugs in front of every authenticated route. It counts and blocks
 * invalid credentials only: a blocked address gets 429 for every token that is not valid, while a valid token is
 * served. On loopback every local client shares one address, so blocking valid tokens too would let one local
 * process (an agent) that floods bad tokens lock every agent and the reviewer out (issue 23, row 5). The price is
 * that a blocked address still learns when a guess is right — tokens are random and at least 16 characters (the
 * generated ones 192 bits), so that is no practical oracle.
 */
export function failedAuthLimiter(options: FailedAuthLimitOptions = {}): FailedAuthLimiter {
  const { maxFailures = 30, windowMs = 60_000, blockMs = 60_000, trustForwardedFor = false, maxTracked = 10_000, now = Date.now } = options;
  const entries = new Map<string, Entry>();

  const forget = (at: number) => {
    for (const [key, e] of entries) if (e.blockedUntil <= at && e.windowStart + windowMs <= at) entries.delete(key);
    // Still full (a spray of live addresses): drop the oldest, which Map iteration order gives first.
    while (entries.size >= maxTracked) entries.delete(entries.keys().next().value!);
  };

  return {
    check(c) {
      const e = entries.get(clientAddress(c, trustForwardedFor));
      const at = now();
      if (e && e.blockedUntil > at) {
        const seconds = Math.ceil((e.blockedUntil - at) / 1000);
        throw new ProblemError(429, `too many failed authentications from this address; try again in ${seconds} s`, undefined, { 'retry-after': String(seconds) });
      }
    },
    failed(c) {
      const key = clientAddress(c, trustForwardedFor);
      const at = now();
      let e = entries.get(key);
      if (!e || e.windowStart + windowMs <= at) {
        if (!e && entries.size >= maxTracked) forget(at);
        e = { windowStart: at, failures: 0, blockedUntil: e?.blockedUntil ?? 0 };
        entries.delete(key);
        entries.set(key, e);
      }
      e.failures++;
      if (e.failures >= maxFailures) e.blockedUntil = at + blockMs;
    },
    blocked() {
      const at = now();
      let n = 0;
      for (const e of entries.values()) if (e.blockedUntil > at) n++;
      return n;
    },
    tracked: () => entries.size,
    blocks(remote, forwardedFor) {
      const e = entries.get(addressKey(remote, forwardedFor, trustForwardedFor));
      return e !== undefined && e.blockedUntil > now();
    },
  };
}

/**
 * The address a request came from: the socket's peer (through @hono/node-server), or `unknown` when there is no
 * socket (in-process `app.request`). IPv4-mapped IPv6 is unmapped, and IPv6 is keyed by its /64, the unit one
 * host usually controls.
 */
export function clientAddress(c: Context, trustForwardedFor = false): string {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    address = undefined;
  }
  return addressKey(address, trustForwardedFor ? c.req.header('x-forwarded-for') : undefined, trustForwardedFor);
}

/** The key a peer is counted under: the first `X-Forwarded-For` entry when trusted, else the socket's address. */
export function addressKey(remote: string | undefined, forwardedFor: string | undefined, trustForwardedFor: boolean): string {
  if (trustForwardedFor) {
    const forwarded = forwardedFor?.split(',')[0]?.trim();
    if (forwarded) return normalizeAddress(forwarded);
  }
  return remote ? normalizeAddress(remote) : 'unknown';
}

function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

function expandIpv6(address: string): string[] | undefined {
  const [head, tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  if (tail === undefined && left.length !== 8) return undefined;
  const fill = 8 - left.length - right.length;
  if (fill < 0) return undefined;
  return [...left, ...Array<string>(fill).fill('0'), ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}
