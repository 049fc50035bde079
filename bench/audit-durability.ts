// Benchmark 5: audit durability (placeholder while it is being written).
import type { BenchOptions, BenchResult } from './lib/result.ts';
export async function benchAudit(_options: BenchOptions): Promise<BenchResult> {
  return { bench: 'audit', figures: [], error: 'not written yet' };
}
