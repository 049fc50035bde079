// `node --import tsx bench/profile.ts [--unique] [--seconds N] [--heap allocated|survived]`: runs the HTTP load
// against a toolgate started with --cpu-prof and prints where the server's CPU time goes, its garbage collections
// and event-loop delay during the measured run, and with --heap the allocation sites of a sampling heap profile
// (`survived`: only objects that outlived a scavenge). Profiles stay in bench/results/profiles/.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { seedRules } from './http-throughput.ts';
import { decideBody, MIX } from './lib/mix.ts';
import { AGENT_TOKEN, buildIfStale, removeDir, ROOT, SERVER_CPU, startToolgate } from './lib/processes.ts';
import { summariseHeapProfile, summariseProfile } from './lib/profile-summary.ts';
import { runWrk } from './lib/wrk.ts';

const { values } = parseArgs({ options: { unique: { type: 'boolean', default: false }, seconds: { type: 'string', default: '10' }, top: { type: 'string', default: '30' }, heap: { type: 'string' } } });
if (values.heap !== undefined && values.heap !== 'allocated' && values.heap !== 'survived') throw new Error('--heap takes allocated or survived');
if (buildIfStale()) process.stderr.write('built dist/ (it was older than src/)\n');
const dir = join(ROOT, 'bench/results/profiles', new Date().toISOString().replace(/[:.]/g, '-'));
mkdirSync(dir, { recursive: true });
const bodies = join(dir, 'bodies.jsonl');
writeFileSync(bodies, MIX.map((b) => decideBody(b, values.unique ? undefined : 'x')).join('\n') + '\n');
const server = await startToolgate({
  cpu: SERVER_CPU,
  nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--require', join(ROOT, 'bench/lib/server-probe.cjs')],
  env: { TOOLGATE_PROBE_DIR: dir, ...(values.heap ? { TOOLGATE_PROBE_HEAP: values.heap } : {}) },
});
let requests: number | undefined;
try {
  await seedRules(server);
  await runWrk({ url: server.url, bodiesFile: bodies, token: AGENT_TOKEN, unique: values.unique!, runId: 'p', connections: 50, seconds: 2 });
  process.kill(server.pid, 'SIGUSR2'); // the probe's window opens
  const run = await runWrk({ url: server.url, bodiesFile: bodies, token: AGENT_TOKEN, unique: values.unique!, runId: 'q', connections: 50, seconds: Number(values.seconds) });
  process.kill(server.pid, 'SIGUSR2'); // and closes
  requests = run.requests;
  process.stdout.write(`${run.rps.toFixed(0)} req/s, p99 ${(run.latencyUs.p99 / 1000).toFixed(2)} ms, ${run.errorCount} errors\n\n`);
  for (let i = 0; i < 100 && !existsSync(join(dir, 'gc.json')); i++) await new Promise((r) => setTimeout(r, 100));
} finally {
  await server.stop();
  removeDir(server.dataDir);
}
const gcFile = join(dir, 'gc.json');
if (existsSync(gcFile)) {
  const gc = JSON.parse(await readFile(gcFile, 'utf8')) as { windowMs: number; gcs: Record<string, { count: number; totalMs: number; maxMs: number }>; loopDelayMs: Record<string, number> };
  process.stdout.write(`garbage collection over the ${gc.windowMs} ms run:\n`);
  for (const [kind, s] of Object.entries(gc.gcs)) process.stdout.write(`  ${kind}: ${s.count}×, ${s.totalMs.toFixed(0)} ms (${((s.totalMs / gc.windowMs) * 100).toFixed(1)} % of the run), longest ${s.maxMs.toFixed(1)} ms\n`);
  process.stdout.write(`event-loop delay: p50 ${gc.loopDelayMs.p50} ms, p99 ${gc.loopDelayMs.p99} ms, max ${gc.loopDelayMs.max} ms\n\n`);
}
if (values.heap && existsSync(join(dir, 'heap.json'))) process.stdout.write(`${summariseHeapProfile(join(dir, 'heap.json'), Number(values.top), requests ?? 0)}\n\n`);
const profile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!profile) throw new Error(`no profile written in ${dir}`);
process.stdout.write(`${summariseProfile(join(dir, profile), Number(values.top))}\n\nprofile: ${join(dir, profile)}\n`);
