// PostgreSQL schema migrations: applied in order at start, under an advisory lock (replicas may start together).
import type { Pool } from 'pg';

/** The advisory lock key the migrations run under ("toolgate" in ASCII, folded into a bigint). */
const MIGRATION_LOCK = 7411_0001;

/** Each entry moves the schema from version i to i+1. Never edit a shipped migration: add one. */
export const PG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
  INSERT INTO meta (key, value) VALUES ('policy_version', 1);

  CREATE TABLE rules (
    id TEXT PRIMARY KEY,
    effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny', 'ask')),
    pattern TEXT NOT NULL,
    risk TEXT CHECK (risk IN ('high', 'medium', 'low')),
    scope TEXT NOT NULL DEFAULT 'global',
    expires_at TEXT,
    note TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    position DOUBLE PRECISION NOT NULL
  );
  CREATE INDEX rules_position ON rules (position);

  CREATE TABLE grants (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    pattern TEXT NOT NULL,
    approval_id TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT
  );
  CREATE INDEX grants_session ON grants (session_id);

  -- Every change to rules or grants bumps the policy version and tells every replica (NOTIFY is sent at commit).
  CREATE FUNCTION toolgate_policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE v BIGINT;
  BEGIN
    UPDATE meta SET value = value + 1 WHERE key = 'policy_version' RETURNING value INTO v;
    PERFORM pg_notify('toolgate', json_build_object('k', 'p', 'v', v)::text);
    RETURN NULL;
  END $$;
  CREATE TRIGGER rules_changed AFTER INSERT OR UPDATE OR DELETE ON rules FOR EACH STATEMENT EXECUTE FUNCTION toolgate_policy_changed();
  CREATE TRIGGER grants_changed AFTER INSERT OR UPDATE OR DELETE ON grants FOR EACH STATEMENT EXECUTE FUNCTION toolgate_policy_changed();

  CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'cancelled')),
    decision_id TEXT NOT NULL,
    agent_id TEXT,
    session_id TEXT,
    tool TEXT NOT NULL,
    args TEXT NOT NULL,
    cwd TEXT,
    tool_call_id TEXT,
    dedupe_key TEXT NOT NULL,
    token TEXT,
    reason TEXT NOT NULL,
    risk TEXT NOT NULL,
    source TEXT NOT NULL,
    findings TEXT NOT NULL,
    suggested_pattern TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    resolved_at TEXT,
    choice TEXT,
    feedback TEXT,
    modified_args TEXT,
    resolved_by TEXT,
    rule_pattern TEXT
  );
  CREATE INDEX approvals_status_created ON approvals (status, created_at);
  -- One pending approval per call, whichever replica opens it.
  CREATE UNIQUE INDEX approvals_pending_key ON approvals (dedupe_key) WHERE status = 'pending';
  CREATE INDEX approvals_pending_token ON approvals (token) WHERE status = 'pending';
  CREATE INDEX approvals_pending_agent ON approvals (agent_id) WHERE status = 'pending';

  -- Open-or-join in one statement: under a lock (so the caps are counted exactly across replicas), join the
  -- pending approval with the same digest, or refuse at a cap, or insert and tell every replica.
  CREATE FUNCTION toolgate_open_approval(a JSONB, per_agent INT, per_token INT, max_total INT, origin TEXT) RETURNS JSONB LANGUAGE plpgsql AS $$
  DECLARE existing approvals; n_agent INT; n_token INT; n_total INT;
  BEGIN
    PERFORM pg_advisory_xact_lock(74110002);
    SELECT * INTO existing FROM approvals WHERE status = 'pending' AND dedupe_key = a->>'dedupe_key' LIMIT 1;
    IF FOUND THEN RETURN jsonb_build_object('kind', 'joined', 'row', to_jsonb(existing)); END IF;
    SELECT count(*) FILTER (WHERE agent_id IS NOT DISTINCT FROM a->>'agent_id'),
           count(*) FILTER (WHERE token IS NOT DISTINCT FROM a->>'token'),
           count(*)
      INTO n_agent, n_token, n_total FROM approvals WHERE status = 'pending';
    IF n_agent >= per_agent THEN RETURN jsonb_build_object('kind', 'capped', 'scope', 'agent', 'limit', per_agent); END IF;
    IF a->>'token' IS NOT NULL AND n_token >= per_token THEN RETURN jsonb_build_object('kind', 'capped', 'scope', 'token', 'limit', per_token); END IF;
    IF n_total >= max_total THEN RETURN jsonb_build_object('kind', 'capped', 'scope', 'total', 'limit', max_total); END IF;
    INSERT INTO approvals SELECT * FROM jsonb_populate_record(NULL::approvals, a);
    PERFORM pg_notify('toolgate', json_build_object('k', 'a', 'id', a->>'id', 's', 'pending', 'o', origin)::text);
    RETURN jsonb_build_object('kind', 'opened');
  END $$;

  CREATE TABLE audit_log (
    seq BIGINT PRIMARY KEY,
    ts TEXT NOT NULL,
    decision_id TEXT NOT NULL,
    agent_id TEXT,
    session_id TEXT,
    tool TEXT NOT NULL,
    args TEXT NOT NULL,
    decision TEXT NOT NULL,
    risk TEXT,
    source TEXT NOT NULL,
    reason TEXT NOT NULL,
    rule_id TEXT,
    approval_id TEXT,
    mode TEXT,
    latency_us BIGINT,
    resolved_by TEXT,
    findings TEXT NOT NULL DEFAULT '[]',
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
  );
  CREATE INDEX audit_ts ON audit_log (ts);
  CREATE INDEX audit_decision_id ON audit_log (decision_id);
  CREATE INDEX audit_approval ON audit_log (approval_id) WHERE approval_id IS NOT NULL;
  -- The chain's head: every replica's batch locks it (FOR UPDATE), so one chain runs through all of them.
  CREATE TABLE audit_head (id INT PRIMARY KEY CHECK (id = 1), seq BIGINT NOT NULL, hash TEXT NOT NULL);
  INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, '${'0'.repeat(64)}');
  CREATE FUNCTION toolgate_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION 'audit_log is append-only: rows cannot be changed or deleted'; END $$;
  CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION toolgate_audit_append_only();
  `,
  // 2: the MCP gateway's tool definitions (src/store/mcp-tools.ts has SQLite's): the accepted hash per server and tool,
  // and a changed hash that a pinned gateway refuses until a reviewer accepts it.
  `
  CREATE TABLE mcp_tools (
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    hash TEXT NOT NULL,
    pending_hash TEXT,
    first_seen_at TEXT NOT NULL,
    changed_at TEXT,
    PRIMARY KEY (server, tool)
  );
  `,
  // 3: failed authentications per client address (src/store/auth-failures.ts): the rate limiter's counts, shared by
  // every replica, so bad tokens spread over replicas meet one limit and a block holds everywhere. Epoch milliseconds.
  // UNLOGGED: a bad credential costs no WAL and no fsync (a flood of them must not load the database's disk); the
  // price is that a crash or a failover to a standby forgets the counts, as restarting a replica did before.
  `
  CREATE UNLOGGED TABLE auth_failures (
    address TEXT PRIMARY KEY,
    window_start BIGINT NOT NULL,
    failures INT NOT NULL,
    blocked_until BIGINT NOT NULL,
    refused INT NOT NULL DEFAULT 0
  );
  `,
  // 4: audit retention (src/store/postgres-audit-retention.ts). The audit log stays append-only, except for a DELETE in
  // a transaction that set toolgate.audit_prune locally — the pruner, which appends a checkpoint in that transaction.
  `
  CREATE OR REPLACE FUNCTION toolgate_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE' AND current_setting('toolgate.audit_prune', true) = 'on' THEN RETURN OLD; END IF;
    IF TG_OP = 'DELETE' THEN RAISE EXCEPTION 'audit_log is append-only: only retention (--audit-retention) removes rows'; END IF;
    RAISE EXCEPTION 'audit_log is append-only: rows cannot be changed or deleted';
  END $$;
  `,
];

/** Brings the database to the newest schema; replicas starting at once wait for each other on the lock. */
export async function migratePostgres(pool: Pool): Promise<void> {
  const client = await pool.connect();
  const onError = () => undefined; // the query in flight rejects; the event must not end the process
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS toolgate_schema (version INT NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM toolgate_schema');
    let version = rows[0]?.version ?? 0;
    if (!rows[0]) await client.query('INSERT INTO toolgate_schema (version) VALUES (0)');
    for (; version < PG_MIGRATIONS.length; version++) {
      await client.query(PG_MIGRATIONS[version]!);
      await client.query('UPDATE toolgate_schema SET version = $1', [version + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', onError);
    client.release(true);
  }
}
