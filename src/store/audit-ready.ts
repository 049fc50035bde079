// Readiness of the database: can toolgate commit an audit row right now?
import type Database from 'better-sqlite3';

/** How long the probe waits for another writer's lock before calling the database not ready. */
const PROBE_BUSY_MS = 250;

/**
 * Undefined when the database would accept a write now, else the reason. Takes the write lock for an instant
 * (BEGIN IMMEDIATE, ROLLBACK) with a short busy timeout, so a stuck writer elsewhere shows up as "not ready"
 * instead of stalling the probe (better-sqlite3 waits synchronously) for the normal five seconds.
 */
export function auditWriteProblem(db: Database.Database): string | undefined {
  if (!db.open) return 'the database is closed';
  if (db.readonly) return 'the database is open read-only';
  const busy = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${PROBE_BUSY_MS}`);
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return undefined;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    return `the database does not accept writes: ${(error as Error).message}`;
  } finally {
    db.pragma(`busy_timeout = ${busy}`);
  }
}
