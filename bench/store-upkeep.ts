// `node --import tsx bench/store-upkeep.ts`: what the shared-state upkeep costs on SQLite and on PostgreSQL — one
// failed authentication (the one statement a bad credential costs; a valid one costs none), a spray of addresses
// through the ledger with its sweeps (rows stay bounded), and audit retention's batches (10,000 rows each).
// Needs PostgreSQL's server binaries for the PostgreSQL half (test/pg/support); prints a table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failedAuthLedger } from '../src/service/failed-auth.ts';
import { openPostgresStore } from '../src/store/postgres-store.ts';
import { openSqliteStore } from '../src/store/sqlite-store.ts';
import type { Store } from '../src/store/types.ts';
import { pgUnavailable, startCluster } from '../test/pg/support/cluster.ts';
import { removeDir } from './lib/processes.ts';
import { auditEntry } from '../test/support/audit-rows.ts';

const FAILURES = 2000;
const SPRAY = 30_000;
const OLD_ROWS = 100_000;
const BATCH = 10_000;

/** Row `i` of an old log: one second apart from 2024-01-01, all older than any retention. */
const oldEntry = (i: number) =>
  auditEntry(i, { ts: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(), decision_id: `old-${i}` });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

async function measure(name: string, store: Store): Promise<string[]> {
  const policy = { maxFailures: 1_000_000, windowMs: 60_000, blockMs: 60_000 };
  const single: number[] = [];
  for (let i = 0; i < FAILURES; i++) {
    const started = performance.now();
    await store.recordAuthFailure('198.51.100.1', policy, Date.now());
    single.push((performance.now() - started) * 1000);
  }
  single.sort((a, b) => a - b);

  const ledger = failedAuthLedger(store, { maxTracked: 10_000 });
  let most = 0;
  const sprayStarted = performance.now();
  for (let i = 0; i < SPRAY; i++) {
    await ledger.fail(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    if (i % 500 === 0) most = Math.max(most, (await ledger.counts()).tracked);
  }
  const sprayRate = SPRAY / ((performance.now() - sprayStarted) / 1000);
  most = Math.max(most, (await ledger.counts()).tracked);

  for (let i = 0; i < OLD_ROWS; i += 5000)
    await store.appendAudit(Array.from({ length: 5000 }, (_, k) => oldEntry(i + k)));
  const batches: number[] = [];
  const cutoff = new Date(Date.UTC(2025, 0, 1)).toISOString();
  for (;;) {
    const started = performance.now();
    const { pruned } = await store.pruneAudit(cutoff, BATCH);
    if (pruned === 0) break;
    batches.push(performance.now() - started);
  }
  const verified = await store.verifyAudit();
  const total = batches.reduce((a, b) => a + b, 0);
  return [
    name,
    `${percentile(single, 50).toFixed(0)} / ${percentile(single, 99).toFixed(0)}`,
    `${Math.round(sprayRate).toLocaleString('en')}`,
    `${most.toLocaleString('en')}`,
    `${batches.length} × ${(total / batches.length).toFixed(0)} ms (max ${Math.max(...batches).toFixed(0)})`,
    `${Math.round(OLD_ROWS / (total / 1000)).toLocaleString('en')}`,
    verified.ok ? 'ok' : 'FAILED',
  ];
}

const rows: string[][] = [];
const dir = mkdtempSync(join(tmpdir(), 'toolgate-upkeep-'));
const sqlite = openSqliteStore(join(dir, 'toolgate.db'));
try {
  rows.push(await measure('SQLite (file, WAL)', sqlite));
} finally {
  await sqlite.close();
  removeDir(dir);
}
const missing = pgUnavailable();
if (missing) console.error(`PostgreSQL skipped: ${missing}`);
else {
  const cluster = await startCluster();
  try {
    const pg = await openPostgresStore(await cluster.createDatabase('upkeep'), { max: 4 });
    try {
      rows.push(await measure('PostgreSQL (local, synchronous_commit on)', pg));
    } finally {
      await pg.close();
    }
  } finally {
    cluster.destroy();
  }
}
const header = [
  'store',
  'one failed auth p50 / p99 (µs)',
  `spray of ${SPRAY.toLocaleString('en')} addresses (failures/s)`,
  'rows at most (cap 10,000)',
  `prune ${OLD_ROWS.toLocaleString('en')} rows in ${BATCH.toLocaleString('en')}-row batches`,
  'rows pruned/s',
  'audit verify',
];
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
