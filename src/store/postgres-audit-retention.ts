// Audit retention on PostgreSQL (`--audit-retention`): the oldest prefix of the shared chain pruned in bounded
// batches, each closed by a checkpoint row so `audit verify` still passes — safe with every replica's pruner running.
import type pg from 'pg';
import { auditRowHash } from './audit-hash.ts';
import { AUDIT_COLUMNS, auditRowValues } from './audit-json.ts';
import { checkpointEntry, type PruneResult } from './audit-retention.ts';
import type { AuditEntry } from './types.ts';

/** The advisory lock pruners take, one at a time across replicas (migrations hold 74110001, open-or-join 74110002). */
const PRUNE_LOCK = 7411_0004;

/** The transaction-local setting the delete trigger checks (migration 4); never committed, never seen by another session. */
const PRUNE_SETTING = 'toolgate.audit_prune';

/**
 * Prunes at most `maxRows` rows older than `cutoff` (ISO time) from the start of the chain, stopping at the first row
 * that is not older (the kept rows stay one unbroken chain), and appends a checkpoint row naming the last pruned
 * seq and hash. One transaction:
 * - the prune lock first: a second pruner (another replica's) waits, then finds the prefix already gone and the
 *   checkpoint not old, so two pruners never both delete or checkpoint the same range;
 * - the batch is read by the primary key (at most `maxRows` rows), never by scanning the old prefix for its end;
 * - the delete runs with the setting the append-only trigger lets through, local to this transaction;
 * - the checkpoint is chained at the head under the head row's lock, exactly as the audit writer appends.
 */
export async function pruneAuditPostgres(
  pool: pg.Pool,
  cutoff: string,
  maxRows = 1_000_000_000,
  now: () => Date = () => new Date(),
): Promise<PruneResult> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => void (broken = error); // the query in flight rejects; the event must not end the process
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [PRUNE_LOCK]);
    const last = (
      await client.query<{ seq: number; hash: string; pruned: number }>(
        `
      WITH batch AS (SELECT seq, hash, ts FROM audit_log ORDER BY seq LIMIT $2),
           prefix AS (SELECT seq, hash FROM batch WHERE seq < COALESCE((SELECT min(seq) FROM batch WHERE ts >= $1), 9223372036854775807))
      SELECT seq, hash, (SELECT count(*) FROM prefix) AS pruned FROM prefix ORDER BY seq DESC LIMIT 1`,
        [cutoff, maxRows],
      )
    ).rows[0];
    if (!last) {
      await client.query('COMMIT');
      return { pruned: 0, throughSeq: null, checkpointSeq: null };
    }
    await client.query(`SELECT set_config('${PRUNE_SETTING}', 'on', true)`);
    const pruned = (await client.query('DELETE FROM audit_log WHERE seq <= $1', [last.seq])).rowCount ?? 0;
    await client.query(`SELECT set_config('${PRUNE_SETTING}', 'off', true)`);
    const head = (
      await client.query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_head WHERE id = 1 FOR UPDATE')
    ).rows[0]!;
    const seq = Number(head.seq) + 1;
    const entry = checkpointEntry({ seq: Number(last.seq), hash: last.hash }, pruned, cutoff, now());
    await insertChained(client, seq, head.hash, entry);
    await client.query('COMMIT');
    return { pruned, throughSeq: Number(last.seq), checkpointSeq: seq };
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => void (broken = rollback));
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** Inserts one row at `seq` after `prev` and moves the chain's head to it (the caller holds the head's lock). */
async function insertChained(client: pg.PoolClient, seq: number, prev: string, entry: AuditEntry): Promise<void> {
  const hash = auditRowHash(prev, seq, entry);
  await client.query(
    `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')}) VALUES (${AUDIT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
    auditRowValues(seq, entry, prev, hash),
  );
  await client.query('UPDATE audit_head SET seq = $1, hash = $2 WHERE id = 1', [seq, hash]);
}
