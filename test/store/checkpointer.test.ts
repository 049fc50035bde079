// Checkpoints leave the event loop: a worker copies the write-ahead log back, and the connection takes over if it dies.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startCheckpointer } from '../../src/store/checkpointer.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import type { AuditEntry } from '../../src/store/types.ts';

function entry(i: number): AuditEntry {
  return {
    ts: new Date().toISOString(),
    decision_id: `id-${i}`,
    agent_id: 'a',
    session_id: 's',
    tool: 'bash',
    args: JSON.stringify({ command: `echo ${'x'.repeat(400)} ${i}` }),
    decision: 'allow',
    risk: null,
    source: 'default',
    reason: 'r',
    rule_id: null,
    approval_id: null,
    mode: 'default',
    latency_us: 1,
    resolved_by: null,
    findings: '[]',
  };
}

describe('background WAL checkpoints', () => {
  it("the server's store does not checkpoint in its commits; the worker copies the whole log back, and nothing is lost", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-ckpt-'));
    const path = join(dir, 'toolgate.db');
    const store = openSqliteStore(path, { checkpointIntervalMs: 60_000 });
    assert.equal(
      store.db.pragma('wal_autocheckpoint', { simple: true }),
      0,
      'the connection leaves checkpoints to the worker',
    );
    for (let i = 0; i < 8000; i += 100) await store.appendAudit(Array.from({ length: 100 }, (_, j) => entry(i + j)));
    const walBefore = statSync(`${path}-wal`).size;
    assert.ok(
      walBefore > 2 * 1000 * 4120,
      `the log grew past SQLite's automatic threshold (${walBefore} bytes) without a checkpoint in a commit`,
    );
    await store.close();
    const db = new Database(path, { readonly: true });
    assert.equal(db.prepare('SELECT COUNT(*) FROM audit_log').pluck().get(), 8000);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checkpoints from the worker, and hands checkpoints back to the connection if the worker dies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-ckpt-'));
    const path = join(dir, 't.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 2000; i++) insert.run('y'.repeat(500));
    const checkpointer = startCheckpointer(db, path, 60_000);
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
    const done = await checkpointer.checkpointNow();
    assert.equal(done.busy, 0);
    assert.ok(done.log > 0 && done.checkpointed === done.log, `copied ${done.checkpointed} of ${done.log} frames`);
    await checkpointer.close();
    assert.equal(
      db.pragma('wal_autocheckpoint', { simple: true }),
      1000,
      'closed: the connection checkpoints by itself again',
    );
    await assert.rejects(checkpointer.checkpointNow(), /closed/);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
