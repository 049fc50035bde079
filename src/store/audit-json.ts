// The audit row as JSON consumers see it (API, `toolgate audit --json`): the JSON columns parsed.
import type { AuditEntry, AuditRow } from './types.ts';

/** The contract's columns, in table order (CSV header, documentation). */
export const AUDIT_COLUMNS = [
  'seq',
  'ts',
  'decision_id',
  'agent_id',
  'session_id',
  'tool',
  'args',
  'decision',
  'risk',
  'source',
  'reason',
  'rule_id',
  'approval_id',
  'mode',
  'latency_us',
  'resolved_by',
  'findings',
  'prev_hash',
  'hash',
] as const;

/** A row's values in `AUDIT_COLUMNS` order: what an INSERT over those columns binds. */
export function auditRowValues(
  seq: number,
  entry: AuditEntry,
  prevHash: string,
  hash: string,
): (string | number | null)[] {
  return [
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
    prevHash,
    hash,
  ];
}

/** A row with `args` and `findings` parsed from their JSON text (left as text if they are not JSON). */
export type AuditRowJson = Omit<AuditRow, 'args' | 'findings'> & { args: unknown; findings: unknown[] };

/** Parses the JSON columns of a stored row. */
export function auditRowJson(row: AuditRow): AuditRowJson {
  const findings = parseJson(row.findings);
  return { ...row, args: parseJson(row.args), findings: Array.isArray(findings) ? findings : [] };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
