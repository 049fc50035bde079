// toolgate rules: list, add, rm, import and export the rules in the data directory's database.
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { loadConfig } from '../config.ts';
import { isPatternError, parsePattern } from '../engine/rules/rule.ts';
import { lintRule } from '../engine/rules/lint.ts';
import { rulesFromSettings, settingsFromRules } from '../engine/rules/settings.ts';
import type { Effect, Risk } from '../engine/types.ts';
import { loadShellAnalyzer } from '../service/bash-language.ts';
import { ensureDataDir, isReviewerToken } from '../service/tokens.ts';
import { openStore } from '../store/open-store.ts';
import type { Store } from '../store/types.ts';
import { parseFlags, UsageError, type Command, type Io } from './command.ts';
import { NO_REVIEWER_TOKEN, reviewerToken } from './remote.ts';
import { ruleTest } from './rules-test.ts';

const HELP = `Usage: toolgate rules <list|add|rm|import|export|test> [options]

  toolgate rules list [--json]
  toolgate rules add --effect allow|deny|ask [--risk high|medium|low] [--scope global|agent:ID|session:ID]
                     [--expires ISO-TIME] [--note TEXT] [--position N] 'PATTERN'
  toolgate rules rm ID
  toolgate rules import FILE       seed format {"permissions":{...}} or Claude Code settings.json
  toolgate rules export [FILE]     seed format, to FILE or standard output
  toolgate rules test 'PATTERN' [--effect allow] [--since 30d] [--json]
                                   replay the audit log: which past calls would this rule have decided differently?

Patterns: read_file · bash(git status) (exactly that command) · bash(git *) · bash(npm run test:*) (word prefixes)
          bash(git * main) (glob) · read_file(src/**) · web_fetch(domain:example.com)   — docs/rules.md
A running server picks up changes on its next decision. add, rm and import change the policy: they need the
reviewer token in TOOLGATE_REVIEWER_TOKEN (the reviewer's shell) or typed at the prompt.

Options:
  --data-dir DIR   where the database is (default ~/.toolgate, or TOOLGATE_DATA_DIR)
  -h, --help       this help`;

/** The subcommands that change the policy: the reviewer's to run. */
const CHANGES_POLICY: ReadonlySet<string> = new Set(['add', 'rm', 'remove', 'import']);

const EFFECTS: readonly Effect[] = ['allow', 'deny', 'ask'];
const RISKS: readonly Risk[] = ['high', 'medium', 'low'];

export const rulesCommand: Command = {
  name: 'rules',
  summary: 'list, add, remove, import and export rules',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      'data-dir': { type: 'string' },
      config: { type: 'string' },
      database: { type: 'string' },
      effect: { type: 'string' },
      risk: { type: 'string' },
      scope: { type: 'string' },
      expires: { type: 'string' },
      note: { type: 'string' },
      position: { type: 'string' },
      json: { type: 'boolean' },
      since: { type: 'string' },
    });
    const [sub, ...rest] = positionals;
    if (values.help || !sub) {
      io.out(HELP);
      return values.help ? 0 : 2;
    }
    const config = loadConfig(
      { 'data-dir': values['data-dir'], config: values.config, database: values.database },
      io.env,
    );
    // Changing the policy is the reviewer's act: the token must be given (the reviewer's shell or a prompt), never
    // taken from the data directory, so an agent running this command as the same user cannot change rules.
    if (CHANGES_POLICY.has(sub)) {
      const token = await reviewerToken(io);
      if (!token) throw new UsageError(`rules ${sub} ${NO_REVIEWER_TOKEN}`);
      // Checked against the config file's tokens and tokens.json — not against the environment that carried it.
      const { TOOLGATE_REVIEWER_TOKEN: _given, ...others } = io.env;
      const known = loadConfig(
        { 'data-dir': values['data-dir'], config: values.config, database: values.database },
        others,
      ).reviewerTokens;
      if (!isReviewerToken(token, config.dataDir, known))
        throw new UsageError(`rules ${sub}: that is not the reviewer token of ${config.dataDir}`);
    }
    if (!config.databaseUrl) ensureDataDir(config.dataDir);
    const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      switch (sub) {
        case 'list':
          return await list(store, io, values.json === true);
        case 'add':
          return await add(store, io, rest, values);
        case 'rm':
        case 'remove':
          if (rest.length !== 1) throw new UsageError('rules rm takes one rule id (see rules list)');
          if (!(await store.removeRule(rest[0]!))) {
            io.err(`no rule with id ${rest[0]}`);
            return 1;
          }
          io.out(`removed ${rest[0]}`);
          return 0;
        case 'test':
          return await ruleTest(store, config, io, rest, values);
        case 'import':
          return await importFile(store, io, rest);
        case 'export': {
          const text = JSON.stringify(settingsFromRules(await store.listRules()), null, 2) + '\n';
          if (rest[0]) writeFileSync(rest[0], text);
          else io.out(text);
          return 0;
        }
        default:
          throw new UsageError(`unknown subcommand rules ${sub} (list, add, rm, import, export, test)`);
      }
    } finally {
      await store.close();
    }
  },
};

