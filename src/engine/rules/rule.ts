// A permission rule as stored, and the parsing of its pattern (`tool`, `tool(spec)`).
import type { Effect, Risk } from '../types.ts';

/** A rule as stored in the database and listed by the API. */
export interface Rule {
  id: string;
  effect: Effect;
  pattern: string;
  /** Risk of an ask rule (default medium); null for allow/deny. */
  risk: Risk | null;
  /** `global`, `agent:<id>` or `session:<id>`. */
  scope: string;
  /** ISO time after which the rule no longer applies, or null. */
  expiresAt: string | null;
  note: string | null;
  createdBy: string | null;
  createdAt: string;
  /** Declaration order within the whole rule list. */
  position: number;
  /** Where the rule came from: `db` (API/CLI) or `settings` (a watched settings file, read-only). */
  origin?: 'db' | 'settings' | 'grant';
}

/** A parsed pattern: the tool part and the optional parenthesised spec. */
export interface ParsedPattern {
  /** Tool name or glob, as written. */
  tool: string;
  /** The text between the parentheses, or undefined for a bare tool name. */
  spec?: string;
}

/** Problems found in a pattern, returned as values so callers can report every one. */
export interface PatternError {
  pattern: string;
  message: string;
}

const PATTERN_RE = /^\s*([A-Za-z0-9_.*?\-:]+)\s*(?:\(([\s\S]*)\))?\s*$/;

/** Parses `tool` or `tool(spec)`; returns an error value when the pattern is malformed. */
export function parsePattern(pattern: string): ParsedPattern | PatternError {
  const m = PATTERN_RE.exec(pattern);
  if (!m) return { pattern, message: 'expected `tool` or `tool(spec)`, e.g. `bash(git *)` or `read_file(src/**)`' };
  const spec = m[2];
  if (spec !== undefined && spec.trim() === '')
    return { pattern, message: 'empty parentheses: write `tool` to match every call, or give a spec' };
  return { tool: m[1]!, spec: spec?.trim() };
}

/** True when parsePattern failed. */
export function isPatternError(value: ParsedPattern | PatternError): value is PatternError {
  return 'message' in value;
}

/** Whether a rule applies to this agent and session at this time. */
export function ruleInScope(
  rule: Pick<Rule, 'scope' | 'expiresAt'>,
  agentId: string | undefined,
  sessionId: string | undefined,
  now: number,
): boolean {
  if (rule.expiresAt && Date.parse(rule.expiresAt) <= now) return false;
  if (rule.scope === 'global') return true;
  if (rule.scope.startsWith('agent:')) return rule.scope.slice(6) === agentId;
  if (rule.scope.startsWith('session:')) return rule.scope.slice(8) === sessionId;
  return false;
}
