// `node --import tsx bench/http-ab.ts [--build DIR ...] [--rounds 4] [--seconds 4] [--one-seconds 4]`: the HTTP
// figures of issue 27 for several builds of toolgate (copies of dist/ from before and after a change) against one
// durable-audit floor, in interleaved rounds, so a busy machine slows them alike. Per round and build: server CPU µs
// per request at 50 connections (repeated and unique mix) and its ratio to the floor's — the figure that moves least
// with the load — and, on one connection (the agent's view), p50/p99/max with the server's own pauses in the same
// window: its garbage collections (count, longest) and its event-loop delay, from bench/lib/server-probe.cjs. A p99
// far above the floor's with no pause of the server's own to match is the machine's (another process on the core).
// Without --build it compares the checkout's dist/ with nothing. Needs wrk; the servers are pinned as in the bench.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { seedRules, writeBodies } from './http-throughput.ts';
import {
  AGENT_TOKEN,
  buildIfStale,
  cpuTimeUs,
  ROOT,
  SERVER_CPU,
  startAuditFloorServer,
  startToolgate,
  type ServerProcess,
} from './lib/processes.ts';
import { median } from './lib/stats.ts';
import { runWrk } from './lib/wrk.ts';

const { values } = parseArgs({
  options: {
    build: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '4' },
    'one-seconds': { type: 'string', default: '4' },
  },
});
if (buildIfStale()) process.stderr.write('built dist/ (it was older than src/)\n');
const builds = values.build?.length ? values.build : ['dist'];
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const oneSeconds = Number(values['one-seconds']);
const bodies = writeBodies();
const probe = join(ROOT, 'bench/lib/server-probe.cjs');
const load1 = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

interface Probed {
  name: string;
  server: ServerProcess;
  probeDir: string;
}

async function probed(
  name: string,
  start: (flags: string[], env: NodeJS.ProcessEnv) => Promise<ServerProcess>,
): Promise<Probed> {
  const probeDir = mkdtempSync(join(tmpdir(), 'toolgate-ab-probe-'));
  const server = await start(['--require', probe], { TOOLGATE_PROBE_DIR: probeDir, TOOLGATE_AGENT_TOKEN: AGENT_TOKEN });
  return { name, server, probeDir };
}

const floor = await probed('floor', (nodeFlags, env) => startAuditFloorServer({ cpu: SERVER_CPU, nodeFlags, env }));
const servers: Probed[] = [];
for (const dir of builds) {
  const entry = resolve(ROOT, dir, 'cli/run.js');
  if (!existsSync(entry)) throw new Error(`no build at ${dir} (${entry})`);
  const s = await probed(dir, (nodeFlags, env) => startToolgate({ cpu: SERVER_CPU, nodeFlags, env, entry }));
  await seedRules(s.server);
  servers.push(s);
}

/** One wrk run, with the server's CPU per request and (when `window`) its GC and event-loop delay over the run. */
async function run(p: Probed, file: string, unique: boolean, connections: number, secs: number, window: boolean) {
  const gcFile = join(p.probeDir, 'gc.json');
  rmSync(gcFile, { force: true });
  if (window) process.kill(p.server.pid, 'SIGUSR2');
  const cpu0 = cpuTimeUs(p.server.pid);
  const r = await runWrk({
    url: p.server.url,
    bodiesFile: file,
    token: AGENT_TOKEN,
    unique,
    runId: `ab${Math.floor(Math.random() * 1e9)}`,
    connections,
    seconds: secs,
  });
  const cpuUs = (cpuTimeUs(p.server.pid) - cpu0) / Math.max(1, r.requests);
  let gc = '';
  if (window) {
    process.kill(p.server.pid, 'SIGUSR2');
    for (let i = 0; i < 100 && !existsSync(gcFile); i++) await new Promise((res) => setTimeout(res, 50));
    if (existsSync(gcFile)) {
      const g = JSON.parse(readFileSync(gcFile, 'utf8')) as {
        gcs: Record<string, { count: number; maxMs: number }>;
        loopDelayMs: { p99: number; max: number };
      };
      const kinds = Object.entries(g.gcs)
        .map(([k, s]) => `${k} ${s.count}× ≤${s.maxMs.toFixed(1)}`)
        .join(', ');
      gc = ` · server: ${kinds || 'no GC'}; loop delay p99 ${g.loopDelayMs.p99} max ${g.loopDelayMs.max} ms`;
    }
  }
  return { ...r, cpuUs, gc };
}

