// The wire form of rules and grants (snake_case, as openapi.yaml).
import type { Rule } from '../engine/rules/rule.ts';
import type { Grant } from '../store/types.ts';
import type { components } from './openapi-types.ts';

export function ruleJson(r: Rule): components['schemas']['Rule'] {
  return {
    id: r.id,
    effect: r.effect,
    pattern: r.pattern,
    risk: r.risk,
    scope: r.scope,
    expires_at: r.expiresAt,
    note: r.note,
    created_by: r.createdBy,
    created_at: r.createdAt,
    position: r.position,
    origin: r.origin ?? 'db',
  };
}

export function grantJson(g: Grant): components['schemas']['Grant'] {
  return {
    id: g.id,
    session_id: g.sessionId,
    pattern: g.pattern,
    approval_id: g.approvalId,
    created_by: g.createdBy,
    created_at: g.createdAt,
    expires_at: g.expiresAt,
  };
}
