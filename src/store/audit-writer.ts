// Grouped commits for the audit log: concurrent appends share one transaction, and each resolves after it commits.
import type Database from 'better-sqlite3';
import { auditRowHash, GENESIS_HASH } from './audit-hash.ts';
import { AUDIT_COLUMNS } from './audit-json.ts';
import type { AuditEntry } from './types.ts';

interface Pending {
  entries: AuditEntry[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Buffers appends until the next turn of the event loop, then writes them all in one transaction. The checkpointer
 * may hold the queued commits back for a moment (`holdUntil`, checkpointer.ts: the log's last frames are being copied
 * so that the next commit starts it over).
 */
export class AuditWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private held: Promise<unknown> | undefined;
  private committed = 0;
  private readonly insert: Database.Statement;
  private readonly last: Database.Statement;
  private readonly writeBatch: (batch: Pending[]) => void;

  constructor(db: Database.Database) {
    this.insert = db.prepare(
      `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')}) VALUES (${AUDIT_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.last = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    // IMMEDIATE: the chain head is read and extended under the write lock, so another process cannot interleave.
    this.writeBatch = db.transaction((batch: Pending[]) => {
      const head = this.last.get() as { seq: number; hash: string } | undefined;
      let seq = head?.seq ?? 0;
      let prev = head?.hash ?? GENESIS_HASH;
      for (const p of batch) {
        for (const entry of p.entries) {
          seq += 1;
          const hash = auditRowHash(prev, seq, entry);
          // Positional parameters in AUDIT_COLUMNS order, spelled out: no array or object per row on the decision
          // path (auditRowValues' array measured ~4 % more CPU per cached decision, bench/decide-cpu.ts).
          this.insert.run(
            seq,
            entry.ts,
            entry.decision_id,
            entry.agent_id,
            entry.session_id,
            entry.tool,
            entry.args,
            entry.decision,
            entry.risk,
            entry.source,
            entry.reason,
            entry.rule_id,
            entry.approval_id,
            entry.mode,
            entry.latency_us,
            entry.resolved_by,
            entry.findings,
            prev,
            hash,
          );
          prev = hash;
        }
      }
    }).immediate as unknown as (batch: Pending[]) => void;
  }

  /** Queues rows; the promise settles when their transaction has committed (or failed). */
  append(entries: AuditEntry[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entries, resolve, reject });
      this.schedule();
    });
  }

  /** Transactions committed so far. */
  commits(): number {
    return this.committed;
  }

  /** Keeps queued rows from being written until `until` settles (an explicit `flush` still writes them). */
  holdUntil(until: Promise<unknown>): void {
    this.held = until;
    const release = () => {
      if (this.held !== until) return;
      this.held = undefined;
      this.schedule();
    };
    until.then(release, release);
  }

  /** Writes everything queued now. */
  flush(): void {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    try {
      this.writeBatch(batch);
      this.committed += 1;
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  private schedule(): void {
    if (this.scheduled || this.held) return;
    this.scheduled = true;
    setImmediate(this.flushQueued);
  }

  private readonly flushQueued = (): void => {
    this.scheduled = false;
    if (!this.held) this.flush();
  };
}
