// The SQLite store: rules in order, the policy version seen across connections, grouped audit commits and the hash chain.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { auditRowHash, GENESIS_HASH } from '../../src/store/audit-hash.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import type { AuditEntry } from '../../src/store/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function entry(i: number): AuditEntry {
  return {
    ts: new Date().toISOString(),
    decision_id: `d${i}`,
    agent_id: 'a',
    session_id: 's',
    tool: 'bash',
    args: JSON.stringify({ command: `echo ${i}` }),
    decision: 'allow',
    risk: null,
    source: 'default',
    reason: 'ok',
    rule_id: null,
    approval_id: null,
    mode: 'default',
    latency_us: 10,
    resolved_by: null,
    findings: '[]',
  };
}

describe('sqlite store', () => {
  it('keeps rules in declaration order and inserts at a position', async () => {
    const store = openSqliteStore(':memory:');
    await store.addRule({ effect: 'allow', pattern: 'bash(git *)' });
    await store.addRule({ effect: 'deny', pattern: 'bash(git push *)' });
    await store.addRule({ effect: 'ask', pattern: 'bash(sudo *)', position: 1 });
    assert.deepEqual(
      (await store.listRules()).map((r) => r.pattern),
      ['bash(sudo *)', 'bash(git *)', 'bash(git push *)'],
    );
    assert.equal((await store.listRules())[0]!.risk, 'medium', 'an ask rule defaults to medium risk');
    await store.close();
  });

  it('bumps the policy version for a change made by another connection, seen from the next turn of the event loop', async () => {
    const path = join(dir, 'version.db');
    const server = openSqliteStore(path);
    const cli = openSqliteStore(path);
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const before = await server.policyVersion();
    const added = await cli.addRule({ effect: 'deny', pattern: 'bash(make *)' });
    await nextTurn();
    assert.ok((await server.policyVersion()) > before);
    assert.equal((await server.listRules())[0]!.id, added.id);
    const mid = await server.policyVersion();
    await cli.removeRule(added.id);
    await nextTurn();
    assert.ok((await server.policyVersion()) > mid);
    // A change through the store itself is seen at once, in the same turn.
    const own = await server.policyVersion();
    await server.addRule({ effect: 'allow', pattern: 'bash(ls *)' });
    assert.ok((await server.policyVersion()) > own);
    const granted = await server.policyVersion();
    await server.addGrant({
      sessionId: 's1',
      pattern: 'bash(make *)',
      approvalId: null,
      createdBy: 'test',
      expiresAt: null,
    });
    assert.ok((await server.policyVersion()) > granted);
    await cli.close();
    await server.close();
  });

  it('commits concurrent audit appends together and chains their hashes', async () => {
    const path = join(dir, 'audit.db');
    const store = openSqliteStore(path);
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.appendAudit([entry(i)])));
    const rows = store.db.prepare('SELECT * FROM audit_log ORDER BY seq').all() as (AuditEntry & {
      seq: number;
      prev_hash: string;
      hash: string;
    })[];
    assert.equal(rows.length, 50);
    let prev = GENESIS_HASH;
    for (const row of rows) {
      assert.equal(row.prev_hash, prev);
      assert.equal(row.hash, auditRowHash(prev, row.seq, row));
      prev = row.hash;
    }
    await store.close();
    const reopened = openSqliteStore(path);
    await reopened.appendAudit([entry(99)]);
    const last = reopened.db.prepare('SELECT prev_hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as {
      prev_hash: string;
    };
    assert.equal(last.prev_hash, prev, 'a restarted writer continues the chain');
    await reopened.close();
  });

  it('filters the audit log', async () => {
    const store = openSqliteStore(':memory:');
    await store.appendAudit([entry(1), { ...entry(2), decision: 'deny', source: 'rule', agent_id: 'b' }, entry(3)]);
    assert.equal((await store.queryAudit({ decision: 'deny' })).length, 1);
    assert.equal((await store.queryAudit({ agentId: 'a' })).length, 2);
    assert.equal((await store.queryAudit({ q: 'echo 3' }))[0]!.decision_id, 'd3');
    const page = await store.queryAudit({ limit: 2 });
    assert.deepEqual(
      page.map((r) => r.decision_id),
      ['d3', 'd2'],
    );
    assert.deepEqual(
      (await store.queryAudit({ cursor: page[1]!.seq })).map((r) => r.decision_id),
      ['d1'],
    );
    await store.close();
  });
});

describe('database file permissions', () => {
  it('the database, its write-ahead log and shared-memory file are 0600, even where the umask would make them 0644', async () => {
    const { statSync, writeFileSync, chmodSync } = await import('node:fs');
    const previous = process.umask(0o022);
    try {
      const path = join(dir, 'modes.db');
      const store = openSqliteStore(path);
      await store.addRule({ effect: 'allow', pattern: 'bash(git *)' });
      for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
      await store.close();
      // A database left 0644 by an older version is tightened when it is opened again.
      const old = join(dir, 'old.db');
      writeFileSync(old, '');
      chmodSync(old, 0o644);
      const reopened = openSqliteStore(old);
      assert.equal(statSync(old).mode & 0o777, 0o600);
      assert.equal(statSync(`${old}-wal`).mode & 0o777, 0o600);
      await reopened.close();
      // Control: the test's own files are 0644 under this umask, so the 0600 above is toolgate's doing.
      const plain = join(dir, 'plain.txt');
      writeFileSync(plain, 'x');
      assert.equal(statSync(plain).mode & 0o777, 0o644);
    } finally {
      process.umask(previous);
    }
  });
});
