// The PostgreSQL store: one database shared by many toolgate replicas. Changes travel by LISTEN/NOTIFY (a hint:
// after a reconnect every replica re-reads what it waits on), caps and open-or-join are decided in the database.
import { randomUUID } from 'node:crypto';
import postgres, { type Sql } from 'postgres';
import type { Rule } from '../engine/rules/rule.ts';
import { approvalFromRow, approvalToRow, type ApprovalRow } from './approval-row.ts';
import { auditRowHash } from './audit-hash.ts';
import { CHECKPOINT_DECISION } from './audit-retention.ts';
import { verifyAuditChainFrom } from './audit-verify.ts';
import { timeOrderedId } from './ids.ts';
import { migratePostgres } from './postgres-migrations.ts';
import type { AuditEntry, AuditQuery, AuditRow, Grant, OpenOutcome, Resolution, Store, StoreChange } from './types.ts';

/** Options of the PostgreSQL store. */
export interface PostgresStoreOptions {
  /** Listen for other replicas' changes (a server); a CLI command does not. */
  listen?: boolean;
  /** Connections in the pool (default 10). */
  max?: number;
}

/** The notification channel. */
const CHANNEL = 'toolgate';
/** How long readiness waits for the database before calling it down. */
const READY_TIMEOUT_MS = 1000;

interface RuleRow {
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

interface GrantRow {
  id: string;
  session_id: string;
  pattern: string;
  approval_id: string | null;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
}

/** BIGINT columns (seq, latency_us) as numbers: they stay far below 2^53. */
const TYPES = { bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } };

