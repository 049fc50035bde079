// Chooses the store: PostgreSQL when a database URL is configured, else SQLite in the data directory.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from './sqlite-store.ts';
import type { Store } from './types.ts';

/** Where the store lives and how it is used. */
export interface StoreLocation {
  /** postgres://… — the shared store of many replicas. */
  databaseUrl?: string | null;
  /** The data directory (SQLite's `toolgate.db`). */
  dataDir: string;
  /** A SQLite path instead of `<dataDir>/toolgate.db` (`:memory:` for tests). */
  sqlitePath?: string;
}

/** How the caller uses the store. */
export interface StoreUse {
  /** A long-running server: SQLite checkpoints from a worker; PostgreSQL listens for changes. */
  server?: boolean;
  /** Reads only (audit, check): SQLite opens read-only, and a missing database file is an error. */
  readonly?: boolean;
  /** A missing SQLite file is fine: an empty in-memory store stands in (toolgate check without a database). */
  allowMissing?: boolean;
}

/** A missing SQLite database for a read-only command. */
export class NoDatabaseError extends Error {}

/**
 * How often the server's SQLite store checkpoints its write-ahead log from the worker (checkpointer.ts); the bench's
 * durable-audit floor uses it too. Every 250 ms lowered the one-connection p99 (bench/one-connection.ts, http-ab: 4.5
 * → 3.0 ms repeated, 5.7 → 3.7 ms unique) at the same CPU per call, but the long-poll bench's RSS then came out at
 * 262–269 MB in 3 of 6 runs (target 256; 246–249 in 3 of 3 at 1 s, and in every earlier run), so it stays at 1 s.
 */
export const SERVER_CHECKPOINT_INTERVAL_MS = 1000;

/** The SQLite path a location stands for. */
export function sqlitePathOf(location: StoreLocation): string {
  return location.sqlitePath ?? join(location.dataDir, 'toolgate.db');
}

/** Opens the configured store. The PostgreSQL driver is loaded only when a URL is given. */
export async function openStore(location: StoreLocation, use: StoreUse = {}): Promise<Store> {
  if (location.databaseUrl) {
    const { openPostgresStore } = await import('./postgres-store.ts');
    return openPostgresStore(location.databaseUrl, { listen: use.server === true });
  }
  const path = sqlitePathOf(location);
  if (path !== ':memory:' && !existsSync(path)) {
    if (use.allowMissing) return openSqliteStore(':memory:');
    if (use.readonly) throw new NoDatabaseError(`no database at ${path} (start toolgate serve, or pass --data-dir)`);
  }
  return openSqliteStore(path, {
    readonly: use.readonly,
    checkpointIntervalMs: use.server && path !== ':memory:' ? SERVER_CHECKPOINT_INTERVAL_MS : undefined,
  });
}
