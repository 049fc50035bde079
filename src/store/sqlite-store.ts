// The SQLite store (better-sqlite3, WAL): the only code that runs SQL. Statements are prepared once.
import { timeOrderedId } from './ids.ts';
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Rule } from '../engine/rules/rule.ts';
import { grantFromRow, ruleFromRow, type GrantRow, type RuleRow } from './policy-rows.ts';
import { approvalFromRow, approvalToRow, type ApprovalRow } from './approval-row.ts';
import { auditWriteProblem } from './audit-ready.ts';
import { sqliteAuthFailures, type AuthFailureMethods } from './auth-failures.ts';
import { pruneAuditLog } from './audit-retention.ts';
import { AuditWriter } from './audit-writer.ts';
import { startCheckpointer } from './checkpointer.ts';
import { mcpToolMethods } from './mcp-tools.ts';
import { migrate } from './migrations.ts';
import { verifyAuditChain } from './audit-verify.ts';
import { ChangeHub } from './change-hub.ts';
import type {
  Approval,
  AuditQuery,
  AuditRow,
  NewRule,
  OpenOutcome,
  PendingLimits,
  Resolution,
  Store,
  StoreChange,
} from './types.ts';

/** Options of the SQLite store. */
export interface SqliteStoreOptions {
  /** Open read-only (e.g. `toolgate check`): no migrations, no writes. */
  readonly?: boolean;
  /**
   * Checkpoint the write-ahead log from a worker thread every this many milliseconds (checkpointer.ts) instead of
   * in the commit that crosses 1000 pages: for the long-running server. Off by default (a CLI command's short
   * session keeps SQLite's automatic checkpoint).
   */
  checkpointIntervalMs?: number;
}

/** The SQLite store, plus the raw handle for the few tools (verify, retention) that need it. */
export interface SqliteStore extends Store {
  readonly db: Database.Database;
}