/** Connects, migrates (under an advisory lock) and, for a server, starts listening. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const connect = (extra: Partial<postgres.Options<Record<string, postgres.PostgresType>>> = {}) =>
    postgres(url, { max: options.max ?? 10, onnotice: () => {}, types: TYPES, connection: { application_name: 'toolgate' }, connect_timeout: 5, ...extra });
  const sql = connect();
  await migratePostgres(sql);
  const origin = randomUUID();
  const listeners = new Set<(change: StoreChange) => void>();
  const publish = (change: StoreChange) => {
    for (const listener of listeners) listener(change);
  };

  // The policy version lives in memory, moved by NOTIFY (never a SELECT per decision) and by this store's writes.
  let version = Number((await sql<{ value: number }[]>`SELECT value FROM meta WHERE key = 'policy_version'`)[0]!.value);
  const seeVersion = (v: number) => {
    if (v > version) {
      version = v;
      publish({ kind: 'policy' });
    }
  };
  const rereadVersion = async () => seeVersion(Number((await sql<{ value: number }[]>`SELECT value FROM meta WHERE key = 'policy_version'`)[0]!.value));

  const listener = options.listen ? await startListener(connect, (payload) => {
    let message: { k: string; v?: number; id?: string; s?: string; o?: string };
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (message.k === 'p' && typeof message.v === 'number') seeVersion(message.v);
    else if (message.k === 'a' && message.o !== origin && typeof message.id === 'string') publish({ kind: 'approval', id: message.id, status: message.s as Extract<StoreChange, { kind: 'approval' }>['status'] });
  }, async () => {
    // Reconnected: notifications may have been missed. Re-read the policy version and wake everything waiting.
    await rereadVersion().catch(() => undefined);
    publish({ kind: 'resync' });
  }) : undefined;

  const audit = new PostgresAuditWriter(sql);
  const notifyApproval = (id: string, status: string) => JSON.stringify({ k: 'a', id, s: status, o: origin });

  return {
    kind: 'postgres',
    async policyVersion() {
      return version;
    },
    async listRules() {
      return (await sql<RuleRow[]>`SELECT * FROM rules ORDER BY position`).map(ruleFromRow);
    },
    async addRule(rule) {
      const row = await sql.begin(async (tx) => {
        // Positions are assigned one writer at a time (any replica).
        await tx`SELECT pg_advisory_xact_lock(74110003)`;
        const [{ max }] = await tx<{ max: number }[]>`SELECT COALESCE(MAX(position), 0) AS max FROM rules`;
        let position = Number(max) + 1;
        if (rule.position !== undefined && rule.position < position) {
          position = Math.max(1, rule.position);
          await tx`UPDATE rules SET position = position + 1 WHERE position >= ${position}`;
        }
        const row: RuleRow = {
          id: timeOrderedId(), effect: rule.effect, pattern: rule.pattern, risk: rule.effect === 'ask' ? rule.risk ?? 'medium' : rule.risk ?? null,
          scope: rule.scope ?? 'global', expires_at: rule.expiresAt ?? null, note: rule.note ?? null, created_by: rule.createdBy ?? null,
          created_at: new Date().toISOString(), position,
        };
        await tx`INSERT INTO rules ${tx(row)}`;
        const [{ value }] = await tx<{ value: number }[]>`SELECT value FROM meta WHERE key = 'policy_version'`;
        return { row, value: Number(value) };
      });
      seeVersion(row.value);
      return ruleFromRow(row.row);
    },
    async removeRule(id) {
      const [result] = await sql<{ n: number; v: number }[]>`WITH d AS (DELETE FROM rules WHERE id = ${id} RETURNING 1) SELECT (SELECT count(*) FROM d)::int AS n, (SELECT value FROM meta WHERE key = 'policy_version') AS v`;
      // The version read in the same statement predates the trigger's bump: read it again after a delete.
      if (result!.n > 0) await rereadVersion();
      return result!.n > 0;
    },
    async listGrants(sessionId) {
      const rows = sessionId === undefined ? await sql<GrantRow[]>`SELECT * FROM grants ORDER BY created_at` : await sql<GrantRow[]>`SELECT * FROM grants WHERE session_id = ${sessionId} ORDER BY created_at`;
      return rows.map(grantFromRow);
    },
    async addGrant(grant) {
      const row: GrantRow = { id: timeOrderedId(), session_id: grant.sessionId, pattern: grant.pattern, approval_id: grant.approvalId, created_by: grant.createdBy, created_at: new Date().toISOString(), expires_at: grant.expiresAt };
      await sql`INSERT INTO grants ${sql(row)}`;
      await rereadVersion();
      return grantFromRow(row);
    },
    async removeGrant(id) {
      const removed = (await sql`DELETE FROM grants WHERE id = ${id}`).count > 0;
      if (removed) await rereadVersion();
      return removed;
    },
    appendAudit(entries) {
      return audit.append(entries);
    },
    async queryAudit(query) {
      return queryAudit(sql, query);
    },
    async verifyAudit() {
      await audit.drain();
      return verifyAuditChainFrom({
        first: async () => (await sql<{ seq: number; prev_hash: string }[]>`SELECT seq, prev_hash FROM audit_log ORDER BY seq ASC LIMIT 1`)[0],
        rows: () => auditRows(sql),
        checkpoints: async () => (await sql<{ args: string }[]>`SELECT args FROM audit_log WHERE decision = ${CHECKPOINT_DECISION} AND source = 'retention' ORDER BY seq DESC`).map((r) => r.args),
      });
    },
    async pruneAudit() {
      throw new Error('audit retention (--audit-retention) is not supported on the PostgreSQL store yet: prune with a scheduled job of your own');
    },
    async writeProblem() {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([sql`SELECT 1`, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS)))]);
        if (listener && !listener.listening()) return 'the PostgreSQL listening connection is down (reconnecting)';
        return undefined;
      } catch (error) {
        return `the PostgreSQL database does not answer: ${(error as Error).message}`;
      } finally {
        clearTimeout(timer);
      }
    },
    async countPendingApprovals() {
      return Number((await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM approvals WHERE status = 'pending'`)[0]!.n);
    },
    async openOrJoinApproval(approval, limits): Promise<OpenOutcome> {
      const row = approvalToRow(approval);
      const [{ result }] = await sql<{ result: { kind: string; row?: ApprovalRow; scope?: 'agent' | 'token' | 'total'; limit?: number } }[]>`
        SELECT toolgate_open_approval(${sql.json(row as unknown as postgres.JSONValue)}, ${limits.perAgent}, ${limits.perToken}, ${limits.total}, ${origin}) AS result`;
      if (result.kind === 'joined') return { kind: 'joined', approval: approvalFromRow(result.row!) };
      if (result.kind === 'capped') return { kind: 'capped', scope: result.scope!, limit: result.limit! };
      return { kind: 'opened', approval };
    },
    async getApproval(id) {
      const [row] = await sql<ApprovalRow[]>`SELECT * FROM approvals WHERE id = ${id}`;
      return row && approvalFromRow(row);
    },
    async listApprovals(filter) {
      const limit = filter.limit ?? 500;
      if (filter.status === 'pending') {
        const rows = await sql<ApprovalRow[]>`SELECT * FROM approvals WHERE status = 'pending' ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
        return rows.reverse().map(approvalFromRow);
      }
      const rows = filter.status
        ? await sql<ApprovalRow[]>`SELECT * FROM approvals WHERE status = ${filter.status} ORDER BY COALESCE(resolved_at, created_at) DESC LIMIT ${limit}`
        : await sql<ApprovalRow[]>`SELECT * FROM approvals ORDER BY COALESCE(resolved_at, created_at) DESC LIMIT ${limit}`;
      return rows.map(approvalFromRow);
    },
    async resolveApproval(id, resolution: Resolution) {
      const modified = resolution.modifiedArgs === undefined || resolution.modifiedArgs === null ? null : JSON.stringify(resolution.modifiedArgs);
      // Exactly once across replicas: only the update that finds it pending changes it, and only that one notifies.
      const [updated] = await sql<ApprovalRow[]>`
        WITH u AS (
          UPDATE approvals SET status = ${resolution.status}, choice = ${resolution.choice}, feedback = ${resolution.feedback}, modified_args = ${modified},
            resolved_by = ${resolution.resolvedBy}, rule_pattern = ${resolution.rulePattern}, resolved_at = ${resolution.resolvedAt}
          WHERE id = ${id} AND status = 'pending' RETURNING *
        )
        SELECT u.*, pg_notify(${CHANNEL}, ${notifyApproval(id, resolution.status)}) FROM u`;
      if (updated) return { changed: true, approval: approvalFromRow(updated) };
      const [row] = await sql<ApprovalRow[]>`SELECT * FROM approvals WHERE id = ${id}`;
      return { changed: false, approval: row && approvalFromRow(row) };
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    async close() {
      await audit.drain();
      await listener?.close();
      await sql.end({ timeout: 2 });
    },
  };
}

/** The listening connection, re-established (and announced) after every loss until closed. */
interface Listener {
  listening(): boolean;
  close(): Promise<void>;
}

