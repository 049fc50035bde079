// The audit log's hash chain: each row's hash covers its content and the previous row's hash.
import { createHash } from 'node:crypto';
import type { AuditEntry } from './types.ts';

/** Columns covered by the hash, in a fixed order (the documented contract). */
export const HASHED_COLUMNS = ['ts', 'decision_id', 'agent_id', 'session_id', 'tool', 'args', 'decision', 'risk', 'source', 'reason', 'rule_id', 'approval_id', 'mode', 'latency_us', 'resolved_by', 'findings'] as const;

/** The hash of the first row's predecessor. */
export const GENESIS_HASH = '0'.repeat(64);

/** sha256 over the previous hash, the row's sequence number and its hashed columns, as hex. */
export function auditRowHash(prevHash: string, seq: number, entry: AuditEntry): string {
  const h = createHash('sha256');
  h.update(prevHash);
  h.update('\u0000');
  h.update(String(seq));
  for (const column of HASHED_COLUMNS) {
    h.update('\u0000');
    const value = entry[column];
    h.update(value === null || value === undefined ? '\u0001' : String(value));
  }
  return h.digest('hex');
}
