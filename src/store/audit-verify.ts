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
  const first = db.prepare('SELECT seq, prev_hash FROM audit_log ORDER BY seq ASC LIMIT 1').get() as
    { seq: number; prev_hash: string } | undefined;
  if (!first) return empty();
  const checkpoints = () =>
    db
      .prepare('SELECT args FROM audit_log WHERE decision = ? AND source = ? ORDER BY seq DESC')
      .pluck()
      .all(CHECKPOINT_DECISION, 'retention') as string[];
  const walk = ChainWalk.begin(first.seq, checkpoints);
  if (!(walk instanceof ChainWalk)) return walk;
  for (const row of db.prepare('SELECT * FROM audit_log ORDER BY seq ASC').iterate() as IterableIterator<AuditRow>) {
    const broken = walk.step(row);
    if (broken) return broken;
  }
  return walk.result();
}

/** The result for an empty log (a new object each time: callers may add to it). */
function empty(): VerifyResult {
  return { ok: true, rows: 0, firstSeq: null, lastSeq: null, headHash: GENESIS_HASH };
}

/** One walk over the chain, shared by the synchronous and the asynchronous verifier: begun at the first row, fed rows in seq order. */
class ChainWalk {
  private rows = 0;
  private lastSeq: number | null = null;
  private prevHash: string;
  private expectedSeq: number;

  private constructor(
    private readonly firstSeq: number,
    private readonly checkpoint: AuditCheckpoint | undefined,
  ) {
    this.prevHash = checkpoint?.last_pruned_hash ?? GENESIS_HASH;
    this.expectedSeq = firstSeq;
  }

  /** A walk from `firstSeq`; when that is not 1, only if a retention checkpoint (args, newest first) vouches for the rows before it. */
  static begin(firstSeq: number, checkpoints: () => string[]): ChainWalk | VerifyResult {
    if (firstSeq === 1) return new ChainWalk(firstSeq, undefined);
    const checkpoint = checkpoints()
      .map(parseCheckpoint)
      .find((c) => c?.pruned_through_seq === firstSeq - 1);
    if (checkpoint) return new ChainWalk(firstSeq, checkpoint);
    return {
      ok: false,
      rows: 0,
      firstSeq,
      lastSeq: null,
      headHash: GENESIS_HASH,
      problem: {
        seq: firstSeq,
        kind: 'pruned_without_checkpoint',
        message: `the log starts at seq ${firstSeq}, but no retention checkpoint records rows 1–${firstSeq - 1} as pruned: they were deleted`,
      },
    };
  }

  /** Checks the next row: the failed result when it breaks the chain, else undefined. */
  step(row: AuditRow): VerifyResult | undefined {
    const problem = checkRow(row, this.expectedSeq, this.prevHash);
    if (problem)
      return {
        ok: false,
        rows: this.rows,
        firstSeq: this.firstSeq,
        lastSeq: this.lastSeq,
        headHash: this.prevHash,
        checkpoint: this.checkpoint,
        problem,
      };
    this.rows++;
    this.lastSeq = row.seq;
    this.prevHash = row.hash;
    this.expectedSeq = row.seq + 1;
    return undefined;
  }

  result(): VerifyResult {
    return {
      ok: true,
      rows: this.rows,
      firstSeq: this.firstSeq,
      lastSeq: this.lastSeq,
      headHash: this.prevHash,
      checkpoint: this.checkpoint,
    };
  }
}

function checkRow(row: AuditRow, expectedSeq: number, prevHash: string): ChainBreak | undefined {
  const label = `row seq ${row.seq} (decision_id ${row.decision_id}, ${row.ts})`;
  if (row.seq > expectedSeq) {
    const missing = row.seq - 1 === expectedSeq ? `row ${expectedSeq} is` : `rows ${expectedSeq}–${row.seq - 1} are`;
    return { seq: row.seq, kind: 'missing', message: `${missing} missing before ${label}: deleted` };
  }
  if (row.prev_hash !== prevHash) {
    return {
      seq: row.seq,
      kind: 'reordered',
      message: `${label} does not follow the row before it (prev_hash ${short(row.prev_hash)}, expected ${short(prevHash)}): a row was inserted, replaced or moved`,
    };
  }
  if (auditRowHash(row.prev_hash, row.seq, row) !== row.hash) {
    return { seq: row.seq, kind: 'edited', message: `${label} was edited: its hash does not match its content` };
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

/** verifyAuditChain over an asynchronous source: the same walk, the same answers. */
export async function verifyAuditChainFrom(source: AuditChainSource): Promise<VerifyResult> {
  const first = await source.first();
  if (!first) return empty();
  const checkpoints = first.seq === 1 ? [] : await source.checkpoints();
  const walk = ChainWalk.begin(first.seq, () => checkpoints);
  if (!(walk instanceof ChainWalk)) return walk;
  for await (const row of source.rows()) {
    const broken = walk.step(row);
    if (broken) return broken;
  }
  return walk.result();
}
