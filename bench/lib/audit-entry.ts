// The audit row the store benchmarks append: one allowed `git status`, numbered, as a rule decided it.
import type { AuditEntry } from '../../src/store/types.ts';

/** Row `i`, now (or with `fields` over it). */
export function benchAuditEntry(i: number, fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    ts: new Date().toISOString(),
    decision_id: `bench-${i}`,
    agent_id: 'bench',
    session_id: 's',
    tool: 'bash',
    args: JSON.stringify({ command: `git status --short ${i}` }),
    decision: 'allow',
    risk: null,
    source: 'rule',
    reason: 'allowed by rule bash(git status *)',
    rule_id: 'r1',
    approval_id: null,
    mode: 'default',
    latency_us: 120,
    resolved_by: null,
    findings: '[]',
    ...fields,
  };
}
