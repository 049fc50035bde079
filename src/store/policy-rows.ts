// Mapping between the rules and grants tables' rows and the Rule and Grant types (the same columns in every store).
import type { Rule } from '../engine/rules/rule.ts';
import type { Grant } from './types.ts';

/** A row of the `rules` table. */
export interface RuleRow {
  id: string;
  effect: Rule['effect'];
  pattern: string;
  risk: Rule['risk'];
  scope: string;
  expires_at: string | null;
  note: string | null;
  created_by: string | null;
  created_at: string;
  position: number;
}

/** A row of the `grants` table. */
export interface GrantRow {
  id: string;
  session_id: string;
  pattern: string;
  approval_id: string | null;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
}

export function ruleFromRow(row: RuleRow): Rule {
  return {
    id: row.id,
    effect: row.effect,
    pattern: row.pattern,
    risk: row.risk,
    scope: row.scope,
    expiresAt: row.expires_at,
    note: row.note,
    createdBy: row.created_by,
    createdAt: row.created_at,
    position: Number(row.position),
    origin: 'db',
  };
}

export function grantFromRow(row: GrantRow): Grant {
  return {
    id: row.id,
    sessionId: row.session_id,
    pattern: row.pattern,
    approvalId: row.approval_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