/** Opens (and migrates) the database at `path`; `:memory:` works for tests. */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  if (!options.readonly && path !== ':memory:') ownerOnly(path);
  const db = new Database(path, { readonly: options.readonly === true });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) migrate(db);
  const audit = options.readonly ? undefined : new AuditWriter(db);
  // A database file written by a long-running process: checkpoints leave the event loop (an in-memory one has no log).
  const checkpointer =
    options.readonly || path === ':memory:' || !options.checkpointIntervalMs
      ? undefined
      : startCheckpointer(db, path, options.checkpointIntervalMs, audit);

  const s = {
    version: db.prepare("SELECT value FROM meta WHERE key = 'policy_version'").pluck(),
    rules: db.prepare('SELECT * FROM rules ORDER BY position'),
    maxPosition: db.prepare('SELECT COALESCE(MAX(position), 0) FROM rules').pluck(),
    insertRule: db.prepare(
      'INSERT INTO rules (id, effect, pattern, risk, scope, expires_at, note, created_by, created_at, position) VALUES (@id, @effect, @pattern, @risk, @scope, @expires_at, @note, @created_by, @created_at, @position)',
    ),
    shiftRules: db.prepare('UPDATE rules SET position = position + 1 WHERE position >= ?'),
    deleteRule: db.prepare('DELETE FROM rules WHERE id = ?'),
    grants: db.prepare('SELECT * FROM grants ORDER BY created_at'),
    grantsOf: db.prepare('SELECT * FROM grants WHERE session_id = ? ORDER BY created_at'),
    insertGrant: db.prepare(
      'INSERT INTO grants (id, session_id, pattern, approval_id, created_by, created_at, expires_at) VALUES (@id, @session_id, @pattern, @approval_id, @created_by, @created_at, @expires_at)',
    ),
    deleteGrant: db.prepare('DELETE FROM grants WHERE id = ?'),
    insertApproval: options.readonly
      ? undefined
      : db.prepare(`INSERT INTO approvals (id, status, decision_id, agent_id, session_id, tool, args, cwd, tool_call_id, dedupe_key, token, reason, risk, source, findings, suggested_pattern, created_at, expires_at, resolved_at, choice, feedback, modified_args, resolved_by, rule_pattern)
      VALUES (@id, @status, @decision_id, @agent_id, @session_id, @tool, @args, @cwd, @tool_call_id, @dedupe_key, @token, @reason, @risk, @source, @findings, @suggested_pattern, @created_at, @expires_at, @resolved_at, @choice, @feedback, @modified_args, @resolved_by, @rule_pattern)`),
    approval: db.prepare('SELECT * FROM approvals WHERE id = ?'),
    pendingByKey: db.prepare(
      "SELECT * FROM approvals WHERE status = 'pending' AND dedupe_key = ? ORDER BY created_at LIMIT 1",
    ),
    pendingTotal: db.prepare("SELECT COUNT(*) FROM approvals WHERE status = 'pending'").pluck(),
    pendingCount: db.prepare("SELECT COUNT(*) FROM approvals WHERE status = 'pending' AND agent_id IS ?").pluck(),
    pendingOfToken: options.readonly
      ? undefined
      : db.prepare("SELECT COUNT(*) FROM approvals WHERE status = 'pending' AND token IS ?").pluck(),
    resolve:
      db.prepare(`UPDATE approvals SET status = @status, choice = @choice, feedback = @feedback, modified_args = @modified_args, resolved_by = @resolved_by, rule_pattern = @rule_pattern, resolved_at = @resolved_at
      WHERE id = @id AND status = 'pending'`),
  } as const;

  const addRuleTx = db.transaction((rule: NewRule): Rule => {
    let position = (s.maxPosition.get() as number) + 1;
    if (rule.position !== undefined && rule.position < position) {
      position = Math.max(1, rule.position);
      s.shiftRules.run(position);
    }
    const row: RuleRow = {
      id: timeOrderedId(),
      effect: rule.effect,
      pattern: rule.pattern,
      risk: rule.effect === 'ask' ? (rule.risk ?? 'medium') : (rule.risk ?? null),
      scope: rule.scope ?? 'global',
      expires_at: rule.expiresAt ?? null,
      note: rule.note ?? null,
      created_by: rule.createdBy ?? null,
      created_at: new Date().toISOString(),
      position,
    };
    s.insertRule.run(row);
    return ruleFromRow(row);
  });

  // Open-or-join under the write lock: the look-up, the cap counts and the insert cannot interleave with another
  // connection's (another process's) open of the same call.
  const openOrJoinTx = db.transaction((approval: Approval, limits: PendingLimits): OpenOutcome => {
    const existing = s.pendingByKey.get(approval.dedupeKey) as ApprovalRow | undefined;
    if (existing) return { kind: 'joined', approval: approvalFromRow(existing) };
    if ((s.pendingCount.get(approval.agentId) as number) >= limits.perAgent)
      return { kind: 'capped', scope: 'agent', limit: limits.perAgent };
    if (approval.token !== null && (s.pendingOfToken!.get(approval.token) as number) >= limits.perToken)
      return { kind: 'capped', scope: 'token', limit: limits.perToken };
    if ((s.pendingTotal.get() as number) >= limits.total)
      return { kind: 'capped', scope: 'total', limit: limits.total };
    s.insertApproval!.run(approvalToRow(approval));
    return { kind: 'opened', approval };
  });

  // Other stores on the same file in this process hear of this one's changes (another process's rule changes show
  // through the policy version, read once per turn below).
  const hub = ChangeHub.for(path);
  const announce = (change: StoreChange) => hub.publish(member, change);
  const member = hub.join();

  // The policy version is read once per turn of the event loop, not once per decision: every request handled in
  // one turn arrived before it began, so another process's rule change is seen from the next turn on. A change
  // made through this store is seen at once (each rule or grant write forgets the memo).
  let versionMemo: number | undefined;
  const forgetVersion = () => void (versionMemo = undefined);
  const policyChanged = <T>(result: T): T => {
    versionMemo = undefined;
    announce({ kind: 'policy' });
    return result;
  };

  return {
    db,
    kind: 'sqlite',
    async policyVersion() {
      if (versionMemo === undefined) {
        versionMemo = s.version.get() as number;
        setImmediate(forgetVersion);
      }
      return versionMemo;
    },
    async listRules() {
      return (s.rules.all() as RuleRow[]).map(ruleFromRow);
    },
    async addRule(rule) {
      return policyChanged(addRuleTx.immediate(rule));
    },
    async removeRule(id) {
      return policyChanged(s.deleteRule.run(id).changes > 0);
    },
    async listGrants(sessionId) {
      const rows = (sessionId === undefined ? s.grants.all() : s.grantsOf.all(sessionId)) as GrantRow[];
      return rows.map(grantFromRow);
    },
    async addGrant(grant) {
      const row: GrantRow = {
        id: timeOrderedId(),
        session_id: grant.sessionId,
        pattern: grant.pattern,
        approval_id: grant.approvalId,
        created_by: grant.createdBy,
        created_at: new Date().toISOString(),
        expires_at: grant.expiresAt,
      };
      s.insertGrant.run(row);
      return policyChanged(grantFromRow(row));
    },
    async removeGrant(id) {
      return policyChanged(s.deleteGrant.run(id).changes > 0);
    },
    appendAudit(entries) {
      if (!audit) return Promise.reject(new Error('the store is read-only'));
      return audit.append(entries);
    },
    async queryAudit(query) {
      return queryAudit(db, query);
    },
    async verifyAudit() {
      audit?.flush();
      return verifyAuditChain(db);
    },
    async pruneAudit(cutoff, maxRows) {
      audit?.flush();
      return pruneAuditLog(db, cutoff, maxRows);
    },
    async writeProblem() {
      return auditWriteProblem(db);
    },
    async countPendingApprovals() {
      return s.pendingTotal.get() as number;
    },
    async openOrJoinApproval(approval, limits) {
      const outcome = openOrJoinTx.immediate(approval, limits);
      if (outcome.kind === 'opened') announce({ kind: 'approval', id: approval.id, status: 'pending' });
      return outcome;
    },
    async getApproval(id) {
      const row = s.approval.get(id) as ApprovalRow | undefined;
      return row && approvalFromRow(row);
    },
    async listApprovals(filter) {
      const where = filter.status ? 'WHERE status = ?' : '';
      // Pending: the newest `limit`, then oldest first (a flood of old asks never hides the newest).
      const order =
        filter.status === 'pending'
          ? 'ORDER BY created_at DESC, id DESC'
          : 'ORDER BY COALESCE(resolved_at, created_at) DESC';
      const rows = db
        .prepare(`SELECT * FROM approvals ${where} ${order} LIMIT ?`)
        .all(...(filter.status ? [filter.status] : []), filter.limit ?? 500) as ApprovalRow[];
      if (filter.status === 'pending') rows.reverse();
      return rows.map(approvalFromRow);
    },
    async resolveApproval(id, resolution: Resolution) {
      const changed =
        s.resolve.run({
          id,
          status: resolution.status,
          choice: resolution.choice,
          feedback: resolution.feedback,
          modified_args:
            resolution.modifiedArgs === undefined || resolution.modifiedArgs === null
              ? null
              : JSON.stringify(resolution.modifiedArgs),
          resolved_by: resolution.resolvedBy,
          rule_pattern: resolution.rulePattern,
          resolved_at: resolution.resolvedAt,
        }).changes > 0;
      const row = s.approval.get(id) as ApprovalRow | undefined;
      if (changed) announce({ kind: 'approval', id, status: resolution.status });
      return { changed, approval: row && approvalFromRow(row) };
    },
    subscribe(listener) {
      return hub.listen(member, listener);
    },
    ...(options.readonly ? readonlyMcpTools : mcpToolMethods(db)),
    ...(options.readonly ? readonlyAuthFailures : sqliteAuthFailures(db)),
    async close() {
      hub.leave(member);
      audit?.flush();
      await checkpointer?.close();
      if (db.open) db.close();
    },
  };
}

