// Benchmark 4: long-poll capacity (placeholder while it is being written).
import type { BenchOptions, BenchResult } from './lib/result.ts';
export async function benchLongPoll(_options: BenchOptions): Promise<BenchResult> {
  return { bench: 'longpoll', figures: [], error: 'not written yet' };
}
