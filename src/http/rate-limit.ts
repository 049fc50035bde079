// Failed-authentication rate limiting per client address: too many bad credentials in a window → 429 for a while.
// The counts live in the store (service/failed-auth.ts), so replicas on one database share one budget and one block.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { failedAuthLedger, type FailedAuthOptions } from '../service/failed-auth.ts';
import type { Store } from '../store/types.ts';
import type { AuthGuard } from './auth.ts';
import { ProblemError } from './problem.ts';

/** Options of the failed-authentication limiter; every field has a default. */
export interface FailedAuthLimitOptions extends FailedAuthOptions {
  /**
   * Take the client address from the first `X-Forwarded-For` entry. Off by default: any client can write that
   * header, so trusting it without a proxy that sets it would let an attacker pick a fresh address per guess.
   */
  trustForwardedFor?: boolean;
}

/** The limiter plus a peek at its state, for tests and metrics. */
export interface FailedAuthLimiter extends AuthGuard {
  /** Addresses currently blocked (on every replica of the database). */
  blocked(): Promise<number>;
  /** Whether a peer (socket address, `X-Forwarded-For`) is blocked now. */
  blocks(remote: string | undefined, forwardedFor: string | undefined): Promise<boolean>;
  /** Addresses currently remembered. */
  tracked(): Promise<number>;
}

/**
 * Builds the limiter that `createApp({authGuard})` plugs in front of every authenticated route. It counts and blocks
 * invalid credentials only: a blocked address gets 429 for every token that is not valid, while a valid token is
 * served — and never waits for the database. On loopback every local client shares one address, so blocking valid
 * tokens too would let one local process (an agent) that floods bad tokens lock every agent and the reviewer out
 * (issue 23, row 5). The price is that a blocked address still learns when a guess is right — tokens are random
 * and at least 16 characters (the generated ones 192 bits), so that is no practical oracle.
 */
export function failedAuthLimiter(store: Store, options: FailedAuthLimitOptions = {}): FailedAuthLimiter {
  const { trustForwardedFor = false } = options;
  const ledger = failedAuthLedger(store, options);
  return {
    async failed(c) {
      let seconds: number | undefined;
      try {
        seconds = await ledger.fail(clientAddress(c, trustForwardedFor));
      } catch {
        // The count cannot be kept: refuse without saying whether the credential was right.
        throw new ProblemError(
          503,
          'failed authentications cannot be counted now (the database does not answer); try again shortly',
          undefined,
          { 'retry-after': '1' },
        );
      }
      if (seconds !== undefined) {
        throw new ProblemError(
          429,
          `too many failed authentications from this address; try again in ${seconds} s`,
          undefined,
          { 'retry-after': String(seconds) },
        );
      }
    },
    blocked: async () => (await ledger.counts()).blocked,
    tracked: async () => (await ledger.counts()).tracked,
    blocks: (remote, forwardedFor) => ledger.blocked(addressKey(remote, forwardedFor, trustForwardedFor)),
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
export function addressKey(
  remote: string | undefined,
  forwardedFor: string | undefined,
  trustForwardedFor: boolean,
): string {
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
