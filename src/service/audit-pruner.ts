// Background audit retention (`--audit-retention 90d`): prunes old rows in bounded batches, off the decide path.
import type { Store } from '../store/types.ts';
import type { Logger } from './logger.ts';

/** Options of the pruner. */
export interface AuditPrunerOptions {
  /** Rows older than this are pruned. */
  retentionMs: number;
  /** How often to look (default: a tenth of the retention, between one minute and one hour). */
  intervalMs?: number;
  /** Rows per transaction (default 10 000): each batch holds the write lock, and the event loop, briefly. */
  batchRows?: number;
  logger?: Logger;
  now?: () => number;
}

/** A running pruner. */
export interface AuditPruner {
  /** Prunes everything due now, batch by batch; resolves with the number of rows removed. */
  runOnce(): Promise<number>;
  stop(): void;
}

/** Starts pruning: once soon after start, then every interval. Timers are unref'd: they never keep the process up. */
export function startAuditPruner(store: Store, options: AuditPrunerOptions): AuditPruner {
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? Math.min(3_600_000, Math.max(60_000, Math.floor(options.retentionMs / 10)));
  const batchRows = options.batchRows ?? 10_000;
  let stopped = false;
  let running: Promise<number> | undefined;

  const runOnce = (): Promise<number> => {
    running ??= (async () => {
      let total = 0;
      try {
        const cutoff = new Date(now() - options.retentionMs).toISOString();
        while (!stopped) {
          const result = await store.pruneAudit(cutoff, batchRows);
          total += result.pruned;
          if (result.pruned > 0)
            options.logger?.info(
              { pruned: result.pruned, through_seq: result.throughSeq, checkpoint_seq: result.checkpointSeq, cutoff },
              'audit retention pruned old rows',
            );
          if (result.pruned < batchRows) break;
          // Let waiting requests run between batches.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        options.logger?.error({ err: error }, 'audit retention failed; will retry at the next interval');
      } finally {
        running = undefined;
      }
      return total;
    })();
    return running;
  };

  const first = setTimeout(() => void runOnce(), 1000);
  const every = setInterval(() => void runOnce(), intervalMs);
  first.unref();
  every.unref();
  return {
    runOnce,
    stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
