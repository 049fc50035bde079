// The audit log is append-only and tamper-evident: triggers refuse edits, verify names the first bad row, retention keeps verify passing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyAuditChain } from '../../src/store/audit-verify.ts';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite-store.ts';
import type { AuditEntry } from '../../src/store/types.ts';

function entry(i: number, ts = new Date().toISOString()): AuditEntry {
  return {
    ts,
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

async function storeWith(n: number, ts?: (i: number) => string): Promise<SqliteStore> {
  const store = openSqliteStore(':memory:');
  for (let i = 1; i <= n; i++) await store.appendAudit([entry(i, ts?.(i))]);
  return store;
}

/** Drops the triggers, as an attacker holding the file can. */
function dropTriggers(store: SqliteStore): void {
  store.db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete; DROP TRIGGER audit_log_in_order;');
}

describe('audit log tamper evidence', () => {
  it('verifies an untouched chain and reports its head', async () => {
    const store = await storeWith(20);
    const result = verifyAuditChain(store.db);
    assert.equal(result.ok, true);
    assert.equal(result.rows, 20);
    assert.equal(result.lastSeq, 20);
    assert.equal(
      result.headHash,
      (store.db.prepare('SELECT hash FROM audit_log WHERE seq = 20').get() as { hash: string }).hash,
    );
    await store.close();
  });

  it('refuses UPDATE, DELETE and an out-of-order INSERT through triggers', async () => {
    const store = await storeWith(3);
    assert.throws(() => store.db.prepare("UPDATE audit_log SET decision = 'deny' WHERE seq = 2").run(), /append-only/);
    assert.throws(() => store.db.prepare('DELETE FROM audit_log WHERE seq = 2').run(), /append-only/);
    const row = store.db.prepare('SELECT * FROM audit_log WHERE seq = 1').get() as Record<string, unknown>;
    assert.throws(
      () =>
        store.db
          .prepare(
            'INSERT INTO audit_log (seq, ts, decision_id, tool, args, decision, source, reason, findings, prev_hash, hash) VALUES (0, @ts, @decision_id, @tool, @args, @decision, @source, @reason, @findings, @prev_hash, @hash)',
          )
          .run(row),
      /append-only/,
    );
    assert.equal(verifyAuditChain(store.db).ok, true);
    await store.close();
  });

  it('names the edited row', async () => {
    const store = await storeWith(10);
    dropTriggers(store);
    store.db.prepare("UPDATE audit_log SET decision = 'deny' WHERE seq = 7").run();
    const result = verifyAuditChain(store.db);
    assert.equal(result.ok, false);
    assert.equal(result.problem?.seq, 7);
    assert.equal(result.problem?.kind, 'edited');
    assert.match(result.problem!.message, /row seq 7 .* was edited/);
    await store.close();
  });

  it('names the gap a deleted row leaves, and a deleted prefix', async () => {
    const store = await storeWith(10);
    dropTriggers(store);
    store.db.prepare('DELETE FROM audit_log WHERE seq IN (4, 5)').run();
    let result = verifyAuditChain(store.db);
    assert.equal(result.problem?.kind, 'missing');
    assert.equal(result.problem?.seq, 6);
    assert.match(result.problem!.message, /rows 4–5 are missing/);
    store.db.prepare('DELETE FROM audit_log WHERE seq <= 3').run();
    result = verifyAuditChain(store.db);
    assert.equal(result.problem?.kind, 'pruned_without_checkpoint');
    await store.close();
  });

  it('detects a row replaced by one with a valid hash of its own', async () => {
    const store = await storeWith(5);
    dropTriggers(store);
    // Swap rows 2 and 3's contents, keeping each row's own hash consistent with its content but not with the chain.
    const other = await storeWith(5, () => '2020-01-01T00:00:00.000Z');
    const forged = other.db.prepare('SELECT * FROM audit_log WHERE seq = 3').get() as Record<string, unknown>;
    store.db.prepare('DELETE FROM audit_log WHERE seq = 3').run();
    store.db
      .prepare(
        'INSERT INTO audit_log (seq, ts, decision_id, agent_id, session_id, tool, args, decision, risk, source, reason, rule_id, approval_id, mode, latency_us, resolved_by, findings, prev_hash, hash) VALUES (@seq, @ts, @decision_id, @agent_id, @session_id, @tool, @args, @decision, @risk, @source, @reason, @rule_id, @approval_id, @mode, @latency_us, @resolved_by, @findings, @prev_hash, @hash)',
      )
      .run(forged);
    const result = verifyAuditChain(store.db);
    assert.equal(result.problem?.seq, 3);
    assert.equal(result.problem?.kind, 'reordered');
    await other.close();
    await store.close();
  });
});

describe('audit retention', () => {
  const old = (i: number) => new Date(Date.UTC(2024, 0, i)).toISOString();

  it('prunes the old prefix, records a checkpoint, and verify still passes', async () => {
    const store = await storeWith(10, (i) => (i <= 6 ? old(i) : new Date().toISOString()));
    const lastPrunedHash = (store.db.prepare('SELECT hash FROM audit_log WHERE seq = 6').get() as { hash: string })
      .hash;
    const result = await store.pruneAudit(new Date(Date.UTC(2025, 0, 1)).toISOString());
    assert.deepEqual(result, { pruned: 6, throughSeq: 6, checkpointSeq: 11 });
    const seqs = store.db.prepare('SELECT seq FROM audit_log ORDER BY seq').pluck().all();
    assert.deepEqual(seqs, [7, 8, 9, 10, 11]);
    const checkpoint = store.db.prepare('SELECT * FROM audit_log WHERE seq = 11').get() as {
      decision: string;
      source: string;
      args: string;
    };
    assert.equal(checkpoint.decision, 'checkpoint');
    assert.equal(checkpoint.source, 'retention');
    assert.equal(JSON.parse(checkpoint.args).last_pruned_hash, lastPrunedHash);
    const verified = verifyAuditChain(store.db);
    assert.equal(verified.ok, true, verified.problem?.message);
    assert.equal(verified.checkpoint?.pruned_through_seq, 6);
    // Appends continue the chain after the checkpoint; a stray DELETE is still refused.
    await store.appendAudit([entry(99)]);
    assert.equal(verifyAuditChain(store.db).ok, true);
    assert.throws(() => store.db.prepare('DELETE FROM audit_log WHERE seq = 7').run(), /append-only/);
    await store.close();
  });

  it('stops at the first row that is not old, so the kept rows stay one chain', async () => {
    const store = await storeWith(5, (i) => (i === 3 ? new Date().toISOString() : old(i)));
    const result = await store.pruneAudit(new Date(Date.UTC(2025, 0, 1)).toISOString());
    assert.equal(result.throughSeq, 2);
    assert.equal(verifyAuditChain(store.db).ok, true);
    await store.close();
  });

  it('survives pruning twice, and pruning everything (the previous checkpoint included)', async () => {
    const store = await storeWith(4, old);
    await store.pruneAudit(new Date(Date.UTC(2024, 0, 3)).toISOString());
    assert.equal(verifyAuditChain(store.db).ok, true);
    const second = await store.pruneAudit(new Date(Date.now() + 60_000).toISOString());
    assert.equal(second.pruned, 3, 'the two remaining old rows and the first checkpoint');
    const verified = verifyAuditChain(store.db);
    assert.equal(verified.ok, true, verified.problem?.message);
    assert.equal(verified.rows, 1);
    await store.appendAudit([entry(5)]);
    assert.equal(verifyAuditChain(store.db).ok, true);
    await store.close();
  });

  it('does nothing when no row is old enough', async () => {
    const store = await storeWith(3);
    assert.deepEqual(await store.pruneAudit(old(1)), { pruned: 0, throughSeq: null, checkpointSeq: null });
    assert.equal(store.db.prepare('SELECT COUNT(*) FROM audit_log').pluck().get(), 3);
    await store.close();
  });

  it('reports a writable database as ready and a closed one as not', async () => {
    const store = await storeWith(1);
    assert.equal(await store.writeProblem(), undefined);
    await store.close();
    assert.match((await store.writeProblem())!, /closed/);
  });
});

describe('audit retention in batches', () => {
  it('prunes a long prefix batch by batch, each with its checkpoint, and verify passes', async () => {
    const { startAuditPruner } = await import('../../src/service/audit-pruner.ts');
    const store = await storeWith(25, (i) =>
      i <= 20 ? new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString() : new Date().toISOString(),
    );
    const pruner = startAuditPruner(store, { retentionMs: 86_400_000, batchRows: 8 });
    assert.equal(await pruner.runOnce(), 20, 'the 20 old rows, in batches of 8, 8 and 4');
    pruner.stop();
    assert.equal(
      store.db.prepare("SELECT COUNT(*) FROM audit_log WHERE decision = 'checkpoint'").pluck().get(),
      3,
      'one checkpoint per batch',
    );
    assert.equal(store.db.prepare('SELECT MIN(seq) FROM audit_log').pluck().get(), 21);
    const verified = verifyAuditChain(store.db);
    assert.equal(verified.ok, true, verified.problem?.message);
    await store.close();
  });
});
