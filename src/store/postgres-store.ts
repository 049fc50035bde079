// The PostgreSQL store: one database shared by many toolgate replicas. Changes travel by LISTEN/NOTIFY (a hint:
// after a reconnect every replica re-reads what it waits on), caps and open-or-join are decided in the database.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { mcpToolFromRow, type McpToolRow } from './mcp-tools.ts';
import { grantFromRow, ruleFromRow, type GrantRow, type RuleRow } from './policy-rows.ts';
import { approvalFromRow, approvalToRow, type ApprovalRow } from './approval-row.ts';
import { auditRowHash } from './audit-hash.ts';
import { AUDIT_COLUMNS, auditRowValues } from './audit-json.ts';
import { postgresAuthFailures } from './auth-failures.ts';
import { CHECKPOINT_DECISION } from './audit-retention.ts';
import { pruneAuditPostgres } from './postgres-audit-retention.ts';
import { verifyAuditChainFrom } from './audit-verify.ts';
import { timeOrderedId } from './ids.ts';
import { migratePostgres } from './postgres-migrations.ts';
import type { AuditEntry, AuditQuery, AuditRow, OpenOutcome, Resolution, Store, StoreChange } from './types.ts';

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

/** BIGINT columns (seq, latency_us, counts) as numbers: they stay far below 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

type Pool = pg.Pool;

/** Runs `fn` in a transaction on one pooled connection. */
async function transaction<T>(pool: Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost while checked out reports an error event (the pool only listens on idle ones): the query in
  // flight rejects with it anyway; without a listener the event would end the process.
  const onError = (error: Error) => void (broken = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => void (broken = rollback));
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** Connects, migrates (under an advisory lock) and, for a server, starts listening. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: 'toolgate',
    types: TYPES,
    connectionTimeoutMillis: 5000,
  });
  // An idle connection's error (the server restarted) is not the caller's: the pool drops it and opens another.
  pool.on('error', () => undefined);
  const one = async <R extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<R | undefined> =>
    (await pool.query<R>(text, params)).rows[0];
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const origin = randomUUID();
  const listeners = new Set<(change: StoreChange) => void>();
  const publish = (change: StoreChange) => {
    for (const listener of listeners) listener(change);
  };

  // The policy version lives in memory, moved by NOTIFY (never a SELECT per decision) and by this store's writes.
  const readVersion = async () =>
    Number((await one<{ value: number }>("SELECT value FROM meta WHERE key = 'policy_version'"))!.value);
  let version = await readVersion();
  const seeVersion = (v: number) => {
    if (v > version) {
      version = v;
      publish({ kind: 'policy' });
    }
  };
  const rereadVersion = async () => seeVersion(await readVersion());

  const listener = options.listen
    ? await startListener(
        url,
        (payload) => {
          let message: { k: string; v?: number; id?: string; s?: string; o?: string };
          try {
            message = JSON.parse(payload);
          } catch {
            return;
          }
          if (message.k === 'p' && typeof message.v === 'number') seeVersion(message.v);
          else if (message.k === 'a' && message.o !== origin && typeof message.id === 'string')
            publish({
              kind: 'approval',
              id: message.id,
              status: message.s as Extract<StoreChange, { kind: 'approval' }>['status'],
            });
        },
        async () => {
          // Reconnected: notifications may have been missed. Re-read the policy version and wake everything waiting.
          await rereadVersion().catch(() => undefined);
          publish({ kind: 'resync' });
        },
      )
    : undefined;

  const audit = new PostgresAuditWriter(pool);
  const notifyApproval = (id: string, status: string) => JSON.stringify({ k: 'a', id, s: status, o: origin });

  return {
    kind: 'postgres',
    async policyVersion() {
      return version;
    },
    async listRules() {
      return (await pool.query<RuleRow>('SELECT * FROM rules ORDER BY position')).rows.map(ruleFromRow);
    },
    async addRule(rule) {
      const { row, value } = await transaction(pool, async (tx) => {
        // Positions are assigned one writer at a time (any replica).
        await tx.query('SELECT pg_advisory_xact_lock(74110003)');
        const max = Number(
          (await tx.query<{ max: number }>('SELECT COALESCE(MAX(position), 0) AS max FROM rules')).rows[0]!.max,
        );
        let position = max + 1;
        if (rule.position !== undefined && rule.position < position) {
          position = Math.max(1, rule.position);
          await tx.query('UPDATE rules SET position = position + 1 WHERE position >= $1', [position]);
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
        await tx.query(
          'INSERT INTO rules (id, effect, pattern, risk, scope, expires_at, note, created_by, created_at, position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
          [
            row.id,
            row.effect,
            row.pattern,
            row.risk,
            row.scope,
            row.expires_at,
            row.note,
            row.created_by,
            row.created_at,
            row.position,
          ],
        );
        const value = Number(
          (await tx.query<{ value: number }>("SELECT value FROM meta WHERE key = 'policy_version'")).rows[0]!.value,
        );
        return { row, value };
      });
      seeVersion(value);
      return ruleFromRow(row);
    },
    async removeRule(id) {
      const removed = ((await pool.query('DELETE FROM rules WHERE id = $1', [id])).rowCount ?? 0) > 0;
      if (removed) await rereadVersion();
      return removed;
    },
    async listGrants(sessionId) {
      const { rows } =
        sessionId === undefined
          ? await pool.query<GrantRow>('SELECT * FROM grants ORDER BY created_at')
          : await pool.query<GrantRow>('SELECT * FROM grants WHERE session_id = $1 ORDER BY created_at', [sessionId]);
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
      await pool.query(
        'INSERT INTO grants (id, session_id, pattern, approval_id, created_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [row.id, row.session_id, row.pattern, row.approval_id, row.created_by, row.created_at, row.expires_at],
      );
      await rereadVersion();
      return grantFromRow(row);
    },
    async removeGrant(id) {
      const removed = ((await pool.query('DELETE FROM grants WHERE id = $1', [id])).rowCount ?? 0) > 0;
      if (removed) await rereadVersion();
      return removed;
    },
    appendAudit(entries) {
      return audit.append(entries);
    },
    async queryAudit(query) {
      return queryAudit(pool, query);
    },
    async verifyAudit() {
      await audit.drain();
      return verifyAuditChainFrom({
        first: () =>
          one<{ seq: number; prev_hash: string }>('SELECT seq, prev_hash FROM audit_log ORDER BY seq ASC LIMIT 1'),
        rows: () => auditRows(pool),
        checkpoints: async () =>
          (
            await pool.query<{ args: string }>(
              "SELECT args FROM audit_log WHERE decision = $1 AND source = 'retention' ORDER BY seq DESC",
              [CHECKPOINT_DECISION],
            )
          ).rows.map((r) => r.args),
      });
    },
    async pruneAudit(cutoff, maxRows) {
      return pruneAuditPostgres(pool, cutoff, maxRows);
    },
    async writeProblem() {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          pool.query('SELECT 1'),
          new Promise(
            (_, reject) =>
              (timer = setTimeout(
                () => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)),
                READY_TIMEOUT_MS,
              )),
          ),
        ]);
        if (listener && !listener.listening()) return 'the PostgreSQL listening connection is down (reconnecting)';
        return undefined;
      } catch (error) {
        return `the PostgreSQL database does not answer: ${(error as Error).message}`;
      } finally {
        clearTimeout(timer);
      }
    },
    async countPendingApprovals() {
      return Number((await one<{ n: number }>("SELECT count(*)::int AS n FROM approvals WHERE status = 'pending'"))!.n);
    },
    async openOrJoinApproval(approval, limits): Promise<OpenOutcome> {
      const row = approvalToRow(approval);
      const { result } = (await one<{
        result: { kind: string; row?: ApprovalRow; scope?: 'agent' | 'token' | 'total'; limit?: number };
      }>('SELECT toolgate_open_approval($1::jsonb, $2, $3, $4, $5) AS result', [
        JSON.stringify(row),
        limits.perAgent,
        limits.perToken,
        limits.total,
        origin,
      ]))!;
      if (result.kind === 'joined') return { kind: 'joined', approval: approvalFromRow(result.row!) };
      if (result.kind === 'capped') return { kind: 'capped', scope: result.scope!, limit: result.limit! };
      return { kind: 'opened', approval };
    },
    async getApproval(id) {
      const row = await one<ApprovalRow>('SELECT * FROM approvals WHERE id = $1', [id]);
      return row && approvalFromRow(row);
    },
    async listApprovals(filter) {
      const limit = filter.limit ?? 500;
      if (filter.status === 'pending') {
        const { rows } = await pool.query<ApprovalRow>(
          "SELECT * FROM approvals WHERE status = 'pending' ORDER BY created_at DESC, id DESC LIMIT $1",
          [limit],
        );
        return rows.reverse().map(approvalFromRow);
      }
      const { rows } = filter.status
        ? await pool.query<ApprovalRow>(
            'SELECT * FROM approvals WHERE status = $1 ORDER BY COALESCE(resolved_at, created_at) DESC LIMIT $2',
            [filter.status, limit],
          )
        : await pool.query<ApprovalRow>(
            'SELECT * FROM approvals ORDER BY COALESCE(resolved_at, created_at) DESC LIMIT $1',
            [limit],
          );
      return rows.map(approvalFromRow);
    },
    async resolveApproval(id, resolution: Resolution) {
      const modified =
        resolution.modifiedArgs === undefined || resolution.modifiedArgs === null
          ? null
          : JSON.stringify(resolution.modifiedArgs);
      // Exactly once across replicas: only the update that finds it pending changes it, and only that one notifies.
      const updated = await one<ApprovalRow>(
        `
        WITH u AS (
          UPDATE approvals SET status = $2, choice = $3, feedback = $4, modified_args = $5, resolved_by = $6, rule_pattern = $7, resolved_at = $8
          WHERE id = $1 AND status = 'pending' RETURNING *
        )
        SELECT u.*, pg_notify('${CHANNEL}', $9) FROM u`,
        [
          id,
          resolution.status,
          resolution.choice,
          resolution.feedback,
          modified,
          resolution.resolvedBy,
          resolution.rulePattern,
          resolution.resolvedAt,
          notifyApproval(id, resolution.status),
        ],
      );
      if (updated) return { changed: true, approval: approvalFromRow(updated) };
      const row = await one<ApprovalRow>('SELECT * FROM approvals WHERE id = $1', [id]);
      return { changed: false, approval: row && approvalFromRow(row) };
    },
    ...postgresAuthFailures(pool),
    subscribe(fn) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    async mcpTools(server) {
      return (
        await pool.query<McpToolRow>('SELECT * FROM mcp_tools WHERE server = $1 ORDER BY tool', [server])
      ).rows.map(mcpToolFromRow);
    },
    async saveMcpTool(record) {
      await pool.query(
        `INSERT INTO mcp_tools (server, tool, hash, pending_hash, first_seen_at, changed_at) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, pending_hash = excluded.pending_hash, changed_at = excluded.changed_at`,
        [record.server, record.tool, record.hash, record.pendingHash, record.firstSeenAt, record.changedAt],
      );
    },
    async close() {
      await audit.drain();
      await listener?.close();
      await pool.end();
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
async function startListener(
  url: string,
  onNotify: (payload: string) => void,
  onReconnect: () => Promise<void>,
): Promise<Listener> {
  let closed = false;
  let up = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** One reconnect at a time: a lost connection reports itself both as an error and as its end. */
  const reconnect = (ms: number) => {
    clearTimeout(retry);
    if (!closed) retry = setTimeout(() => void open(false), ms);
  };
  const open = async (first: boolean): Promise<void> => {
    if (closed) return;
    const client = new pg.Client({
      connectionString: url,
      application_name: `toolgate-listen:${process.pid}`,
      connectionTimeoutMillis: 2000,
      keepAlive: true,
    });
    current = client;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (current === client) {
        current = undefined;
        up = false;
      }
      void client.end().catch(() => undefined);
      if (!first) reconnect(0);
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on(
      'notification',
      (message) => message.channel === CHANNEL && message.payload !== undefined && onNotify(message.payload),
    );
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (lost) throw new Error('connection lost while starting to listen');
      up = true;
      first = false;
      if (!lost) await onReconnect();
    } catch (error) {
      lost = true;
      if (current === client) current = undefined;
      void client.end().catch(() => undefined);
      if (first) throw error;
      reconnect(100);
    }
  };
  await open(true);
  return {
    listening: () => up,
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = current;
      current = undefined;
      await client?.end().catch(() => undefined);
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

  constructor(private readonly pool: Pool) {}

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

  /**
   * Two round trips per batch: BEGIN and the head's lock in one, the rows, the new head and COMMIT in the other
   * (the simple protocol carries several statements, so the values travel as escaped literals).
   */
  private async write(batch: Pending[]): Promise<void> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    const onError = (error: Error) => void (broken = error);
    client.on('error', onError);
    try {
      const results = (await client.query(
        'BEGIN; SELECT seq, hash FROM audit_head WHERE id = 1 FOR UPDATE',
      )) as unknown as pg.QueryResult<{ seq: number; hash: string }>[];
      const head = results[1]!.rows[0]!;
      let seq = Number(head.seq);
      let prev = head.hash;
      const tuples: string[] = [];
      const literal = (value: string | number | null | undefined) =>
        value === null || value === undefined
          ? 'NULL'
          : typeof value === 'number'
            ? String(Math.trunc(value))
            : client.escapeLiteral(value);
      for (const p of batch) {
        for (const raw of p.entries) {
          const entry = withoutNul(raw);
          seq += 1;
          const hash = auditRowHash(prev, seq, entry);
          tuples.push(`(${auditRowValues(seq, entry, prev, hash).map(literal).join(', ')})`);
          prev = hash;
        }
      }
      if (tuples.length === 0) {
        await client.query('COMMIT');
        return;
      }
      await client.query(
        `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}; UPDATE audit_head SET seq = ${seq}, hash = ${client.escapeLiteral(prev)} WHERE id = 1; COMMIT`,
      );
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => void (broken = rollback));
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}

/**
 * PostgreSQL text cannot hold U+0000: such a character (in a reason quoting a command, say) is stored as U+FFFD,
 * and the row is hashed as stored, so `audit verify` agrees.
 */
function withoutNul(entry: AuditEntry): AuditEntry {
  let copy: AuditEntry | undefined;
  for (const [key, value] of Object.entries(entry)) {
    if (typeof value === 'string' && value.includes('\u0000'))
      (copy ??= { ...entry })[key as 'reason'] = value.replaceAll('\u0000', '\uFFFD');
  }
  return copy ?? entry;
}

/** Every audit row in seq order, a page at a time (memory stays flat on a large log). */
async function* auditRows(pool: Pool): AsyncIterable<AuditRow> {
  let after = -1;
  for (;;) {
    const page = (
      await pool.query<AuditRow>('SELECT * FROM audit_log WHERE seq > $1 ORDER BY seq ASC LIMIT 5000', [after])
    ).rows;
    for (const row of page) yield row;
    if (page.length < 5000) return;
    after = page[page.length - 1]!.seq;
  }
}

async function queryAudit(pool: Pool, query: AuditQuery): Promise<AuditRow[]> {
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
  return (await pool.query<AuditRow>(text, params)).rows;
}
