// `node --max-semi-space-size=4 --import tsx bench/decide-cpu.ts [--build dist ...] [--mix repeated|unique|script] [--seconds 3]`:
// CPU per decision in one process, no HTTP — the service as the server runs it (createToolgate, a real database file,
// the bench's rules) answering the bench's mix 50 calls a turn, as 50 connections deliver them, audit commit included.
// Several `--build`s (copies of dist/ from before and after a change) run in one process, a turn each in turn, so a
// busy machine slows them alike: a change is compared within a few per cent where the HTTP bench's throughput moves
// 2× with the load. Prints each build's CPU µs per call and its ratio to the first.
import { parseArgs } from 'node:util';
import { loadService } from './lib/in-process.ts';
import { decideBody, MIX, scriptCall, UNIQUE } from './lib/mix.ts';
import { median } from './lib/stats.ts';
import { twoKilobyteScript } from './shell.ts';

const { values } = parseArgs({
  options: {
    build: { type: 'string', multiple: true },
    mix: { type: 'string', default: 'repeated' },
    seconds: { type: 'string', default: '3' },
    batch: { type: 'string', default: '50' },
  },
});
const builds = values.build?.length ? values.build : ['dist'];
const templates =
  values.mix === 'script'
    ? [decideBody(scriptCall(twoKilobyteScript()))]
    : MIX.map((b) => decideBody(b, values.mix === 'unique' ? undefined : 'x'));
const batch = Number(values.batch);
let counter = 0;

/** One build's service and a function that runs one turn of `batch` calls. */
async function load(dir: string) {
  const service = await loadService(dir);
  const call = (i: number) => {
    const text = templates[i % templates.length]!;
    return service.decide(values.mix === 'repeated' ? text : text.split(UNIQUE).join(`c${counter++}`));
  };
  let n = 0;
  const turn = async () => {
    const t = n++;
    await Promise.all(Array.from({ length: batch }, (_, i) => call(t * batch + i)));
  };
  return { dir, turn, close: () => service.close(), samples: [] as number[] };
}

const loaded = [];
for (const dir of builds) loaded.push(await load(dir));
const tick = () => new Promise((r) => setImmediate(r));
for (let i = 0; i < 150; i++)
  for (const b of loaded) {
    await b.turn();
    await tick();
  } // warm-up
const started = performance.now();
while (performance.now() - started < Number(values.seconds) * 1000 * loaded.length) {
  for (const b of loaded) {
    await tick();
    const cpu0 = process.cpuUsage();
    await b.turn();
    const cpu = process.cpuUsage(cpu0);
    b.samples.push((cpu.user + cpu.system) / batch);
  }
}
// The mean, not the median: the kernel accounts CPU time in ticks, so a short turn's own figure is 0 or a tick.
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = mean(loaded[0]!.samples);
for (const b of loaded) {
  const m = mean(b.samples);
  process.stdout.write(
    `${b.dir} ${values.mix}: ${m.toFixed(1)} CPU µs per call (mean over ${b.samples.length} turns of ${batch}; median turn ${median(b.samples).toFixed(1)}), ${(m / base).toFixed(3)}× the first\n`,
  );
}
for (const b of loaded) await b.close();
