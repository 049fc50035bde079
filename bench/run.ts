// `npm run bench`: runs the benchmarks and profiles the server under load, prints a table of figures against their targets, writes JSON.
// `npm run bench -- --quick` is the CI smoke run: tiny sizes, seconds, asserts nothing about time.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { benchAudit } from './audit-durability.ts';
import { benchHookCost } from './hook-cost.ts';
import { benchHttp } from './http-throughput.ts';
import { benchLongPoll } from './long-poll.ts';
import { benchMcpGateway } from './mcp-gateway.ts';
import { benchProfile } from './profile.ts';
import type { BenchOptions, BenchResult } from './lib/result.ts';
import { markdownTable, textTable } from './lib/table.ts';
import { benchRules } from './rule-scaling.ts';
import { benchShellFallback } from './shell-analysis.ts';
import { buildIfStale } from './lib/processes.ts';

type Bench = (options: BenchOptions) => Promise<BenchResult>;

/** The shell engineer's `bench/shell.ts` when it exists; our own measurement through loadShellAnalyzer otherwise. */
async function shellBench(): Promise<Bench> {
  if (!existsSync(new URL('./shell.ts', import.meta.url))) return benchShellFallback;
  const mod = (await import(new URL('./shell.ts', import.meta.url).href)) as { benchShell?: Bench };
  return mod.benchShell ?? benchShellFallback;
}

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string', default: 'bench/results/latest.json' },
    markdown: { type: 'string' },
  },
});

const all: [string, () => Promise<Bench>][] = [
  ['http', async () => benchHttp],
  ['rules', async () => benchRules],
  ['shell', shellBench],
  ['longpoll', async () => benchLongPoll],
  ['audit', async () => benchAudit],
  ['hook', async () => benchHookCost],
  ['mcp', async () => benchMcpGateway],
  // Where the server's CPU goes under the repeated and the unique mix (by area and function), so the next change
  // starts from data: bench/results/profile-{repeated,unique}.txt.
  ['profile', async () => benchProfile],
];
const only = values.only?.split(',').map((s) => s.trim());
const selected = all.filter(([name]) => !only || only.includes(name));
const options: BenchOptions = { quick: values.quick === true, log: (line) => process.stderr.write(`${line}\n`) };

// The servers and the hook run bin/toolgate.js, which runs dist/: build first when dist/ is older than src/, so
// the figures are those of the code in the checkout.
if (buildIfStale()) options.log('▶ built dist/ (it was older than src/)');

const results: BenchResult[] = [];
for (const [name, load] of selected) {
  options.log(`▶ ${name}${options.quick ? ' (quick)' : ''}`);
  const started = performance.now();
  try {
    results.push(await (await load())(options));
  } catch (error) {
    results.push({ bench: name, figures: [], error: (error as Error)?.stack ?? String(error) });
  }
  options.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const figures = results.flatMap((r) => r.figures);
const errors = results.filter((r) => r.error);
const failing = figures.filter((f) => f.ok === false);
process.stdout.write(`\n${textTable(figures)}\n`);
for (const r of errors) process.stdout.write(`\n${r.bench}: did not run: ${r.error}\n`);
process.stdout.write(
  `\n${figures.filter((f) => f.ok !== undefined).length - failing.length}/${figures.filter((f) => f.ok !== undefined).length} targets hold${options.quick ? ' (quick run: sizes too small for the targets to mean anything)' : ''}; ${errors.length} benchmark(s) failed to run\n`,
);

const report = {
  date: new Date().toISOString(),
  quick: options.quick,
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadavg: loadavg() },
  figures,
  results,
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(values.out!, JSON.stringify(report, null, 2));
process.stdout.write(`JSON: ${values.out}\n`);
if (values.markdown) {
  const profiles =
    (results.find((r) => r.bench === 'profile')?.raw as { summaries?: Record<string, string> } | undefined)
      ?.summaries ?? {};
  const profileText = Object.entries(profiles)
    .map(
      ([name, text]) =>
        `\n**Server profile, ${name} mix** (\`bench/profile.ts\`; top of bench/results/profile-${name}.txt):\n\n\`\`\`\n${text.split('\n\ninclusive time:')[0]}\n\`\`\`\n`,
    )
    .join('');
  writeFileSync(values.markdown, `${markdownTable(figures)}\n${profileText}`);
  process.stdout.write(`Markdown: ${values.markdown}\n`);
}
// The smoke run only asks that everything ran; the full run also asks that every target holds.
process.exitCode = errors.length > 0 || (!options.quick && failing.length > 0) ? 1 : 0;
