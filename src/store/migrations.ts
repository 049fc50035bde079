// Schema migrations, applied in order and tracked by PRAGMA user_version.
import type Database from 'better-sqlite3';

/** A stored shell rule `tool(spec)` whose spec has no `*`: its meaning changed in migration 3. */
const OLD_MEANING = `instr(pattern, '(') > 0 AND substr(rtrim(pattern), -1) = ')' AND instr(pattern, '*') = 0
    AND lower(trim(substr(pattern, 1, instr(pattern, '(') - 1))) IN ('bash', 'shell', 'run_shell_command', 'exec_command',
      'local_shell', 'container.exec', 'unified_exec', 'bashoutput', 'execute_command', 'run_command', 'start_process',
      'run_terminal_cmd', 'run_in_terminal')`;

/** The audit log's columns after `seq` (migration 1; migration 7 rebuilds the table with them). */
const AUDIT_ROW_COLUMNS = `    ts TEXT NOT NULL,
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
    latency_us INTEGER,
    resolved_by TEXT,
    findings TEXT NOT NULL DEFAULT '[]',
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL`;

/** The audit log's indexes (migration 1, again in 7): each is one more B-tree page written by every commit. */
const AUDIT_INDEXES = `  CREATE INDEX audit_ts ON audit_log (ts);
  CREATE INDEX audit_decision_id ON audit_log (decision_id);
  CREATE INDEX audit_approval ON audit_log (approval_id) WHERE approval_id IS NOT NULL;`;

/** The audit log's guards (migration 2, again in 7). */
const AUDIT_TRIGGERS = `  CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be changed'); END;
  CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'audit_prune_in_progress')
  BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: only retention (--audit-retention) removes rows'); END;
  CREATE TRIGGER audit_log_in_order BEFORE INSERT ON audit_log
  WHEN NEW.seq IS NOT NULL AND NEW.seq <= (SELECT MAX(seq) FROM audit_log)
  BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: a new row needs a higher seq than every existing row'); END;`;

/** Each entry moves the schema from version i to i+1. Never edit a shipped migration: add one. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
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
    position REAL NOT NULL
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

  CREATE TRIGGER rules_version_insert AFTER INSERT ON rules BEGIN UPDATE meta SET value = value + 1 WHERE key = 'policy_version'; END;
  CREATE TRIGGER rules_version_update AFTER UPDATE ON rules BEGIN UPDATE meta SET value = value + 1 WHERE key = 'policy_version'; END;
  CREATE TRIGGER rules_version_delete AFTER DELETE ON rules BEGIN UPDATE meta SET value = value + 1 WHERE key = 'policy_version'; END;
  CREATE TRIGGER grants_version_insert AFTER INSERT ON grants BEGIN UPDATE meta SET value = value + 1 WHERE key = 'policy_version'; END;
  CREATE TRIGGER grants_version_delete AFTER DELETE ON grants BEGIN UPDATE meta SET value = value + 1 WHERE key = 'policy_version'; END;

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
  CREATE INDEX approvals_pending ON approvals (status, created_at);
  CREATE INDEX approvals_dedupe ON approvals (dedupe_key) WHERE status = 'pending';
  CREATE INDEX approvals_tool_call ON approvals (tool_call_id) WHERE status = 'pending';

  CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
${AUDIT_ROW_COLUMNS}
  );
${AUDIT_INDEXES}
  `,
  // 2: the audit log is append-only (see src/store/audit-retention.ts). Triggers stop accidental UPDATE/DELETE and
  // out-of-order inserts; only retention deletes, while it holds the meta flag inside its own transaction.
  `
${AUDIT_TRIGGERS}
  `,
  // 3: shell rule specs without a wildcard became exact commands (docs/rules.md "Rule semantics"); before, `bash(X)`
  // matched the words X anywhere in a command. A saved deny or ask rule keeps its reach over X's arguments as
  // `bash(X *)` (narrowing a deny would open what it closed); a saved allow rule becomes narrower by itself (safe), and
  // is flagged in its note. The shell tool names are the built-in aliases (src/engine/catalog/tool-aliases.ts).
  `
  UPDATE rules SET
    note = COALESCE(note || ' · ', '') || 'was ' || pattern || ' (words anywhere); rewritten for exact shell specs, see docs/rules.md',
    pattern = substr(rtrim(pattern), 1, length(rtrim(pattern)) - 1) || ' *)'
  WHERE effect IN ('deny', 'ask') AND ${OLD_MEANING};
  UPDATE rules SET
    note = COALESCE(note || ' · ', '') || 'now matches this exact command only (it matched these words anywhere); add a rule with " *" for its arguments, see docs/rules.md'
  WHERE effect = 'allow' AND ${OLD_MEANING};
  `,
  // 4: the token that opened an approval (the pending cap counts per token, not per declared agent id), and the
  // pending approvals per token and per agent found by index (the caps are counted on every open).
  `
  ALTER TABLE approvals ADD COLUMN token TEXT;
  CREATE INDEX approvals_pending_token ON approvals (token) WHERE status = 'pending';
  CREATE INDEX approvals_pending_agent ON approvals (agent_id) WHERE status = 'pending';
  `,
  // 5: the MCP gateway's tool definitions (src/store/mcp-tools.ts): the accepted hash per server and tool, and a
  // changed hash that a pinned gateway refuses until a reviewer accepts it.
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
  // 6: failed authentications per client address (src/store/auth-failures.ts): the rate limiter's counts, kept in the
  // database like PostgreSQL's, so every process on the file counts together. Times are epoch milliseconds.
  `
  CREATE TABLE auth_failures (
    address TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    blocked_until INTEGER NOT NULL,
    refused INTEGER NOT NULL DEFAULT 0
  );
  `,
  // 7: audit_log without AUTOINCREMENT. Every row's seq is set by its writer (the chain head's + 1, under the write
  // lock: audit-writer.ts, audit-retention.ts), so AUTOINCREMENT only made each commit write sqlite_sequence's page
  // too: 4.6 pages per one-row commit in the log against 3.6 without it, 23.8 against 21.0 CPU µs per commit
  // (bench/wal-pages.ts). SQLite cannot drop it in place: the table is rebuilt, rows, seqs and hashes as they were
  // (dropping the old table drops its sqlite_sequence row).
  `
  CREATE TABLE audit_log_rebuilt (
    seq INTEGER PRIMARY KEY,
${AUDIT_ROW_COLUMNS}
  );
  INSERT INTO audit_log_rebuilt SELECT * FROM audit_log;
  DROP TABLE audit_log;
  ALTER TABLE audit_log_rebuilt RENAME TO audit_log;
${AUDIT_INDEXES}
${AUDIT_TRIGGERS}
  `,
];

/** Brings the database to the newest schema, each step in its own transaction. */
export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}
