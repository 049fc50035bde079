// `node --max-semi-space-size=4 --import tsx bench/decide-per-call.ts [--build dist] [--mix unique|repeated] [--rounds 40]`:
// CPU per decision for each call of the bench's mix on its own, in one process, no HTTP (the service as the server
// runs it: createToolgate, a real database file, the bench's rules, audit commit included), 50 calls a turn as 50
// connections deliver them. Where decide-cpu.ts gives the mix's mean, this shows which calls cost what: a unique
// file-tool call (no shell analysis) is the cost of everything around the analyzer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_RULES, decideBody, MIX, UNIQUE } from './lib/mix.ts';
import { removeDir, ROOT } from './lib/processes.ts';

const { values } = parseArgs({
  options: {
    build: { type: 'string', default: 'dist' },
    mix: { type: 'string', default: 'unique' },
    rounds: { type: 'string', default: '40' },
  },
});
const build = pathToFileURL(resolve(ROOT, values.build) + '/').href;
const { loadConfig } = await import(`${build}config.js`);
const { createToolgate } = await import(`${build}service/toolgate.js`);
const { answerDecide } = await import(`${build}http/routes/decide.js`);
const { parseJsonText } = await import(`${build}http/body.js`);
const { DecideRequestSchema } = await import(`${build}http/schemas.js`);

const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-decide-per-call-'));
const toolgate = await createToolgate(loadConfig({ 'data-dir': dataDir }, {}));
for (const rule of BENCH_RULES)
  await toolgate.store.addRule({ effect: rule.effect, pattern: rule.pattern, risk: rule.risk ?? null });

const unique = values.mix === 'unique';
const templates = MIX.map((b) => decideBody(b, unique ? undefined : 'x'));
const rounds = Number(values.rounds);
const warm = Math.min(10, Math.floor(rounds / 4));
const batch = 50;
let counter = 0;
const noSignal = () => {
  throw new Error('no wait in this bench');
};
const call = (text: string) =>
  answerDecide(
    { toolgate },
    parseJsonText(unique ? text.split(UNIQUE).join(`c${counter++}`) : text, DecideRequestSchema),
    false,
    noSignal,
  ).then((answer: unknown) => JSON.stringify(answer));

const cpu = templates.map(() => 0);
for (let round = 0; round < rounds; round++)
  for (let i = 0; i < templates.length; i++) {
    await new Promise((r) => setImmediate(r));
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: batch }, () => call(templates[i]!)));
    const used = process.cpuUsage(before);
    if (round >= warm) cpu[i]! += (used.user + used.system) / batch / (rounds - warm);
  }

process.stdout.write(
  `${values.mix} mix, CPU µs per call (${values.build}, ${rounds - warm} turns of ${batch} each):\n`,
);
templates.forEach((text, i) => {
  const { tool, args } = JSON.parse(text) as { tool: string; args: Record<string, unknown> };
  const what = typeof args.command === 'string' ? args.command : `${tool} ${JSON.stringify(args)}`;
  process.stdout.write(`${cpu[i]!.toFixed(1).padStart(8)}  ${what.slice(0, 100)}\n`);
});
process.stdout.write(`${(cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(1).padStart(8)}  mean\n`);
await toolgate.close();
removeDir(dataDir);
