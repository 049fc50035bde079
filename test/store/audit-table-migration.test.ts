// Migration 7 rebuilds audit_log without AUTOINCREMENT: every row, seq and hash kept, the guards back, the chain going
// on where it was — and a one-row commit writes one page fewer to the write-ahead log.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type Database from 'better-sqlite3';
import { pruneAuditLog } from '../../src/store/audit-retention.ts';
import { verifyAuditChain } from '../../src/store/audit-verify.ts';
import { AuditWriter } from '../../src/store/audit-writer.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import type { AuditEntry } from '../../src/store/types.ts';
import { auditEntry, databaseAt, logPagesPerCommit } from '../support/audit-rows.ts';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-audit-table-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The migration under test (found by its text, so a migration added before it does not break the test). */
const REBUILD = MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE audit_log_rebuilt'));

/** Row `i` as an agent's call leaves it: a time-ordered decision id, an approval now and then. */
const entry = (i: number, ts = new Date().toISOString()): AuditEntry =>
  auditEntry(i, {
    ts,
    decision_id: `019a0000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    agent_id: 'agent-1',
    session_id: 's-1',
    tool: 'Bash',
    args: JSON.stringify({ command: `git log -n ${i} --oneline src/engine/file-${i}.ts` }),
    approval_id: i % 7 === 0 ? `appr-${i}` : null,
  });

/** A database file at the schema before the rebuild (audit_log with AUTOINCREMENT), as toolgate left it. */
const databaseBefore = (path: string) => databaseAt(path, REBUILD);

const old = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString();
const CUTOFF = new Date(Date.UTC(2025, 0, 1)).toISOString();
const rowsOf = (db: Database.Database) => db.prepare('SELECT * FROM audit_log ORDER BY seq').all();
const sequenceOf = (db: Database.Database) =>
  db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").pluck().get() as number | undefined;
const schemaOf = (db: Database.Database) =>
  db
    .prepare("SELECT type, name FROM sqlite_master WHERE tbl_name = 'audit_log' ORDER BY type, name")
    .all()
    .map((r) => `${(r as { type: string }).type} ${(r as { name: string }).name}`);

describe('the audit table rebuild (migration 7)', () => {
  it('keeps every row, seq and hash; the chain, the guards and retention go on as before', async () => {
    const path = join(dir, 'upgrade.db');
    const before = databaseBefore(path);
    const writer = new AuditWriter(before);
    for (let i = 1; i <= 30; i++) await writer.append([entry(i, i <= 10 ? old(i) : undefined)]);
    // Retention pruned the ten old rows before the upgrade: a checkpoint row at seq 31.
    assert.equal(pruneAuditLog(before, CUTOFF).checkpointSeq, 31);
    for (let i = 32; i <= 36; i++) await writer.append([entry(i)]);
    const rows = rowsOf(before);
    const schema = schemaOf(before);
    assert.equal(sequenceOf(before), 36, 'the old table kept its counter in sqlite_sequence');
    assert.match(
      before.prepare("SELECT sql FROM sqlite_master WHERE name = 'audit_log'").pluck().get() as string,
      /AUTOINCREMENT/,
    );
    before.close();

    const store = openSqliteStore(path);
    const db = store.db;
    assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
    assert.doesNotMatch(
      db.prepare("SELECT sql FROM sqlite_master WHERE name = 'audit_log'").pluck().get() as string,
      /AUTOINCREMENT/,
    );
    assert.equal(sequenceOf(db), undefined, 'no counter row left behind');
    assert.deepEqual(rowsOf(db), rows, 'every row as it was');
    assert.deepEqual(schemaOf(db), schema, 'the same indexes and triggers');
    const verified = verifyAuditChain(db);
    assert.equal(verified.ok, true, verified.problem?.message);
    assert.equal(verified.checkpoint?.pruned_through_seq, 10);
    // The guards are back on the new table.
    assert.throws(() => db.prepare("UPDATE audit_log SET decision = 'deny' WHERE seq = 20").run(), /append-only/);
    assert.throws(() => db.prepare('DELETE FROM audit_log WHERE seq = 20').run(), /append-only/);
    const row = db.prepare('SELECT * FROM audit_log WHERE seq = 20').get() as Record<string, unknown>;
    assert.throws(
      () =>
        db
          .prepare(
            `INSERT INTO audit_log (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
              .map(() => '?')
              .join(', ')})`,
          )
          .run(...Object.values({ ...row, seq: 15 })),
      /append-only/,
    );
    // The chain goes on from its head.
    await store.appendAudit([entry(37)]);
    assert.equal(db.prepare('SELECT MAX(seq) FROM audit_log').pluck().get(), 37);
    assert.equal(verifyAuditChain(db).ok, true);
    await store.close();
  });

  it('pruning every row, twice: each checkpoint takes the next seq, none is used again', async () => {
    const store = openSqliteStore(join(dir, 'prune-all.db'));
    for (let i = 1; i <= 5; i++) await store.appendAudit([entry(i, old(i))]);
    assert.deepEqual(await store.pruneAudit(CUTOFF), { pruned: 5, throughSeq: 5, checkpointSeq: 6 });
    // Everything again, the checkpoint row too: the table is empty inside the prune, and seq 6 is not handed out twice.
    const all = new Date(Date.now() + 60_000).toISOString();
    assert.deepEqual(await store.pruneAudit(all), { pruned: 1, throughSeq: 6, checkpointSeq: 7 });
    await store.appendAudit([entry(8)]);
    assert.deepEqual(store.db.prepare('SELECT seq FROM audit_log ORDER BY seq').pluck().all(), [7, 8]);
    const verified = verifyAuditChain(store.db);
    assert.equal(verified.ok, true, verified.problem?.message);
    await store.close();
  });

  it('a one-row commit writes a page fewer to the write-ahead log than with AUTOINCREMENT', async () => {
    const legacyPath = join(dir, 'pages-before.db');
    const legacy = databaseBefore(legacyPath);
    const withCounter = (await logPagesPerCommit(legacy, legacyPath, 400, entry)).pages;
    legacy.close();
    const nowPath = join(dir, 'pages-now.db');
    const store = openSqliteStore(nowPath);
    const without = (await logPagesPerCommit(store.db, nowPath, 400, entry)).pages;
    await store.close();
    // The table's leaf and the three indexes' (the approval index only now and then), plus a split now and then.
    assert.ok(without < 3.8, `${without.toFixed(2)} pages per commit`);
    assert.ok(
      withCounter - without > 0.9,
      `with AUTOINCREMENT ${withCounter.toFixed(2)}, without ${without.toFixed(2)}`,
    );
  });
});
