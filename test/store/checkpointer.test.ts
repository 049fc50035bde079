// Checkpoints leave the event loop: a worker copies the write-ahead log back, and the connection takes over if it dies.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { AuditWriter } from '../../src/store/audit-writer.ts';
import { startCheckpointer } from '../../src/store/checkpointer.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import type { AuditEntry } from '../../src/store/types.ts';
import { auditEntry } from '../support/audit-rows.ts';

/** A row with a 400-byte command: a handful fill a page. */
const entry = (i: number): AuditEntry =>
  auditEntry(i, { args: JSON.stringify({ command: `echo ${'x'.repeat(400)} ${i}` }) });

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

/** The log's restart count: SQLite's write-ahead log header (bytes 12–15) counts the times it started over. */
function logRestarts(walPath: string): number {
  const fd = openSync(walPath, 'r');
  const header = Buffer.alloc(16);
  readSync(fd, header, 0, 16, 0);
  closeSync(fd);
  return header.readUInt32BE(12);
}

describe('the log starts over under steady load', () => {
  it('commits landing during every checkpoint do not keep the log growing: it restarts and its file stays small', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-ckpt-'));
    const path = join(dir, 'toolgate.db');
    const store = openSqliteStore(path, { checkpointIntervalMs: 50 });
    await store.appendAudit([entry(0)]);
    const restartsBefore = logRestarts(`${path}-wal`);
    // One agent's calls one after another: a commit every turn of the event loop, so one always lands while the
    // worker copies — with nothing held back, the log never finds itself fully copied and grows with every commit.
    const until = Date.now() + 1500;
    let n = 1;
    while (Date.now() < until) await store.appendAudit([entry(n++)]);
    const restarts = logRestarts(`${path}-wal`) - restartsBefore;
    const walBytes = statSync(`${path}-wal`).size;
    await store.close();
    const pagesWritten = n * 4; // at least a table page and three index or sequence pages per one-row commit
    assert.ok(restarts >= 3, `the log started over ${restarts} times in 1.5 s of commits (${n} commits)`);
    assert.ok(
      walBytes < (pagesWritten * 4096) / 4,
      `the log file is ${walBytes} bytes after ${n} commits (every frame kept would be ≥ ${pagesWritten * 4096})`,
    );
    const db = new Database(path, { readonly: true });
    assert.equal(db.prepare('SELECT COUNT(*) FROM audit_log').pluck().get(), n, 'every committed row is there');
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a hold keeps queued rows back until it ends, and an explicit flush still writes them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-ckpt-'));
    const path = join(dir, 't.db');
    const store = openSqliteStore(path, {});
    const writer = new AuditWriter(store.db);
    const count = () => store.db.prepare('SELECT COUNT(*) FROM audit_log').pluck().get();
    let release!: () => void;
    writer.holdUntil(new Promise<void>((resolve) => (release = resolve)));
    let committed = false;
    const first = writer.append([entry(1)]).then(() => (committed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(committed, false, 'held: not written');
    assert.equal(count(), 0);
    release();
    await first;
    assert.equal(count(), 1, 'written once the hold ended');
    assert.equal(writer.commits(), 1);
    writer.holdUntil(new Promise(() => {}));
    const second = writer.append([entry(2)]);
    writer.flush();
    await second;
    assert.equal(count(), 2, 'an explicit flush (verify, prune, close) writes through a hold');
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
