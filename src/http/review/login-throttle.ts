// Failed sign-ins per client address: after too many in a window, the sign-in form answers 429 until it passes.
import type { Context } from 'hono';

/** Options of the throttle. */
export interface LoginThrottleOptions {
  /** Failures allowed per address per window (default 10). */
  maxFailures?: number;
  /** The window (default 5 minutes). */
  windowMs?: number;
  now?: () => number;
}

interface Window {
  failures: number;
  resetAt: number;
}

/** Counts failed sign-ins; tokens are long and random, so this only stops a loop from hammering the form. */
export class LoginThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor({ maxFailures = 10, windowMs = 5 * 60_000, now = Date.now }: LoginThrottleOptions = {}) {
    this.maxFailures = maxFailures;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** Seconds until this address may try again, or 0 when it may now. */
  retryAfterSeconds(address: string): number {
    const w = this.windows.get(address);
    if (!w) return 0;
    const left = w.resetAt - this.now();
    if (left <= 0) {
      this.windows.delete(address);
      return 0;
    }
    return w.failures >= this.maxFailures ? Math.ceil(left / 1000) : 0;
  }

  failed(address: string): void {
    const now = this.now();
    if (this.windows.size > 10_000) for (const [a, w] of this.windows) if (w.resetAt <= now) this.windows.delete(a);
    const w = this.windows.get(address);
    if (!w || w.resetAt <= now) this.windows.set(address, { failures: 1, resetAt: now + this.windowMs });
    else w.failures++;
  }

  succeeded(address: string): void {
    this.windows.delete(address);
  }
}

/** The peer address of a request served by @hono/node-server ('local' for in-process requests). */
export function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'local';
}
