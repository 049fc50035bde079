// `node --max-semi-space-size=4 --import tsx bench/decide-per-call.ts [--build dist] [--mix unique|repeated] [--rounds 40]`:
// CPU per decision for each call of the bench's mix on its own, in one process, no HTTP (the service as the server
// runs it: createToolgate, a real database file, the bench's rules, audit commit included), 50 calls a turn as 50
// connections deliver them. Where decide-cpu.ts gives the mix's mean, this shows which calls cost what: a unique
// file-tool call (no shell analysis) is the cost of everything around the analyzer.
import { parseArgs } from 'node:util';
import { loadService } from './lib/in-process.ts';
import { decideBody, MIX, UNIQUE } from './lib/mix.ts';

const { values } = parseArgs({
  options: {
    build: { type: 'string', default: 'dist' },
    mix: { type: 'string', default: 'unique' },
    rounds: { type: 'string', default: '40' },
  },
});
const service = await loadService(values.build);

const unique = values.mix === 'unique';
const templates = MIX.map((b) => decideBody(b, unique ? undefined : 'x'));
const rounds = Number(values.rounds);
const warm = Math.min(10, Math.floor(rounds / 4));
const batch = 50;
let counter = 0;
const call = (text: string) => service.decide(unique ? text.split(UNIQUE).join(`c${counter++}`) : text);

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
await service.close();
