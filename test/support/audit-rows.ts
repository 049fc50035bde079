// Audit rows and SQLite files for the store's tests and benchmarks: a numbered row, a database file at an older
// schema, and what one-row commits write to the write-ahead log.
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AuditWriter } from '../../src/store/audit-writer.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import type { AuditEntry } from '../../src/store/types.ts';

/** Row `i`: one allowed `git status`, as a rule decided it, now (`fields` over it). */
export function auditEntry(i: number, fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    ts: new Date().toISOString(),
    decision_id: `bench-${i}`,
    agent_id: 'bench',
    session_id: 's',
    tool: 'bash',
    args: JSON.stringify({ command: `git status --short ${i}` }),
    decision: 'allow',
    risk: null,
    source: 'rule',
    reason: 'allowed by rule bash(git status *)',
    rule_id: 'r1',
    approval_id: null,
    mode: 'default',
    latency_us: 120,
    resolved_by: null,
    findings: '[]',
    ...fields,
  };
}

/** A database file as toolgate left it at schema `version` (the first `version` migrations), in WAL mode. */
export function databaseAt(path: string, version: number): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (let v = 0; v < version; v++) db.exec(MIGRATIONS[v]!);
  db.pragma(`user_version = ${version}`);
  return db;
}

/**
 * Pages written to the write-ahead log, and the process's CPU, per commit over `commits` one-row commits of
 * `entry(i)` through the audit writer, with no checkpoint among them (after 500 rows, past the first pages of every
 * tree). The log is a 32-byte header, then a 24-byte frame header before each page.
 */
export async function logPagesPerCommit(
  db: Database.Database,
  path: string,
  commits: number,
  entry: (i: number) => AuditEntry,
): Promise<{ pages: number; cpuUs: number }> {
  db.pragma('wal_autocheckpoint = 0');
  const writer = new AuditWriter(db);
  for (let i = 0; i < 500; i++) await writer.append([entry(i)]);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const logSize = () => statSync(`${path}-wal`).size;
  const start = Math.max(logSize(), 32);
  const cpu = process.cpuUsage();
  for (let i = 500; i < 500 + commits; i++) await writer.append([entry(i)]);
  const used = process.cpuUsage(cpu);
  return { pages: (logSize() - start) / (pageSize + 24) / commits, cpuUs: (used.user + used.system) / commits };
}
