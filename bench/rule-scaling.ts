// Benchmark 2: the cost of one decision with 10, 100, 1k and 10k rules, in-process on decide() + compilePolicy.
import { homedir } from 'node:os';
import { buildAliasIndex } from '../src/engine/catalog/tool-aliases.ts';
import { decide, type DecideRequest, type EngineContext } from '../src/engine/decide.ts';
import { compilePolicy, type Policy } from '../src/engine/rules/policy.ts';
import { loadShellAnalyzer } from '../src/service/bash-language.ts';
import { realpathIfExists } from '../src/service/toolgate.ts';
import { MIX, PROJECT } from './lib/mix.ts';
import { atMost, info, type BenchOptions, type BenchResult } from './lib/result.ts';
import { ruleSet } from './lib/rule-set.ts';
import { meanCostUs, median, round3 } from './lib/stats.ts';

const BENCH = 'rules';
const SIZES = [10, 100, 1000, 10_000] as const;

/** The mix as engine requests (non-interactive, like the HTTP benchmark). */
function requests(): DecideRequest[] {
  return MIX.map((template) => {
    const text = JSON.stringify(template).split('@N@').join('x');
    const call = JSON.parse(text) as { tool: string; args: unknown };
    return {
      call: { tool: call.tool, args: call.args, agentId: 'bench-agent', sessionId: 'bench-session', cwd: PROJECT },
      interactive: false,
    };
  });
}

export async function benchRules(options: BenchOptions): Promise<BenchResult> {
  const home = homedir();
  const aliases = buildAliasIndex();
  const engine: EngineContext = {
    operatorMode: 'default',
    askFallback: 'deny',
    home,
    aliases,
    analyzer: await loadShellAnalyzer({ home }),
    realpath: realpathIfExists,
  };
  const calls = requests();
  const policies = new Map<number, Policy>();
  const compileMs = new Map<number, number>();
  for (const size of SIZES) {
    const rules = ruleSet(size);
    const t0 = performance.now();
    const policy = compilePolicy(rules, aliases, home, 1);
    compileMs.set(size, performance.now() - t0);
    if (policy.errors.length)
      throw new Error(`generated rules did not compile: ${policy.errors.map((e) => e.message).join('; ')}`);
    policies.set(size, policy);
  }
  // Same verdicts at every size: the generated rules never match the mix, so only their cost differs.
  const reference = calls.map((c) => decide(c, policies.get(10)!, engine).decision).join(',');
  for (const size of SIZES) {
    const got = calls.map((c) => decide(c, policies.get(size)!, engine).decision).join(',');
    if (got !== reference) throw new Error(`verdicts differ at ${size} rules: ${got} vs ${reference}`);
  }
  const oneMix = (policy: Policy) => () => {
    for (const c of calls) decide(c, policy, engine);
  };
  const ms = options.quick ? 50 : 400;
  const rounds = options.quick ? 1 : 5;
  for (const size of SIZES) meanCostUs(oneMix(policies.get(size)!), ms, 5); // warm-up
  const samples = new Map<number, number[]>(SIZES.map((s) => [s, []]));
  for (let r = 0; r < rounds; r++) {
    // Interleaved sizes: machine drift hits them alike.
    for (const size of r % 2 ? [...SIZES].reverse() : SIZES)
      samples.get(size)!.push(meanCostUs(oneMix(policies.get(size)!), ms, 5) / calls.length);
  }
  const cost = new Map(SIZES.map((s) => [s, median(samples.get(s)!)]));
  const ratio = cost.get(10_000)! / cost.get(10)!;
  options.log(`  µs per decision: ${SIZES.map((s) => `${s} rules ${cost.get(s)!.toFixed(2)}`).join(' · ')}`);
  return {
    bench: BENCH,
    figures: [
      ...SIZES.map((s) =>
        info(
          BENCH,
          `decide() with ${s} rules`,
          round3(cost.get(s)!),
          'µs',
          `compile ${compileMs.get(s)!.toFixed(1)} ms`,
        ),
      ),
      atMost(
        BENCH,
        'cost at 10k rules vs 10 rules',
        round3(ratio),
        2,
        '×',
        `${cost.get(10_000)!.toFixed(2)} µs vs ${cost.get(10)!.toFixed(2)} µs per decision`,
      ),
    ],
    raw: {
      sizes: SIZES,
      costUs: Object.fromEntries(cost),
      samplesUs: Object.fromEntries(samples),
      compileMs: Object.fromEntries(compileMs),
      mix: calls.length,
    },
  };
}
