// Mapping between the approvals table's rows and the Approval type.
import type { Approval } from './types.ts';

/** A row of the `approvals` table. */
export interface ApprovalRow {
  id: string;
  status: Approval['status'];
  decision_id: string;
  agent_id: string | null;
  session_id: string | null;
  tool: string;
  args: string;
  cwd: string | null;
  tool_call_id: string | null;
  dedupe_key: string;
  token: string | null;
  reason: string;
  risk: Approval['risk'];
  source: Approval['source'];
  findings: string;
  suggested_pattern: string | null;
  created_at: string;
  expires_at: string;
  resolved_at: string | null;
  choice: Approval['choice'];
  feedback: string | null;
  modified_args: string | null;
  resolved_by: string | null;
  rule_pattern: string | null;
}

export function approvalToRow(a: Approval): ApprovalRow {
  return {
    id: a.id,
    status: a.status,
    decision_id: a.decisionId,
    agent_id: a.agentId,
    session_id: a.sessionId,
    tool: a.tool,
    args: JSON.stringify(a.args ?? null),
    cwd: a.cwd,
    tool_call_id: a.toolCallId,
    dedupe_key: a.dedupeKey,
    token: a.token,
    reason: a.reason,
    risk: a.risk,
    source: a.source,
    findings: JSON.stringify(a.findings),
    suggested_pattern: a.suggestedPattern,
    created_at: a.createdAt,
    expires_at: a.expiresAt,
    resolved_at: a.resolvedAt,
    choice: a.choice,
    feedback: a.feedback,
    modified_args: a.modifiedArgs === undefined || a.modifiedArgs === null ? null : JSON.stringify(a.modifiedArgs),
    resolved_by: a.resolvedBy,
    rule_pattern: a.rulePattern,
  };
}

export function approvalFromRow(r: ApprovalRow): Approval {
  return {
    id: r.id,
    status: r.status,
    decisionId: r.decision_id,
    agentId: r.agent_id,
    sessionId: r.session_id,
    tool: r.tool,
    args: JSON.parse(r.args),
    cwd: r.cwd,
    toolCallId: r.tool_call_id,
    dedupeKey: r.dedupe_key,
    token: r.token ?? null,
    reason: r.reason,
    risk: r.risk,
    source: r.source,
    findings: JSON.parse(r.findings),
    suggestedPattern: r.suggested_pattern,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    resolvedAt: r.resolved_at,
    choice: r.choice,
    feedback: r.feedback,
    modifiedArgs: r.modified_args === null ? null : JSON.parse(r.modified_args),
    resolvedBy: r.resolved_by,
    rulePattern: r.rule_pattern,
  };
}