/**
 * LISTENs on a connection of its own. When that connection drops (the database restarted, the backend was
 * terminated) it reconnects at once and then every 100 ms until it succeeds, and calls `onReconnect` so the
 * caller re-reads what it waits on.
 */
async function startListener(connect: (extra?: Partial<postgres.Options<Record<string, postgres.PostgresType>>>) => Sql, onNotify: (payload: string) => void, onReconnect: () => Promise<void>): Promise<Listener> {
  let closed = false;
  let up = false;
  let current: Sql | undefined;
  let retry: NodeJS.Timeout | undefined;
  const open = async (first: boolean): Promise<void> => {
    if (closed) return;
    const sql = connect({
      max: 1, idle_timeout: 0, max_lifetime: null, fetch_types: false, connect_timeout: 2, connection: { application_name: `toolgate-listen:${process.pid}` },
      onnotify: (channel: string, payload: string) => channel === CHANNEL && onNotify(payload),
      onclose: () => {
        if (current !== sql || closed) return;
        up = false;
        current = undefined;
        void sql.end({ timeout: 0 }).catch(() => undefined);
        void open(false);
      },
    } as Partial<postgres.Options<Record<string, postgres.PostgresType>>>);
    current = sql;
    try {
      await sql`LISTEN toolgate`;
      up = true;
      if (!first) await onReconnect();
    } catch (error) {
      if (current === sql) current = undefined;
      void sql.end({ timeout: 0 }).catch(() => undefined);
      if (first) throw error;
      if (!closed) retry = setTimeout(() => void open(false), 100);
    }
  };
  await open(true);
  return {
    listening: () => up,
    async close() {
      closed = true;
      clearTimeout(retry);
      const sql = current;
      current = undefined;
      await sql?.end({ timeout: 1 });
    },
  };
}