/** A read-only store (no migrations ran, the table may be missing) knows no MCP tools and saves none. */
const readonlyMcpTools: Pick<Store, 'mcpTools' | 'saveMcpTool'> = {
  mcpTools: async () => [],
  saveMcpTool: async () => {
    throw new Error('the store is open read-only');
  },
};

/** A read-only store (a CLI command) authenticates nobody: it blocks no one and records nothing. */
const readonlyAuthFailures: AuthFailureMethods = {
  recordAuthFailure: async () => {
    throw new Error('the store is open read-only');
  },
  authBlockedUntil: async () => 0,
  sweepAuthFailures: async () => 0,
  countAuthFailures: async () => ({ tracked: 0, blocked: 0 }),
};

function queryAudit(db: Database.Database, query: AuditQuery): AuditRow[] {
  const where: string[] = [];
  const params: unknown[] = [];
  const eq = (column: string, value: string | undefined) => {
    if (value !== undefined) {
      where.push(`${column} = ?`);
      params.push(value);
    }
  };
  if (query.since) {
    where.push('ts >= ?');
    params.push(query.since);
  }
  if (query.until) {
    where.push('ts < ?');
    params.push(query.until);
  }
  eq('decision', query.decision);
  eq('source', query.source);
  eq('tool', query.tool);
  eq('agent_id', query.agentId);
  eq('session_id', query.sessionId);
  eq('approval_id', query.approvalId);
  eq('decision_id', query.decisionId);
  if (query.q) {
    where.push('instr(args, ?) > 0');
    params.push(query.q);
  }
  if (query.cursor !== undefined) {
    where.push(query.ascending ? 'seq > ?' : 'seq < ?');
    params.push(query.cursor);
  }
  const sql = `SELECT * FROM audit_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq ${query.ascending ? 'ASC' : 'DESC'} LIMIT ?`;
  params.push(Math.min(Math.max(query.limit ?? 100, 1), 1000));
  return db.prepare(sql).all(...params) as AuditRow[];
}

/**
 * Makes the database file readable and writable by its owner only (0600), creating it empty first when missing.
 * SQLite creates the `-wal` and `-shm` files with the database file's permissions, so they follow; ones left by an
 * older version (0644 under the usual umask) are tightened too. The data directory is 0700 already, but a copy of
 * the directory, a bind mount or a widened directory should not expose the audit log and approvals.
 */
function ownerOnly(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      chmodSync(file, 0o600);
    } catch {
      // Absent (no log yet), or not ours to change (a read-only mount): SQLite reports what matters when it opens.
    }
  }
}
