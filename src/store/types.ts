// The storage interface: everything toolgate persists, behind methods that may be async (a PostgreSQL store can follow).
import type { Rule } from '../engine/rules/rule.ts';
import type { Decision, DecisionSource, Effect, Finding, Risk } from '../engine/types.ts';
import type { VerifyResult } from './audit-verify.ts';

/** One row of the public `audit_log` table (snake_case names are the documented contract). */
export interface AuditEntry {
  ts: string;
  decision_id: string;
  agent_id: string | null;
  session_id: string | null;
  tool: string;
  /** JSON of the (redacted) arguments. */
  args: string;
  decision:
    | Decision
    | 'approved'
    | 'denied'
    | 'expired'
    | 'cancelled'
    | 'result'
    | 'checkpoint'
    | 'tool_changed'
    | 'tool_accepted';
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
  /**
   * The call's identity for de-duplication: a digest of the UNREDACTED call (tool, canonical arguments, agent and
   * session). Two calls whose redacted text is the same but whose real arguments differ never share an approval.
   */
  dedupeKey: string;
  /** The name of the token that asked (the pending cap counts per token, not per self-declared agent id). */
  token: string | null;
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

/** The caps an open is held to, counted in the database (so they hold across replicas). */
export interface PendingLimits {
  /** Pending approvals per declared agent id. */
  perAgent: number;
  /** Pending approvals per token (the caller's real identity). */
  perToken: number;
  /** Pending approvals in total. */
  total: number;
}

/** What an open-or-join did. */
export type OpenOutcome =
  | { kind: 'opened'; approval: Approval }
  | { kind: 'joined'; approval: Approval }
  | { kind: 'capped'; scope: 'agent' | 'token' | 'total'; limit: number };

/** A change another part (or another replica) made, announced to subscribers. */
export type StoreChange =
  /** An approval was opened or left `pending` (answered, expired, cancelled). */
  | { kind: 'approval'; id: string; status: ApprovalStatus }
  /** Rules or grants changed: recompile the policy. */
  | { kind: 'policy' }
  /**
   * Notifications may have been missed (a reconnect): re-read everything waited on. The subscription is a hint;
   * the database stays the truth.
   */
  | { kind: 'resync' };

/** An MCP gateway's tool as last accepted: its definition's hash, and a changed hash not yet accepted (pinned servers). */
export interface McpToolRecord {
  server: string;
  tool: string;
  hash: string;
  pendingHash: string | null;
  firstSeenAt: string;
  changedAt: string | null;
}

/** The failed-authentication limit the database applies (src/store/auth-failures.ts). */
export interface AuthFailurePolicy {
  /** Failures within `windowMs` that block the address. */
  maxFailures: number;
  windowMs: number;
  /** How long a block lasts. */
  blockMs: number;
}

/** What recording one failed authentication found. */
export interface AuthFailureOutcome {
  /** The address was blocked when this failure arrived: refuse it (429); it was not counted. */
  refused: boolean;
  /** Failures counted in the address's current window (1: this one opened a new window). */
  failures: number;
  /** Until when (epoch ms) the address is blocked; in the past when it is not. */
  blockedUntil: number;
}

/** Everything toolgate persists. */
export interface Store {
  /** Which backend this is (for logs and /readyz). */
  readonly kind: 'sqlite' | 'postgres';
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
  /** Walks the whole hash chain (toolgate audit verify). */
  verifyAudit(): Promise<VerifyResult>;
  /** Prunes up to `maxRows` audit rows older than `cutoff` (ISO time) and appends a checkpoint row (see store/audit-retention.ts). */
  pruneAudit(
    cutoff: string,
    maxRows?: number,
  ): Promise<{ pruned: number; throughSeq: number | null; checkpointSeq: number | null }>;
  /** Undefined when the database accepts writes now, else why not (readiness). */
  writeProblem(): Promise<string | undefined>;
  /** Pending approvals across every agent (the metrics gauge, and how many a shortened list hides). */
  countPendingApprovals(): Promise<number>;

  /**
   * Atomically: returns the pending approval with the same `dedupeKey` (joined), or — when no cap is reached —
   * stores `approval` (opened). Two replicas opening the same call at once get one approval.
   */
  openOrJoinApproval(approval: Approval, limits: PendingLimits): Promise<OpenOutcome>;
  getApproval(id: string): Promise<Approval | undefined>;
  /**
   * Approvals, newest first; with `status: 'pending'` the NEWEST `limit` pending ones, returned oldest first (the
   * queue's order), so a flood never hides what arrived last.
   */
  listApprovals(filter: { status?: ApprovalStatus; limit?: number }): Promise<Approval[]>;
  /**
   * Resolves a pending approval exactly once (a conditional update: only while it is `pending`); returns the
   * stored approval after the attempt. `changed` is true for the one caller whose answer was stored.
   */
  resolveApproval(id: string, resolution: Resolution): Promise<{ changed: boolean; approval: Approval | undefined }>;

  /**
   * Atomically, in one statement: counts one failed authentication from `address` at `now` (epoch ms) — or, while
   * the address is blocked, refuses it uncounted — and says whether it is blocked now. Every process on the
   * database counts into the same row.
   */
  recordAuthFailure(address: string, policy: AuthFailurePolicy, now: number): Promise<AuthFailureOutcome>;
  /** Until when (epoch ms) `address` is blocked; 0 when it is not blocked at `now`. */
  authBlockedUntil(address: string, now: number): Promise<number>;
  /** Deletes addresses neither blocked nor inside their window, then the oldest beyond `keep`; returns rows deleted. */
  sweepAuthFailures(policy: AuthFailurePolicy, now: number, keep: number): Promise<number>;
  /** Addresses remembered, and of them blocked at `now`. */
  countAuthFailures(now: number): Promise<{ tracked: number; blocked: number }>;

  /** Listens for changes made through any store on the same database (this process or another). */
  subscribe(listener: (change: StoreChange) => void): () => void;
  /** The MCP gateway's tool definitions of one server (store/mcp-tools.ts). */
  mcpTools(server: string): Promise<McpToolRecord[]>;
  /** Inserts or replaces one server's tool definition record. */
  saveMcpTool(record: McpToolRecord): Promise<void>;

  /** Writes what is buffered and closes the database. */
  close(): Promise<void>;
}
