// The wire form of an approval (snake_case, as openapi.yaml's Approval schema).
import { answeredReason } from '../service/decider.ts';
import { approvalDecision } from '../service/approvals.ts';
import type { Approval } from '../store/types.ts';
import type { components } from './openapi-types.ts';

export type ApprovalJson = components['schemas']['Approval'];

/** Serialises an approval for agents and reviewers. */
export function approvalJson(a: Approval): ApprovalJson {
  return {
    id: a.id,
    status: a.status,
    decision: approvalDecision(a),
    choice: a.choice,
    feedback: a.feedback,
    modified_args: a.modifiedArgs ?? null,
    tool: a.tool,
    args: a.args,
    cwd: a.cwd,
    tool_call_id: a.toolCallId,
    decision_id: a.decisionId,
    reason: a.reason,
    answer_reason: answeredReason(a),
    risk: a.risk,
    source: a.source,
    findings: a.findings,
    agent_id: a.agentId,
    session_id: a.sessionId,
    created_at: a.createdAt,
    expires_at: a.expiresAt,
    resolved_at: a.resolvedAt,
    resolved_by: a.resolvedBy,
    suggested_pattern: a.suggestedPattern,
    rule_pattern: a.rulePattern,
  };
}
