// Claude Code's documented permission-rule examples, imported with `toolgate rules import` and judged as Claude Code
// judges them (test/fixtures/claude-code/permission-examples.json); `rules export` gives back rules that judge the same.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { decide } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import type { Rule } from '../../src/engine/rules/rule.ts';
import { rulesFromSettings, settingsFromRules } from '../../src/engine/rules/settings.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { reviewerTokenIn } from '../support/reviewer-token.ts';
import { CWD, HOME, sharedAnalyzer } from '../engine/shell-support.ts';

interface Example {
  doc: string;
  permissions: Record<string, string[]>;
  judged: Record<string, 'allow' | 'ask' | 'deny'>;
}

const { examples } = JSON.parse(
  readFileSync(new URL('../fixtures/claude-code/permission-examples.json', import.meta.url), 'utf8'),
) as { examples: Example[] };
const aliases = buildAliasIndex();
const root = mkdtempSync(join(tmpdir(), 'toolgate-claude-examples-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function importWithCli(example: Example, index: number): Promise<Rule[]> {
  const dir = join(root, `example-${index}`);
  const file = join(root, `settings-${index}.json`);
  writeFileSync(file, JSON.stringify({ permissions: example.permissions }));
  const err: string[] = [];
  const code = await main(['rules', 'import', '--data-dir', dir, file], {
    out: () => {},
    err: (t) => void err.push(t),
    env: { TOOLGATE_REVIEWER_TOKEN: reviewerTokenIn(dir) },
  });
  assert.equal(code, 0, err.join('\n'));
  assert.deepEqual(err, [], 'every documented rule imports');
  const store = openSqliteStore(join(dir, 'toolgate.db'));
  const rules = await store.listRules();
  await store.close();
  return rules;
}

async function judgeAll(rules: readonly Rule[], judged: Example['judged']): Promise<Record<string, string>> {
  const policy = compilePolicy(rules, aliases, HOME);
  const engine = {
    operatorMode: 'strict' as const,
    askFallback: 'deny' as const,
    home: HOME,
    aliases,
    analyzer: await sharedAnalyzer(),
  };
  const got: Record<string, string> = {};
  for (const command of Object.keys(judged))
    got[command] = decide({ call: { tool: 'Bash', args: { command }, cwd: CWD } }, policy, engine).decision;
  return got;
}

describe("Claude Code's documented rule examples, imported and judged as Claude Code judges them", () => {
  examples.forEach((example, i) => {
    it(example.doc, async () => {
      const rules = await importWithCli(example, i);
      assert.deepEqual(await judgeAll(rules, example.judged), example.judged);
      // Exported and read back, the rules judge the same.
      const again = rulesFromSettings(settingsFromRules(rules)).rules.map((r, n) => ({
        ...rules[0]!,
        id: `x${n}`,
        effect: r.effect,
        pattern: r.pattern,
        position: n + 1,
      }));
      assert.deepEqual(await judgeAll(again, example.judged), example.judged);
    });
  });
});
