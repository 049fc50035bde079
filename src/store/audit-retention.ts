// Audit retention: prunes the oldest prefix of the chain and appends a checkpoint row so `audit verify` still passes.
import { timeOrderedId } from './ids.ts';
import type Database from 'better-sqlite3';
import { auditRowHash } from './audit-hash.ts';
import { AUDIT_COLUMNS, auditRowValues } from './audit-json.ts';
import type { AuditEntry } from './types.ts';

/**
 * What a checkpoint row carries in its `args` column (JSON). The row itself is `decision = 'checkpoint'`,
 * `source = 'retention'`, `tool = 'toolgate'`, and is chained like any other row, so it cannot be edited unnoticed.
 */
export interface AuditCheckpoint {
  /** Every row with `seq` up to and including this one was pruned. */
  pruned_through_seq: number;
  /** The `hash` of that last pruned row: the `prev_hash` the first kept row must carry. */
  last_pruned_hash: string;
  /** Rows removed by this prune. */
  pruned_rows: number;
  /** Rows older than this time were eligible. */
  cutoff: string;
}

/** The outcome of one prune. */
export interface PruneResult {
  pruned: number;
  /** The last pruned seq, or null when nothing was old enough. */
  throughSeq: number | null;
  /** The seq of the checkpoint row written, or null. */
  checkpointSeq: number | null;
}

/** The decision value of checkpoint rows. */
export const CHECKPOINT_DECISION = 'checkpoint';

/**
 * Prunes rows older than `cutoff` (ISO time), at most `maxRows` of them. Only a *prefix* of the chain is removed: it stops at the first row
 * that is not older than the cutoff, so the kept rows stay one unbroken chain. Everything happens in one IMMEDIATE
 * transaction: raise the meta flag the delete trigger checks, delete, drop the flag, append the checkpoint.
 * Other connections never see the flag (it is never committed), so a stray `DELETE FROM audit_log` still fails.
 */
export function pruneAuditLog(
  db: Database.Database,
  cutoff: string,
  maxRows = Number.MAX_SAFE_INTEGER,
  now: () => Date = () => new Date(),
): PruneResult {
  const firstKept = db.prepare('SELECT MIN(seq) FROM audit_log WHERE ts >= ?').pluck();
  const lastSeq = db.prepare('SELECT MAX(seq) FROM audit_log').pluck();
  const firstSeq = db.prepare('SELECT MIN(seq) FROM audit_log').pluck();
  const rowAt = db.prepare('SELECT seq, hash FROM audit_log WHERE seq <= ? ORDER BY seq DESC LIMIT 1');
  const count = db.prepare('SELECT COUNT(*) FROM audit_log WHERE seq <= ?').pluck();
  const run = db.transaction((): PruneResult => {
    const keptFrom = firstKept.get(cutoff) as number | null;
    const oldest = firstSeq.get() as number | null;
    let through = keptFrom === null ? (lastSeq.get() as number | null) : keptFrom - 1;
    // A bounded batch keeps the write lock (and the server's event loop: better-sqlite3 is synchronous) short.
    if (through !== null && oldest !== null) through = Math.min(through, oldest + maxRows - 1);
    const last = through === null ? undefined : (rowAt.get(through) as { seq: number; hash: string } | undefined);
    if (!last) return { pruned: 0, throughSeq: null, checkpointSeq: null };
    const pruned = count.get(last.seq) as number;
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('audit_prune_in_progress', 1)").run();
    db.prepare('DELETE FROM audit_log WHERE seq <= ?').run(last.seq);
    db.prepare("DELETE FROM meta WHERE key = 'audit_prune_in_progress'").run();
    const checkpointSeq = appendChained(db, last, checkpointEntry(last, pruned, cutoff, now()));
    return { pruned, throughSeq: last.seq, checkpointSeq };
  });
  return run.immediate();
}

/** The checkpoint row recording that every row through `last` (`pruned` of them, older than `cutoff`) was pruned. */
export function checkpointEntry(
  last: { seq: number; hash: string },
  pruned: number,
  cutoff: string,
  at: Date,
): AuditEntry {
  const checkpoint: AuditCheckpoint = {
    pruned_through_seq: last.seq,
    last_pruned_hash: last.hash,
    pruned_rows: pruned,
    cutoff,
  };
  return {
    ts: at.toISOString(),
    decision_id: timeOrderedId(),
    agent_id: null,
    session_id: null,
    tool: 'toolgate',
    args: JSON.stringify(checkpoint),
    decision: CHECKPOINT_DECISION,
    risk: null,
    source: 'retention',
    reason: `retention pruned ${pruned} row(s) older than ${cutoff} (seq ≤ ${last.seq}); the chain continues from hash ${last.hash}`,
    rule_id: null,
    approval_id: null,
    mode: null,
    latency_us: null,
    resolved_by: null,
    findings: '[]',
  };
}

/** Appends one row at the chain head (the caller holds the write lock); `pruned`, the last row just pruned, continues a fully pruned chain. */
function appendChained(db: Database.Database, pruned: { seq: number; hash: string }, entry: AuditEntry): number {
  const head = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as
    { seq: number; hash: string } | undefined;
  // Only a prefix is pruned: a row left is above every pruned one, and with none left the chain goes on after them.
  const seq = (head?.seq ?? pruned.seq) + 1;
  const prev = head?.hash ?? pruned.hash;
  db.prepare(
    `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')}) VALUES (${AUDIT_COLUMNS.map(() => '?').join(', ')})`,
  ).run(auditRowValues(seq, entry, prev, auditRowHash(prev, seq, entry)));
  return seq;
}

/** Parses a checkpoint row's `args`; undefined when it is not a well-formed checkpoint. */
export function parseCheckpoint(args: string): AuditCheckpoint | undefined {
  try {
    const value = JSON.parse(args) as Partial<AuditCheckpoint>;
    if (typeof value.pruned_through_seq === 'number' && typeof value.last_pruned_hash === 'string')
      return value as AuditCheckpoint;
  } catch {
    // not JSON: not a checkpoint
  }
  return undefined;
}
