// toolgate rules test: replays the audit log against a rule before it is saved (see service/rule-preview.ts).
import { homedir } from 'node:os';
import { extraProtectedPaths, type Config } from '../config.ts';
import { buildAliasIndex } from '../engine/catalog/tool-aliases.ts';
import { isPatternError, parsePattern } from '../engine/rules/rule.ts';
import type { Effect, Risk } from '../engine/types.ts';
import { loadShellAnalyzer } from '../service/bash-language.ts';
import { previewRule } from '../service/rule-preview.ts';
import { timeBound } from '../service/time-bound.ts';
import { realpathIfExists } from '../service/toolgate.ts';
import type { Store } from '../store/types.ts';
import { UsageError, type Io } from './command.ts';

/** Flags `rules test` reads. */
export interface RuleTestFlags {
  effect?: string;
  risk?: string;
  scope?: string;
  since?: string;
  json?: boolean;
}

/** Runs `toolgate rules test 'PATTERN' [--effect allow] [--since 30d] [--json]`; exit 0 (it only reports). */
export async function ruleTest(
  store: Store,
  config: Config,
  io: Io,
  rest: string[],
  flags: RuleTestFlags,
): Promise<number> {
  if (rest.length !== 1)
    throw new UsageError(
      "rules test takes one pattern, quoted: toolgate rules test 'bash(git *)' --effect allow --since 30d",
    );
  const pattern = rest[0]!;
  const parsed = parsePattern(pattern);
  if (isPatternError(parsed)) throw new UsageError(`invalid pattern ${pattern}: ${parsed.message}`);
  const effect = (flags.effect ?? 'allow') as Effect;
  if (!['allow', 'deny', 'ask'].includes(effect))
    throw new UsageError(`--effect must be allow, deny or ask, not ${effect}`);
  if (flags.risk !== undefined && !['high', 'medium', 'low'].includes(flags.risk))
    throw new UsageError(`--risk must be high, medium or low, not ${flags.risk}`);
  const since = timeBound(flags.since ?? '30d');
  if (!since) throw new UsageError(`--since must be an ISO date-time or a duration such as 30d, not ${flags.since}`);
  const home = config.agentHome ?? homedir();
  const aliases = buildAliasIndex(config.aliases);
  const engine = {
    operatorMode: config.mode,
    askFallback: config.askFallback,
    home,
    dataDir: config.dataDir,
    extraProtected: extraProtectedPaths(config),
    aliases,
    analyzer: await loadShellAnalyzer({ home }),
    realpath: realpathIfExists,
    readOnlyTools: config.readOnlyTools,
  };
  const preview = await previewRule(
    { store, engine, rules: await store.listRules() },
    { effect, pattern, risk: flags.risk as Risk | undefined, scope: flags.scope },
    { since, examples: 10 },
  );
  if (flags.json) {
    io.out(JSON.stringify(preview));
    return 0;
  }
  io.out(preview.summary);
  for (const c of preview.changes) io.out(`  ${c.from} → ${c.to}: ${c.count}`);
  for (const e of preview.examples)
    io.out(
      `  #${e.seq} ${e.ts}  ${e.before} → ${e.after}  ${e.subject}  (recorded ${e.recorded}${e.agent_id ? `, agent ${e.agent_id}` : ''})`,
    );
  if (preview.truncated) io.out(`  (only the newest ${preview.scanned} decisions were replayed)`);
  return 0;
}
