// `node --max-semi-space-size=4 --import tsx bench/decide-cpu.ts [--build dist] [--mix repeated|unique|script] [--seconds 3]`:
// CPU per decision in one process, no HTTP — the service as the server runs it (createToolgate, a real database file,
// the bench's rules) answering the bench's mix 50 calls a turn, as 50 connections deliver them, audit commit included.
// `--build` names a compiled tree (a copy of dist/ from before a change): two builds, run alternately, compare a
// change within a few per cent on a busy machine, where the HTTP bench's throughput moves 2× with the load.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_RULES, decideBody, MIX, scriptCall, UNIQUE } from './lib/mix.ts';
import { removeDir, ROOT } from './lib/processes.ts';
import { twoKilobyteScript } from './shell.ts';

const { values } = parseArgs({ options: { build: { type: 'string', default: 'dist' }, mix: { type: 'string', default: 'repeated' }, seconds: { type: 'string', default: '3' }, batch: { type: 'string', default: '50' } } });
const build = pathToFileURL(resolve(ROOT, values.build!) + '/').href;
const { loadConfig } = await import(`${build}config.js`);
const { createToolgate } = await import(`${build}service/toolgate.js`);
const { answerDecide } = await import(`${build}http/routes/decide.js`);
const { parseJsonText } = await import(`${build}http/body.js`);
const { DecideRequestSchema } = await import(`${build}http/schemas.js`);

const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-decide-cpu-'));
const toolgate = await createToolgate(loadConfig({ 'data-dir': dataDir }, {}));
for (const rule of BENCH_RULES) await toolgate.store.addRule({ effect: rule.effect, pattern: rule.pattern, risk: rule.risk ?? null, scope: 'global', expiresAt: null, note: null, createdBy: 'bench' });
const templates = values.mix === 'script' ? [decideBody(scriptCall(twoKilobyteScript()))] : MIX.map((b) => decideBody(b, values.mix === 'unique' ? undefined : 'x'));
let counter = 0;
const noSignal = () => { throw new Error('no wait in this bench'); };
/** One call as the fast path makes it: the body's text parsed and validated, then decided. */
const call = (i: number) => {
  const text = templates[i % templates.length]!;
  const body = parseJsonText(values.mix === 'repeated' ? text : text.split(UNIQUE).join(`c${counter++}`), DecideRequestSchema);
  return answerDecide({ toolgate }, body, false, noSignal).then((answer: { decision_id: string }) => JSON.stringify(answer));
};
const batch = Number(values.batch);
const turn = async (n: number) => { await Promise.all(Array.from({ length: batch }, (_, i) => call(n * batch + i))); await new Promise((r) => setImmediate(r)); };
for (let i = 0; i < 200; i++) await turn(i); // warm-up
const started = performance.now();
const cpu0 = process.cpuUsage();
let calls = 0;
for (let i = 0; performance.now() - started < Number(values.seconds) * 1000; i++) { await turn(i); calls += batch; }
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`${values.build} ${values.mix}: ${((cpu.user + cpu.system) / calls).toFixed(1)} CPU µs per call over ${calls} calls\n`);
await toolgate.close();
removeDir(dataDir);