async function list(store: Store, io: Io, json: boolean): Promise<number> {
  const rules = await store.listRules();
  if (json) {
    for (const r of rules) io.out(JSON.stringify(r));
    return 0;
  }
  if (rules.length === 0) io.out('no rules (every call goes through danger detection and the mode)');
  for (const r of rules)
    io.out(
      `${r.id}  ${r.effect.padEnd(5)} ${r.pattern}${r.risk && r.effect === 'ask' ? `  [${r.risk}]` : ''}${r.scope !== 'global' ? `  scope=${r.scope}` : ''}${r.expiresAt ? `  expires=${r.expiresAt}` : ''}${r.note ? `  # ${r.note}` : ''}`,
    );
  return 0;
}

async function add(store: Store, io: Io, rest: string[], values: Record<string, unknown>): Promise<number> {
  if (rest.length !== 1)
    throw new UsageError("rules add takes one pattern, quoted: toolgate rules add --effect deny 'bash(make *)'");
  const effect = (values.effect as string | undefined) ?? 'allow';
  if (!EFFECTS.includes(effect as Effect)) throw new UsageError(`--effect must be allow, deny or ask, not ${effect}`);
  const risk = values.risk as string | undefined;
  if (risk !== undefined && !RISKS.includes(risk as Risk))
    throw new UsageError(`--risk must be high, medium or low, not ${risk}`);
  if (risk !== undefined && effect !== 'ask') throw new UsageError('--risk applies to ask rules only');
  const scope = values.scope as string | undefined;
  if (scope !== undefined && !/^(global|agent:.+|session:.+)$/.test(scope))
    throw new UsageError('--scope must be global, agent:<id> or session:<id>');
  const expires = values.expires as string | undefined;
  if (expires !== undefined && Number.isNaN(Date.parse(expires)))
    throw new UsageError(`--expires is not a date-time: ${expires}`);
  const position = values.position === undefined ? undefined : Number(values.position);
  if (position !== undefined && (!Number.isInteger(position) || position < 1))
    throw new UsageError('--position must be a whole number ≥ 1');
  const pattern = rest[0]!;
  const parsed = parsePattern(pattern);
  if (isPatternError(parsed)) throw new UsageError(`invalid pattern ${pattern}: ${parsed.message}`);
  const analyzer = await loadShellAnalyzer({ home: homedir() });
  for (const warning of lintRule({ effect: effect as Effect, pattern }, await store.listRules(), analyzer, homedir()))
    io.err(`warning: ${warning}`);
  const rule = await store.addRule({
    effect: effect as Effect,
    pattern,
    risk: risk as Risk | undefined,
    scope,
    expiresAt: expires ? new Date(expires).toISOString() : undefined,
    note: values.note as string | undefined,
    position,
    createdBy: `cli:${process.env.USER ?? 'unknown'}`,
  });
  io.out(
    `added ${rule.id}  ${rule.effect} ${rule.pattern}${rule.risk && rule.effect === 'ask' ? `  [${rule.risk}]` : ''}`,
  );
  return 0;
}

async function importFile(store: Store, io: Io, rest: string[]): Promise<number> {
  if (rest.length !== 1) throw new UsageError('rules import takes one file');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(rest[0]!, 'utf8'));
  } catch (error) {
    io.err(`cannot read ${rest[0]}: ${(error as Error).message}`);
    return 1;
  }
  const { rules, errors } = rulesFromSettings(json);
  for (const r of rules) await store.addRule({ effect: r.effect, pattern: r.pattern, createdBy: `import:${rest[0]}` });
  io.out(`imported ${rules.length} rule(s) from ${rest[0]} (checked deny → ask → allow; each list in file order)`);
  for (const e of errors) io.err(`not imported: ${e}`);
  return errors.length > 0 && rules.length === 0 ? 1 : 0;
}
