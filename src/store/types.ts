// The storage interface: everything toolgate persists, behind methods that may be async (a PostgreSQL store can follow).
import type { Rule } from '../engine/rules/rule.ts';
import type { Decision, DecisionSource, Effect, Finding, Risk } from '../engine/types.ts';

/** One row of the public `audit_log` table (snake_case names are the documented contract). */
export interface AuditEntry {
  ts: string;
  decision_id: string;
  agent_id: string | null;
  session_id: string | null;
  tool: string;
  /** JSON of the (redacted) arguments. */
  args: string;
  decision: Decision | 'approved' | 'denied' | 'expired' | 'cancelled' | 'result' | 'checkpoint' | 'tool_changed' | 'tool_accepted';
  risk: Risk | null;
  source: DecisionSource | 'agent' | 'result' | 'retention' | 'mcp';
  reason: string;
  rule_id: string | null;
  approval_id: string | null;
  mode: string | null;
  latency_us: number | null;
  resolved_by: string | null;
  /** JSON array of findings. */
  findings: string;
}

/** A stored audit row, with its sequence number and hash chain. */
export interface AuditRow extends AuditEntry {
  seq: number;
  prev_hash: string;
  hash: string;
}

/** A new rule before it has an id and a position. */
export interface NewRule {
  effect: Effect;
  pattern: string;
  risk?: Risk | null;
  scope?: string;
  expiresAt?: string | null;
  note?: string | null;
  createdBy?: string | null;
  /** Insert before the rule at this position (default: append). */
  position?: number;
}

/** A session grant: an allow pattern for one session, made by a reviewer's "allow for this session". */
export interface Grant {
  id: string;
  sessionId: string;
  pattern: string;
  approvalId: string | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string | null;
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'cancelled';
export type ApprovalChoice = 'allow_once' | 'allow_session' | 'allow_always' | 'deny' | 'deny_with_feedback';

/** A pending or answered approval. */
export interface Approval {
  id: string;
  status: ApprovalStatus;
  decisionId: string;
  agentId: string | null;
  sessionId: string | null;
  tool: string;
  /** The call's (redacted) arguments. */
  args: unknown;
  cwd: string | null;
  toolCallId: string | null;
  dedupeKey: string;
  reason: string;
  risk: Risk;
  source: DecisionSource;
  findings: Finding[];
  suggestedPattern: string | null;
  createdAt: string;
  expiresAt: string;
  resolvedAt: string | null;
  choice: ApprovalChoice | null;
  feedback: string | null;
  modifiedArgs: unknown;
  resolvedBy: string | null;
  rulePattern: string | null;
}

/** The answer that resolves an approval. */
export interface Resolution {
  status: Exclude<ApprovalStatus, 'pending'>;
  choice: ApprovalChoice | null;
  feedback: string | null;
  modifiedArgs: unknown;
  resolvedBy: string | null;
  rulePattern: string | null;
  resolvedAt: string;
}

/** Filters of the audit query. */
export interface AuditQuery {
  since?: string;
  until?: string;
  decision?: string;
  source?: string;
  tool?: string;
  agentId?: string;
  sessionId?: string;
  approvalId?: string;
  /** Every row of one decision (its verdict, the human's answer, its result). */
  decisionId?: string;
  q?: string;
  /** Return rows with seq below this (cursor pagination, newest first) or above it with `ascending`. */
  cursor?: number;
  ascending?: boolean;
  limit?: number;
}

/** An MCP gateway's tool as last accepted: its definition's hash, and a changed hash not yet accepted (pinned servers). */
export interface McpToolRecord {
  server: string;
  tool: string;
  hash: string;
  pendingHash: string | null;
  firstSeenAt: string;
  changedAt: string | null;
}

/** Everything toolgate persists. */
export interface Store {
  /** Monotonic counter bumped by every change to rules or grants (by any process). */
  policyVersion(): Promise<number>;
  listRules(): Promise<Rule[]>;
  addRule(rule: NewRule): Promise<Rule>;
  removeRule(id: string): Promise<boolean>;

  listGrants(sessionId?: string): Promise<Grant[]>;
  addGrant(grant: Omit<Grant, 'id' | 'createdAt'>): Promise<Grant>;
  removeGrant(id: string): Promise<boolean>;

  /** Appends audit rows; resolves once they are committed (grouped with concurrent appends). */
  appendAudit(entries: AuditEntry[]): Promise<void>;
  queryAudit(query: AuditQuery): Promise<AuditRow[]>;
  /** Prunes up to `maxRows` audit rows older than `cutoff` (ISO time) and appends a checkpoint row (see store/audit-retention.ts). */
  pruneAudit(cutoff: string, maxRows?: number): Promise<{ pruned: number; throughSeq: number | null; checkpointSeq: number | null }>;
  /** Undefined when the database accepts writes now, else why not (readiness). */
  writeProblem(): Promise<string | undefined>;
  /** Pending approvals across every agent (the metrics gauge). */
  countPendingApprovals(): Promise<number>;

  createApproval(approval: Approval): Promise<void>;
  getApproval(id: string): Promise<Approval | undefined>;
  findPendingApproval(dedupeKey: string, toolCallId: string | null): Promise<Approval | undefined>;
  listApprovals(filter: { status?: ApprovalStatus; limit?: number }): Promise<Approval[]>;
  countPendingForAgent(agentId: string | null): Promise<number>;
  /** Resolves a pending approval; returns the stored approval after the attempt (first answer wins). */
  resolveApproval(id: string, resolution: Resolution): Promise<{ changed: boolean; approval: Approval | undefined }>;

  /** The MCP gateway's tool definitions of one server (store/mcp-tools.ts). */
  mcpTools(server: string): Promise<McpToolRecord[]>;
  /** Inserts or replaces one server's tool definition record. */
  saveMcpTool(record: McpToolRecord): Promise<void>;

  /** Writes what is buffered and closes the database. */
  close(): Promise<void>;
}
