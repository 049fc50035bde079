// Failed authentications per client address, counted in the store so that every replica on the database counts
// into one budget and honours one block; and the sweep that keeps the store's table bounded.
import type { AuthFailurePolicy, Store } from '../store/types.ts';

/** Options of the ledger; every field has a default. */
export interface FailedAuthOptions {
  /** Failures an address may make within `windowMs` before it is blocked (default 30). */
  maxFailures?: number;
  /** The counting window (default 60 s). */
  windowMs?: number;
  /** How long a blocked address is refused (default 60 s). */
  blockMs?: number;
  /**
   * Addresses remembered at most (default 10 000), blocked ones kept first: a spray of addresses cannot grow the
   * table without bound. Each process sweeps after every hundredth of this many new windows it opened, so the table
   * holds at most this many plus a hundredth per process between sweeps.
   */
  maxTracked?: number;
  now?: () => number;
}

/** The failed-authentication ledger of one process, on the shared store. */
export interface FailedAuthLedger {
  /**
   * Counts one failed authentication from `address`. When the address is blocked the failure is not counted and
   * the answer is the seconds until the block ends; undefined otherwise.
   */
  fail(address: string): Promise<number | undefined>;
  /** Whether `address` is blocked now. */
  blocked(address: string): Promise<boolean>;
  /** Addresses remembered, and of them blocked now (for tests and metrics). */
  counts(): Promise<{ tracked: number; blocked: number }>;
}

/** Builds the ledger. Only invalid credentials reach it: a valid token never costs a round trip to the database. */
export function failedAuthLedger(store: Store, options: FailedAuthOptions = {}): FailedAuthLedger {
  const { maxFailures = 30, windowMs = 60_000, blockMs = 60_000, maxTracked = 10_000, now = Date.now } = options;
  const policy: AuthFailurePolicy = { maxFailures, windowMs, blockMs };
  const sweepEvery = Math.max(1, Math.floor(maxTracked / 100));
  let opened = 0;
  let sweeping: Promise<unknown> | undefined;

  const sweep = async (at: number) => {
    opened = 0;
    sweeping = store.sweepAuthFailures(policy, at, maxTracked).catch(() => undefined); // retried after the next windows
    await sweeping;
    sweeping = undefined;
  };

  return {
    async fail(address) {
      const at = now();
      const outcome = await store.recordAuthFailure(address, policy, at);
      if (outcome.refused) return Math.max(1, Math.ceil((outcome.blockedUntil - at) / 1000));
      if (outcome.failures === 1 && ++opened >= sweepEvery && !sweeping) await sweep(at);
      return undefined;
    },
    async blocked(address) {
      return (await store.authBlockedUntil(address, now())) > 0;
    },
    counts() {
      return store.countAuthFailures(now());
    },
  };
}