interface Pending {
  entries: AuditEntry[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Grouped commits: appends that arrive while a batch is being written wait for the next, which writes them all in
 * one multi-row INSERT in one transaction (synchronous_commit on), and each caller is answered after that commit.
 * The chain's head row is locked per batch, so one hash chain runs through the batches of every replica.
 */
class PostgresAuditWriter {
  private queue: Pending[] = [];
  private writing: Promise<void> | undefined;

  constructor(private readonly sql: Sql) {}

  append(entries: AuditEntry[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entries, resolve, reject });
      if (!this.writing) this.writing = this.run();
    });
  }

  /** Resolves once everything queued now has been written. */
  async drain(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async run(): Promise<void> {
    // Let the appends of this turn of the event loop join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.write(batch);
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    this.writing = undefined;
  }

  private async write(batch: Pending[]): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [head] = await tx<{ seq: number; hash: string }[]>`SELECT seq, hash FROM audit_head WHERE id = 1 FOR UPDATE`;
      let seq = Number(head!.seq);
      let prev = head!.hash;
      const rows: AuditRow[] = [];
      for (const p of batch) {
        for (const entry of p.entries) {
          seq += 1;
          const hash = auditRowHash(prev, seq, entry);
          rows.push({ ...entry, seq, prev_hash: prev, hash });
          prev = hash;
        }
      }
      if (rows.length === 0) return;
      await tx`INSERT INTO audit_log ${tx(rows as never, AUDIT_INSERT_COLUMNS as never)}`;
      await tx`UPDATE audit_head SET seq = ${seq}, hash = ${prev} WHERE id = 1`;
    });
  }
}

const AUDIT_INSERT_COLUMNS = ['seq', 'ts', 'decision_id', 'agent_id', 'session_id', 'tool', 'args', 'decision', 'risk', 'source', 'reason', 'rule_id', 'approval_id', 'mode', 'latency_us', 'resolved_by', 'findings', 'prev_hash', 'hash'] as const;

/** Every audit row in seq order, a page at a time (memory stays flat on a large log). */
async function* auditRows(sql: Sql): AsyncIterable<AuditRow> {
  let after = -1;
  for (;;) {
    const page = await sql<AuditRow[]>`SELECT * FROM audit_log WHERE seq > ${after} ORDER BY seq ASC LIMIT 5000`;
    for (const row of page) yield row;
    if (page.length < 5000) return;
    after = page[page.length - 1]!.seq;
  }
}

async function queryAudit(sql: Sql, query: AuditQuery): Promise<AuditRow[]> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const add = (clause: string, value: string | number) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  const eq = (column: string, value: string | undefined) => value !== undefined && add(`${column} = ?`, value);
  if (query.since) add('ts >= ?', query.since);
  if (query.until) add('ts < ?', query.until);
  eq('decision', query.decision);
  eq('source', query.source);
  eq('tool', query.tool);
  eq('agent_id', query.agentId);
  eq('session_id', query.sessionId);
  eq('approval_id', query.approvalId);
  eq('decision_id', query.decisionId);
  if (query.q) add('strpos(args, ?) > 0', query.q);
  if (query.cursor !== undefined) add(query.ascending ? 'seq > ?' : 'seq < ?', query.cursor);
  params.push(Math.min(Math.max(query.limit ?? 100, 1), 1000));
  const text = `SELECT * FROM audit_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq ${query.ascending ? 'ASC' : 'DESC'} LIMIT $${params.length}`;
  return sql.unsafe<AuditRow[]>(text, params);
}

function ruleFromRow(row: RuleRow): Rule {
  return { id: row.id, effect: row.effect, pattern: row.pattern, risk: row.risk, scope: row.scope, expiresAt: row.expires_at, note: row.note, createdBy: row.created_by, createdAt: row.created_at, position: Number(row.position), origin: 'db' };
}

function grantFromRow(row: GrantRow): Grant {
  return { id: row.id, sessionId: row.session_id, pattern: row.pattern, approvalId: row.approval_id, createdBy: row.created_by, createdAt: row.created_at, expiresAt: row.expires_at };
}
