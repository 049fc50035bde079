// `npm run bench:pg`: decisions/s with 1, 2 and 3 replicas on one PostgreSQL against the single SQLite process,
// and the PostgreSQL audit writer's rows/s at 50 concurrent callers with the callers' p99.
// `-- --quick` is the CI smoke run (a second per step). Needs PostgreSQL's server binaries (test/pg/support).
// The load generator runs in this process, on the same (small) machine: the decisions/s are a floor, and compare
// the configurations with each other more than they measure the server.
import { parseArgs } from 'node:util';
import { openPostgresStore } from '../src/store/postgres-store.ts';
import { pgUnavailable, startCluster } from '../test/pg/support/cluster.ts';
import { buildIfStale, AGENT_TOKEN, removeDir, startToolgate, type ServerProcess } from './lib/processes.ts';
import { decideBody, MIX } from './lib/mix.ts';
import { auditEntry } from '../test/support/audit-rows.ts';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const quick = values.quick === true;
const seconds = quick ? 1 : 5;
const CLIENTS = quick ? 8 : 32;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** Decides the bench mix from CLIENTS loops spread over the servers for `seconds`; decisions answered per second. */
async function decisionsPerSecond(servers: ServerProcess[]): Promise<{ rate: number; p99: number; errors: number }> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const latencies: number[] = [];
  let n = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, k) => {
      const server = servers[k % servers.length]!;
      while (performance.now() < end) {
        const i = n++;
        const started = performance.now();
        const res = await fetch(`${server.url}/v1/decide`, {
          method: 'POST',
          headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' },
          body: decideBody(MIX[i % MIX.length]!, i % 500),
        });
        await res.arrayBuffer();
        if (res.status === 200) {
          done++;
          latencies.push(performance.now() - started);
        } else errors++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rate: done / seconds, p99: percentile(latencies, 99), errors };
}

/** 50 callers, each appending one row and waiting for its commit, for `seconds`. */
async function auditWriter(url: string): Promise<{ rate: number; p99: number; p50: number }> {
  const store = await openPostgresStore(url, { max: 4 });
  try {
    const end = performance.now() + seconds * 1000;
    const latencies: number[] = [];
    let i = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (performance.now() < end) {
          const started = performance.now();
          await store.appendAudit([auditEntry(i++)]);
          latencies.push(performance.now() - started);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    return { rate: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await store.close();
  }
}

const missing = pgUnavailable();
if (missing) {
  console.error(`bench:pg needs PostgreSQL: ${missing}`);
  process.exit(process.env.CI === 'true' ? 1 : 0);
}
if (buildIfStale()) console.error('▶ built dist/ (it was older than src/)');
const cluster = await startCluster();
const rows: string[][] = [];
try {
  // SQLite: the zero-configuration single process.
  const sqlite = await startToolgate({ flags: ['--log-level', 'warn'] });
  try {
    const r = await decisionsPerSecond([sqlite]);
    rows.push(['SQLite, 1 process', r.rate.toFixed(0), r.p99.toFixed(1), String(r.errors)]);
  } finally {
    await sqlite.stop();
    removeDir(sqlite.dataDir);
  }
  for (const n of [1, 2, 3]) {
    const url = await cluster.createDatabase(`bench_${n}`);
    const servers = await Promise.all(
      Array.from({ length: n }, () => startToolgate({ flags: ['--log-level', 'warn', '--database', url] })),
    );
    try {
      const r = await decisionsPerSecond(servers);
      rows.push([`PostgreSQL, ${n} replica${n > 1 ? 's' : ''}`, r.rate.toFixed(0), r.p99.toFixed(1), String(r.errors)]);
    } finally {
      for (const s of servers) {
        await s.stop();
        removeDir(s.dataDir);
      }
    }
  }
  console.log(
    `decisions/s, ${CLIENTS} clients (in this process), ${seconds} s each, the bench mix (bench/lib/mix.ts):`,
  );
  console.log('| configuration | decisions/s | client p99 ms | errors |\n|---|---:|---:|---:|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  const audit = await auditWriter(await cluster.createDatabase('bench_audit'));
  console.log(
    `\nPostgreSQL audit writer, one replica, 50 concurrent callers each awaiting its commit (synchronous_commit on), ${seconds} s:`,
  );
  console.log(
    `  ${audit.rate.toFixed(0)} rows/s (target ≥ 20000), caller p50 ${audit.p50.toFixed(2)} ms, p99 ${audit.p99.toFixed(2)} ms (target ≤ 20)`,
  );
} finally {
  cluster.destroy();
}
