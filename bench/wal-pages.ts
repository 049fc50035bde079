// `node --import tsx bench/wal-pages.ts [--commits 20000] [--rounds 3]`: what one audit row's commit costs the store —
// pages written to the write-ahead log and CPU — with audit_log as it is now and as it was before migration 7 (with
// AUTOINCREMENT, whose sqlite_sequence page every commit rewrote). One row per commit, as one agent's calls make them;
// no checkpoint during a round. Alternating rounds, a fresh database file each.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { timeOrderedId } from '../src/store/ids.ts';
import { MIGRATIONS } from '../src/store/migrations.ts';
import type { AuditEntry } from '../src/store/types.ts';
import { auditEntry, databaseAt, logPagesPerCommit } from '../test/support/audit-rows.ts';
import { removeDir } from './lib/processes.ts';
import { median } from './lib/stats.ts';

const { values } = parseArgs({
  options: { commits: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' } },
});
const commits = Number(values.commits);
const REBUILD = MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE audit_log_rebuilt'));

/** One call's row: a time-ordered decision id, as the server makes them (ids.ts). */
const entry = (i: number): AuditEntry =>
  auditEntry(i, { decision_id: timeOrderedId(), agent_id: 'agent-1', session_id: 'session-1', tool: 'Bash' });

async function measure(version: number): Promise<{ pages: number; cpuUs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-wal-pages-'));
  const path = join(dir, 'toolgate.db');
  const db = databaseAt(path, version);
  try {
    return await logPagesPerCommit(db, path, commits, entry);
  } finally {
    db.close();
    removeDir(dir);
  }
}

const runs: Record<string, { pages: number; cpuUs: number }[]> = { before: [], now: [] };
for (let round = 0; round < Number(values.rounds); round++)
  for (const which of round % 2 ? (['now', 'before'] as const) : (['before', 'now'] as const))
    runs[which]!.push(await measure(which === 'now' ? MIGRATIONS.length : REBUILD));
for (const [which, rs] of Object.entries(runs))
  process.stdout.write(
    `${which === 'now' ? 'now (no AUTOINCREMENT)' : 'before migration 7'}: ${median(rs.map((r) => r.pages)).toFixed(2)} log pages per commit, ${median(rs.map((r) => r.cpuUs)).toFixed(1)} CPU µs per commit (rounds ${rs.map((r) => r.cpuUs.toFixed(1)).join(' / ')})\n`,
  );