const ms = (us: number) => (us / 1000).toFixed(2);
const ratios: Record<string, { repeated: number[]; unique: number[]; p99r: number[]; p99u: number[] }> = {};
for (const s of servers) ratios[s.name] = { repeated: [], unique: [], p99r: [], p99u: [] };
const floorP99: number[] = [];
// Warm-up (JIT, caches), not counted.
await run(floor, bodies.repeated, false, 50, 2, false);
for (const s of servers) {
  await run(s, bodies.repeated, false, 50, 2, false);
  await run(s, bodies.unique, true, 50, 2, false);
}
for (let round = 1; round <= rounds; round++) {
  // Alternate the order of the builds so drift favours none.
  const order = round % 2 === 1 ? servers : [...servers].reverse();
  const f = await run(floor, bodies.repeated, false, 50, seconds, false);
  let line = `round ${round} (load ${load1()}): floor ${f.cpuUs.toFixed(1)} CPU µs/req (${f.rps.toFixed(0)} req/s)`;
  for (const s of order) {
    const rep = await run(s, bodies.repeated, false, 50, seconds, false);
    const uni = await run(s, bodies.unique, true, 50, seconds, false);
    ratios[s.name]!.repeated.push(f.cpuUs / rep.cpuUs);
    ratios[s.name]!.unique.push(f.cpuUs / uni.cpuUs);
    line += ` · ${s.name}: repeated ${rep.cpuUs.toFixed(1)} (${(f.cpuUs / rep.cpuUs).toFixed(3)}×, by req/s ${(rep.rps / f.rps).toFixed(3)}×), unique ${uni.cpuUs.toFixed(1)} (${(f.cpuUs / uni.cpuUs).toFixed(3)}×, by req/s ${(uni.rps / f.rps).toFixed(3)}×)`;
  }
  process.stdout.write(`${line}\n`);
  // The agent's view, one connection, with the server's own pauses in the same window (--one-seconds 0: skipped).
  if (oneSeconds <= 0) continue;
  const f1 = await run(floor, bodies.repeated, false, 1, oneSeconds, true);
  floorP99.push(f1.calls!.p99); // each call once (wrk's own figures add calls: bench/wrk/decide.lua)
  process.stdout.write(
    `  one connection, floor: p50 ${ms(f1.calls!.p50)} p99 ${ms(f1.calls!.p99)} max ${ms(f1.calls!.max)} ms (${f1.requests} calls)${f1.gc}\n`,
  );
  for (const s of order) {
    for (const unique of [false, true]) {
      const r = await run(s, unique ? bodies.unique : bodies.repeated, unique, 1, oneSeconds, true);
      ratios[s.name]![unique ? 'p99u' : 'p99r'].push(r.calls!.p99);
      process.stdout.write(
        `  one connection, ${s.name} ${unique ? 'unique' : 'repeated'}: p50 ${ms(r.calls!.p50)} p99 ${ms(r.calls!.p99)} max ${ms(r.calls!.max)} ms (${r.requests} calls, ${r.cpuUs.toFixed(0)} CPU µs/call)${r.gc}\n`,
      );
    }
  }
}
process.stdout.write(
  `\nmedians over ${rounds} rounds${oneSeconds > 0 ? `; floor one-connection p99 ${ms(median(floorP99))} ms` : ''}\n`,
);
for (const s of servers) {
  const r = ratios[s.name]!;
  process.stdout.write(
    `${s.name}: vs floor by CPU per request, repeated ${median(r.repeated).toFixed(3)}×, unique ${median(r.unique).toFixed(3)}×; one-connection p99 repeated ${ms(median(r.p99r))} ms, unique ${ms(median(r.p99u))} ms\n`,
  );
}
await floor.server.stop();
for (const s of servers) {
  await s.server.stop();
  rmSync((s.server as ServerProcess & { dataDir?: string }).dataDir ?? '', { recursive: true, force: true });
}
for (const p of [floor, ...servers]) rmSync(p.probeDir, { recursive: true, force: true });
