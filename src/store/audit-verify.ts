// Walks the audit log's hash chain and names the first row that was edited, deleted or inserted out of order.
import type Database from 'better-sqlite3';
import { auditRowHash, GENESIS_HASH } from './audit-hash.ts';
import { CHECKPOINT_DECISION, parseCheckpoint, type AuditCheckpoint } from './audit-retention.ts';
import type { AuditRow } from './types.ts';

/** The first problem found in the chain. */
export interface ChainBreak {
  /** The seq of the first row that does not verify. */
  seq: number;
  kind: 'edited' | 'missing' | 'reordered' | 'pruned_without_checkpoint';
  message: string;
}

/** What a walk over the chain found. */
export interface VerifyResult {
  ok: boolean;
  rows: number;
  firstSeq: number | null;
  lastSeq: number | null;
  /** The newest row's hash: record it elsewhere to detect a truncated tail later. */
  headHash: string;
  /** The retention checkpoint the chain starts from, when a prefix was pruned. */
  checkpoint?: AuditCheckpoint;
  problem?: ChainBreak;
}

/**
 * Verifies every row in seq order: its hash must cover its content and its predecessor's hash, and seqs must be
 * consecutive. A log whose first row is not seq 1 must be vouched for by a retention checkpoint row naming the last
 * pruned seq and hash. Streams the rows, so memory stays flat on a large log.
 */
export function verifyAuditChain(db: Database.Database): VerifyResult {
  const first = db.prepare('SELECT seq, prev_hash FROM audit_log ORDER BY seq ASC LIMIT 1').get() as { seq: number; prev_hash: string } | undefined;
  if (!first) return { ok: true, rows: 0, firstSeq: null, lastSeq: null, headHash: GENESIS_HASH };
  let prevHash = GENESIS_HASH;
  let checkpoint: AuditCheckpoint | undefined;
  if (first.seq !== 1) {
    checkpoint = anchoringCheckpoint(db, first.seq);
    if (!checkpoint) {
      return {
        ok: false, rows: 0, firstSeq: first.seq, lastSeq: null, headHash: GENESIS_HASH,
        problem: { seq: first.seq, kind: 'pruned_without_checkpoint', message: `the log starts at seq ${first.seq}, but no retention checkpoint records rows 1–${first.seq - 1} as pruned: they were deleted` },
      };
    }
    prevHash = checkpoint.last_pruned_hash;
  }
  let expectedSeq = first.seq;
  let rows = 0;
  let lastSeq: number | null = null;
  for (const row of db.prepare('SELECT * FROM audit_log ORDER BY seq ASC').iterate() as IterableIterator<AuditRow>) {
    const problem = checkRow(row, expectedSeq, prevHash);
    if (problem) return { ok: false, rows, firstSeq: first.seq, lastSeq, headHash: prevHash, checkpoint, problem };
    rows++;
    lastSeq = row.seq;
    prevHash = row.hash;
    expectedSeq = row.seq + 1;
  }
  return { ok: true, rows, firstSeq: first.seq, lastSeq, headHash: prevHash, checkpoint };
}

function checkRow(row: AuditRow, expectedSeq: number, prevHash: string): ChainBreak | undefined {
  const label = `row seq ${row.seq} (decision_id ${row.decision_id}, ${row.ts})`;
  if (row.seq > expectedSeq) {
    const missing = row.seq - 1 === expectedSeq ? `row ${expectedSeq} is` : `rows ${expectedSeq}–${row.seq - 1} are`;
    return { seq: row.seq, kind: 'missing', message: `${missing} missing before ${label}: deleted` };
  }
  if (row.prev_hash !== prevHash) {
    return { seq: row.seq, kind: 'reordered', message: `${label} does not follow the row before it (prev_hash ${short(row.prev_hash)}, expected ${short(prevHash)}): a row was inserted, replaced or moved` };
  }
  if (auditRowHash(row.prev_hash, row.seq, row) !== row.hash) {
    return { seq: row.seq, kind: 'edited', message: `${label} was edited: its hash does not match its content` };
  }
  return undefined;
}

/** The checkpoint (newest first) that records exactly the rows before `firstSeq` as pruned. */
function anchoringCheckpoint(db: Database.Database, firstSeq: number): AuditCheckpoint | undefined {
  const rows = db.prepare('SELECT args FROM audit_log WHERE decision = ? AND source = ? ORDER BY seq DESC').pluck().all(CHECKPOINT_DECISION, 'retention') as string[];
  for (const args of rows) {
    const checkpoint = parseCheckpoint(args);
    if (checkpoint?.pruned_through_seq === firstSeq - 1) return checkpoint;
  }
  return undefined;
}

function short(hash: string): string {
  return hash.length > 12 ? `${hash.slice(0, 12)}…` : hash;
}

/** Where an asynchronous walk reads the chain from (a PostgreSQL store). */
export interface AuditChainSource {
  /** The first row's seq and prev_hash, or undefined for an empty log. */
  first(): Promise<{ seq: number; prev_hash: string } | undefined>;
  /** Every row in seq order. */
  rows(): AsyncIterable<AuditRow>;
  /** The `args` of every retention checkpoint row, newest first. */
  checkpoints(): Promise<string[]>;
}

/** verifyAuditChain over an asynchronous source: the same checks, the same answers. */
export async function verifyAuditChainFrom(source: AuditChainSource): Promise<VerifyResult> {
  const first = await source.first();
  if (!first) return { ok: true, rows: 0, firstSeq: null, lastSeq: null, headHash: GENESIS_HASH };
  let prevHash = GENESIS_HASH;
  let checkpoint: AuditCheckpoint | undefined;
  if (first.seq !== 1) {
    checkpoint = (await source.checkpoints()).map(parseCheckpoint).find((c) => c?.pruned_through_seq === first.seq - 1);
    if (!checkpoint) {
      return {
        ok: false, rows: 0, firstSeq: first.seq, lastSeq: null, headHash: GENESIS_HASH,
        problem: { seq: first.seq, kind: 'pruned_without_checkpoint', message: `the log starts at seq ${first.seq}, but no retention checkpoint records rows 1–${first.seq - 1} as pruned: they were deleted` },
      };
    }
    prevHash = checkpoint.last_pruned_hash;
  }
  let expectedSeq = first.seq;
  let rows = 0;
  let lastSeq: number | null = null;
  for await (const row of source.rows()) {
    const problem = checkRow(row, expectedSeq, prevHash);
    if (problem) return { ok: false, rows, firstSeq: first.seq, lastSeq, headHash: prevHash, checkpoint, problem };
    rows++;
    lastSeq = row.seq;
    prevHash = row.hash;
    expectedSeq = row.seq + 1;
  }
  return { ok: true, rows, firstSeq: first.seq, lastSeq, headHash: prevHash, checkpoint };
}
