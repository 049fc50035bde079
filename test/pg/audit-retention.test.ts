// `--audit-retention` on PostgreSQL: two replicas' pruners at work on one audit log at once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { openPostgresStore } from '../../src/store/postgres-store.ts';
import type { AuditEntry } from '../../src/store/types.ts';
import { destroyClusterAfterAll, freshDatabase, pgSkipReason, sharedCluster } from './support/shared.ts';
import { sleep, startReplica, writeConfig } from './support/replicas.ts';

const skip = pgSkipReason();
if (!skip) destroyClusterAfterAll();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Rows older than the retention: three of a pruner's 10,000-row batches. */
const OLD_ROWS = 25_000;

function entry(id: string, ts: string): AuditEntry {
  return {
    ts,
    decision_id: id,
    agent_id: 'a',
    session_id: 's',
    tool: 'bash',
    args: JSON.stringify({ command: `echo ${id}` }),
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

describe('audit retention on PostgreSQL', { skip }, () => {
  it('two replicas started with audit_retention prune the old prefix together: old rows gone, newer kept, each range checkpointed once, audit verify passes', async () => {
    const cluster = await sharedCluster();
    const url = await freshDatabase('retention');
    const db = new URL(url).pathname.slice(1);
    const store = await openPostgresStore(url, { max: 2 });
    for (let i = 0; i < OLD_ROWS; i += 1000) {
      await store.appendAudit(
        Array.from({ length: 1000 }, (_, k) =>
          entry(`old-${i + k}`, new Date(Date.UTC(2024, 0, 1) + (i + k) * 1000).toISOString()),
        ),
      );
    }
    await store.appendAudit(Array.from({ length: 20 }, (_, k) => entry(`new-${k}`, new Date().toISOString())));
    await store.close();

    const config = writeConfig({ audit_retention: '30d' });
    // Started together: both pruners begin a second after start, on the same prefix.
    const replicas = await Promise.all([
      startReplica('ret-a', url, config.file),
      startReplica('ret-b', url, config.file),
    ]);
    try {
      const count = (where: string) => Number(cluster.psql(`SELECT count(*) FROM audit_log WHERE ${where}`, db).trim());
      const end = Date.now() + 30_000;
      while (count("decision_id LIKE 'old-%'") > 0) {
        if (Date.now() > end)
          throw new Error(
            `old rows left: ${count("decision_id LIKE 'old-%'")}\n${replicas.map((r) => r.log()).join('\n')}`,
          );
        await sleep(100);
      }
      await sleep(300); // a pruner still in its last batch finishes it
      assert.equal(count("decision_id LIKE 'new-%'"), 20, 'the rows inside the retention stay');
      const checkpoints = cluster
        .psql("SELECT args FROM audit_log WHERE decision = 'checkpoint' AND source = 'retention' ORDER BY seq", db)
        .split('\n')
        .filter(Boolean)
        .map((a) => JSON.parse(a) as { pruned_through_seq: number; pruned_rows: number });
      assert.equal(
        checkpoints.reduce((n, c) => n + c.pruned_rows, 0),
        OLD_ROWS,
        'every old row pruned exactly once',
      );
      assert.deepEqual(
        checkpoints.map((c) => c.pruned_through_seq),
        [10_000, 20_000, 25_000],
        'one checkpoint per batch, no range twice',
      );
      const verify = execFileSync(process.execPath, [`${ROOT}/bin/toolgate.js`, 'audit', 'verify', '--database', url], {
        encoding: 'utf8',
      });
      assert.match(verify, /^ok: 23 audit row/);
      // The log is still append-only to everyone else: a stray DELETE or UPDATE is refused by the trigger.
      assert.throws(() => cluster.psql("DELETE FROM audit_log WHERE decision_id = 'new-0'", db), /append-only/);
      assert.throws(
        () => cluster.psql("UPDATE audit_log SET reason = 'x' WHERE decision_id = 'new-0'", db),
        /append-only/,
      );
      assert.equal(count("decision_id = 'new-0'"), 1);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
      config.dispose();
    }
  });
});
