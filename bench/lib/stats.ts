// Small statistics helpers for the benchmarks: percentiles, medians and timing loops.

/** The p-th percentile (0–100) of a list of numbers, nearest-rank on a sorted copy. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The median of a list. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nanoseconds since an arbitrary origin, as a number (good for intervals below ~100 days). */
export function nowNs(): number {
  return Number(process.hrtime.bigint());
}

/** Runs `fn` repeatedly for about `ms` milliseconds and returns the mean cost of one call in microseconds. */
export function meanCostUs(fn: () => void, ms: number, batch = 50): number {
  const start = nowNs();
  const deadline = start + ms * 1e6;
  let calls = 0;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < batch; i++) fn();
    calls += batch;
    now = nowNs();
  }
  return (now - start) / 1e3 / calls;
}

/** Times each call of `fn(i)` separately; returns per-call microseconds. */
export function sampleUs(count: number, fn: (i: number) => void): number[] {
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const t0 = nowNs();
    fn(i);
    out[i] = (nowNs() - t0) / 1e3;
  }
  return out;
}

/** Rounds for display: 3 significant digits. */
export function round3(n: number): number {
  if (!Number.isFinite(n) || n === 0) return n;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(n))));
  return Number(n.toFixed(digits));
}
