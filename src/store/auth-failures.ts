// Failed authentications per client address, kept in the database so every replica counts and blocks together:
// one statement records a failure (or refuses it while the address is blocked), one asks whether it is blocked.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { AuthFailureOutcome, Store } from './types.ts';

/** The store methods of the failed-authentication ledger. */
export type AuthFailureMethods = Pick<
  Store,
  'recordAuthFailure' | 'authBlockedUntil' | 'sweepAuthFailures' | 'countAuthFailures'
>;

/** How a dialect writes the record statement's parameters (PostgreSQL needs their types, SQLite takes names). */
interface Params {
  address: string;
  now: string;
  max: string;
  window: string;
  block: string;
}

/**
 * The record statement. Every `SET` expression reads the row as it was before this statement (both dialects), and
 * the conflicting row is locked while they run, so concurrent failures from several replicas each count once:
 * - blocked now: refused (the caller answers 429), nothing else changes — a blocked address does not extend its block;
 * - its window over: a new window with this failure as its first;
 * - else one more failure; reaching `max` blocks the address until `now + block`.
 */
function recordSql(p: Params): string {
  const t = 'auth_failures';
  const blocked = `${t}.blocked_until > ${p.now}`;
  const windowOver = `${t}.window_start + ${p.window} <= ${p.now}`;
  const failures = `CASE WHEN ${windowOver} THEN 1 ELSE ${t}.failures + 1 END`;
  return `INSERT INTO ${t} (address, window_start, failures, blocked_until, refused)
    VALUES (${p.address}, ${p.now}, 1, CASE WHEN 1 >= ${p.max} THEN ${p.now} + ${p.block} ELSE 0 END, 0)
    ON CONFLICT (address) DO UPDATE SET
      refused = CASE WHEN ${blocked} THEN 1 ELSE 0 END,
      failures = CASE WHEN ${blocked} THEN ${t}.failures ELSE ${failures} END,
      window_start = CASE WHEN NOT (${blocked}) AND ${windowOver} THEN ${p.now} ELSE ${t}.window_start END,
      blocked_until = CASE WHEN ${blocked} THEN ${t}.blocked_until WHEN ${failures} >= ${p.max} THEN ${p.now} + ${p.block} ELSE ${t}.blocked_until END
    RETURNING refused, failures, blocked_until`;
}

const blockedSql = (address: string, now: string) =>
  `SELECT blocked_until FROM auth_failures WHERE address = ${address} AND blocked_until > ${now}`;

/**
 * Forgets what no longer matters (neither blocked nor inside its window), then the oldest windows beyond `keep`
 * (blocked addresses kept first), so a spray of addresses cannot grow the table without bound.
 */
const sweepSql = (
  now: string,
  window: string,
  beyondKeep: string,
) => `DELETE FROM auth_failures WHERE (blocked_until <= ${now} AND window_start + ${window} <= ${now})
  OR address IN (SELECT address FROM auth_failures ORDER BY CASE WHEN blocked_until > ${now} THEN 0 ELSE 1 END, window_start DESC, address ${beyondKeep})`;

const countSql = (now: string) =>
  `SELECT count(*) AS tracked, COALESCE(sum(CASE WHEN blocked_until > ${now} THEN 1 ELSE 0 END), 0) AS blocked FROM auth_failures`;

interface OutcomeRow {
  refused: number;
  failures: number;
  blocked_until: number;
}

const outcome = (r: OutcomeRow): AuthFailureOutcome => ({
  refused: Number(r.refused) === 1,
  failures: Number(r.failures),
  blockedUntil: Number(r.blocked_until),
});

const SQLITE: Params = { address: '@address', now: '@now', max: '@max', window: '@window', block: '@block' };

/** The ledger on SQLite, on prepared statements (the table is made by migration 6). */
export function sqliteAuthFailures(db: Database.Database): AuthFailureMethods {
  const record = db.prepare(recordSql(SQLITE));
  const blocked = db.prepare(blockedSql('@address', '@now')).pluck();
  const sweep = db.prepare(sweepSql('@now', '@window', 'LIMIT -1 OFFSET @keep'));
  const count = db.prepare(countSql('@now'));
  return {
    async recordAuthFailure(address, policy, now) {
      return outcome(
        record.get({
          address,
          now,
          max: policy.maxFailures,
          window: policy.windowMs,
          block: policy.blockMs,
        }) as OutcomeRow,
      );
    },
    async authBlockedUntil(address, now) {
      return (blocked.get({ address, now }) as number | undefined) ?? 0;
    },
    async sweepAuthFailures(policy, now, keep) {
      return sweep.run({ now, window: policy.windowMs, keep }).changes;
    },
    async countAuthFailures(now) {
      const row = count.get({ now }) as { tracked: number; blocked: number };
      return { tracked: row.tracked, blocked: row.blocked };
    },
  };
}

const POSTGRES: Params = {
  address: '$1',
  now: '$2::bigint',
  max: '$3::int',
  window: '$4::bigint',
  block: '$5::bigint',
};

/** The ledger on PostgreSQL: each method one statement on the pool. */
export function postgresAuthFailures(pool: pg.Pool): AuthFailureMethods {
  const record = recordSql(POSTGRES);
  const blocked = blockedSql('$1', '$2::bigint');
  const sweep = sweepSql('$1::bigint', '$2::bigint', 'OFFSET $3::int');
  const count = countSql('$1::bigint');
  return {
    async recordAuthFailure(address, policy, now) {
      return outcome(
        (await pool.query<OutcomeRow>(record, [address, now, policy.maxFailures, policy.windowMs, policy.blockMs]))
          .rows[0]!,
      );
    },
    async authBlockedUntil(address, now) {
      const row = (await pool.query<{ blocked_until: number }>(blocked, [address, now])).rows[0];
      return row ? Number(row.blocked_until) : 0;
    },
    async sweepAuthFailures(policy, now, keep) {
      return (await pool.query(sweep, [now, policy.windowMs, keep])).rowCount ?? 0;
    },
    async countAuthFailures(now) {
      const row = (await pool.query<{ tracked: number; blocked: number }>(count, [now])).rows[0]!;
      return { tracked: Number(row.tracked), blocked: Number(row.blocked) };
    },
  };
}
