// How many bytes of offloaded tool output each token may store per day (POST /v1/results).

/** Options of the budget; tests pass their own clock. */
export interface ResultBudgetOptions {
  /** Bytes one token may store within `windowMs`. */
  bytesPerToken: number;
  /** The window (default one day). */
  windowMs?: number;
  now?: () => number;
}

/** The answer to a request for room: granted, or how long until enough has aged out of the window. */
export type BudgetAnswer = { ok: true } | { ok: false; retryAfterSeconds: number; usedBytes: number };

/**
 * A sliding window per token name of the bytes it stored. Kept in memory: a restart forgets it, which at worst lets
 * a token store one more day's budget; the files themselves stay under <data-dir>/results and the audit log counts
 * them. At most 64 entries a token (older ones merge into the oldest), so a flood of small results costs no memory.
 */
export class ResultBudget {
  private readonly used = new Map<string, { at: number; bytes: number }[]>();
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(private readonly options: ResultBudgetOptions) {
    this.windowMs = options.windowMs ?? 86_400_000;
    this.now = options.now ?? Date.now;
  }

  /** Takes `bytes` from `token`'s budget if they fit. */
  take(token: string, bytes: number): BudgetAnswer {
    const at = this.now();
    const entries = (this.used.get(token) ?? []).filter((e) => e.at + this.windowMs > at);
    const usedBytes = entries.reduce((sum, e) => sum + e.bytes, 0);
    if (usedBytes + bytes > this.options.bytesPerToken) {
      // The earliest moment enough has aged out (never, for one result larger than the whole budget: a day).
      let freed = 0;
      let until = at + this.windowMs;
      for (const e of entries) {
        freed += e.bytes;
        if (usedBytes - freed + bytes <= this.options.bytesPerToken) {
          until = e.at + this.windowMs;
          break;
        }
      }
      this.used.set(token, entries);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((until - at) / 1000)), usedBytes };
    }
    entries.push({ at, bytes });
    if (entries.length > 64) entries.splice(0, 2, { at: entries[1]!.at, bytes: entries[0]!.bytes + entries[1]!.bytes });
    this.used.set(token, entries);
    return { ok: true };
  }
}
