// One cluster per test file, started on first use; the skip-or-fail rule for machines without PostgreSQL.
import { after } from 'node:test';
import { inCi, pgUnavailable, startCluster, type Cluster } from './cluster.ts';

/**
 * Undefined when the PostgreSQL tests can run; else the reason to skip them. In CI a missing PostgreSQL is a
 * failure: this throws instead.
 */
export function pgSkipReason(): string | undefined {
  const reason = pgUnavailable();
  if (reason && inCi()) throw new Error(`CI=true but ${reason}`);
  if (reason) console.log(`# skipping the PostgreSQL tests: ${reason}`);
  return reason;
}

let cluster: Promise<Cluster> | undefined;
let databases = 0;

/** The file's cluster, started on first use. */
export function sharedCluster(): Promise<Cluster> {
  cluster ??= startCluster();
  return cluster;
}

/** Destroys the shared cluster after the file's tests (call at the top level of a test file). */
export function destroyClusterAfterAll(): void {
  after(async () => {
    if (cluster) (await cluster).destroy();
  });
}

/** A fresh database on the shared cluster. */
export async function freshDatabase(prefix = 'db'): Promise<string> {
  const c = await sharedCluster();
  return c.createDatabase(`${prefix}_${process.pid}_${++databases}`);
}
