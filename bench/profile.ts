// `node --import tsx bench/profile.ts [--unique] [--seconds N]`: runs the HTTP load against a toolgate started
// with --cpu-prof and prints where the server's CPU time goes (the profile stays in bench/results/profiles/).
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { seedRules } from './http-throughput.ts';
import { decideBody, MIX } from './lib/mix.ts';
import { AGENT_TOKEN, removeDir, ROOT, SERVER_CPU, startToolgate } from './lib/processes.ts';
import { summariseProfile } from './lib/profile-summary.ts';
import { runWrk } from './lib/wrk.ts';

const { values } = parseArgs({ options: { unique: { type: 'boolean', default: false }, seconds: { type: 'string', default: '10' }, top: { type: 'string', default: '30' } } });
const dir = join(ROOT, 'bench/results/profiles', new Date().toISOString().replace(/[:.]/g, '-'));
mkdirSync(dir, { recursive: true });
const bodies = join(dir, 'bodies.jsonl');
writeFileSync(bodies, MIX.map((b) => decideBody(b, values.unique ? undefined : 'x')).join('\n') + '\n');
const server = await startToolgate({ cpu: SERVER_CPU, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
try {
  await seedRules(server);
  await runWrk({ url: server.url, bodiesFile: bodies, token: AGENT_TOKEN, unique: values.unique!, runId: 'p', connections: 50, seconds: 2 });
  const run = await runWrk({ url: server.url, bodiesFile: bodies, token: AGENT_TOKEN, unique: values.unique!, runId: 'q', connections: 50, seconds: Number(values.seconds) });
  process.stdout.write(`${run.rps.toFixed(0)} req/s, p99 ${(run.latencyUs.p99 / 1000).toFixed(2)} ms, ${run.errorCount} errors\n\n`);
} finally {
  await server.stop();
  removeDir(server.dataDir);
}
const profile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!profile) throw new Error(`no profile written in ${dir}`);
process.stdout.write(`${summariseProfile(join(dir, profile), Number(values.top))}\n\nprofile: ${join(dir, profile)}\n`);
