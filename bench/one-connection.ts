// `node --import tsx bench/one-connection.ts [--data-root DIR] [--node-flag FLAG ...] [--seconds 5] [--repeat 2]`:
// the agent's view of `npm run bench` (one connection, one call after another, each answered once its audit row has
// committed) on its own, to look into the tail: one toolgate server pinned as in the bench, warmed with the repeated
// and unique mixes at 50 connections and the script on one, then the repeated mix, the unique mix and the 2 KB script
// on one connection, `--repeat` times; per run p50/p90/p99/max and the size of the database's write-ahead log.
// `--data-root /dev/shm` puts the data directory in memory, so what the disk adds to the tail shows against the same
// server on disk; `--node-flag` (repeatable) starts the server with more node flags (e.g. `--max-semi-space-size=16`)
// to see what the garbage collector adds. Needs wrk and dist/ (built when stale).
import { mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { seedRules, writeBodies } from './http-throughput.ts';
import { AGENT_TOKEN, buildIfStale, cpuTimeUs, removeDir, SERVER_CPU, startToolgate } from './lib/processes.ts';
import { runWrk } from './lib/wrk.ts';

const { values } = parseArgs({
  options: {
    'data-root': { type: 'string' },
    'node-flag': { type: 'string', multiple: true },
    seconds: { type: 'string', default: '5' },
    repeat: { type: 'string', default: '2' },
  },
});
if (buildIfStale()) process.stderr.write('built dist/ (it was older than src/)\n');
const seconds = Number(values.seconds);
const dataDir = values['data-root'] ? mkdtempSync(join(values['data-root'], 'toolgate-one-')) : undefined;
const server = await startToolgate({ cpu: SERVER_CPU, dataDir, nodeFlags: values['node-flag'] ?? [] });
await seedRules(server);
const bodies = writeBodies();
const run = (file: string, unique: boolean, runId: string, connections: number) =>
  runWrk({ url: server.url, bodiesFile: file, token: AGENT_TOKEN, unique, runId, connections, seconds });
const walMb = () => {
  try {
    return (statSync(join(server.dataDir, 'toolgate.db-wal')).size / 1e6).toFixed(1);
  } catch {
    return '0';
  }
};

await run(bodies.repeated, false, 'w1', 50);
await run(bodies.unique, true, 'w2', 50);
await run(bodies.script, true, 'w3', 1); // the script's analysis is optimised by V8 only after some calls
const ms = (us: number) => (us / 1000).toFixed(2);
for (let i = 0; i < Number(values.repeat); i++) {
  for (const [name, file, unique] of [
    ['repeated', bodies.repeated, false],
    ['unique', bodies.unique, true],
    ['2 KB script', bodies.script, true],
  ] as const) {
    const cpu0 = cpuTimeUs(server.pid);
    const r = await run(file, unique, `o${i}${name[0]}`, 1);
    const cpuPerCall = (cpuTimeUs(server.pid) - cpu0) / Math.max(1, r.requests);
    // Each call's own latency; wrk's own p99 beside it adds calls for coordinated omission (bench/wrk/decide.lua).
    const { p50, p90, p99, max } = r.calls!;
    process.stdout.write(
      `${name.padEnd(11)} p50 ${ms(p50)} ms, p90 ${ms(p90)}, p99 ${ms(p99)}, max ${ms(max)} (wrk's p99 ${ms(r.latencyUs.p99)}) · ${r.requests} calls, ${cpuPerCall.toFixed(0)} CPU µs each, ${r.errorCount} errors · log ${walMb()} MB\n`,
    );
  }
}
await server.stop();
removeDir(server.dataDir);
removeDir(bodies.dir);
