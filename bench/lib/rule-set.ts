// Generates realistic rule sets of any size: the typical policy plus rules like the ones teams accumulate.
import type { Effect } from '../../src/engine/types.ts';
import type { Rule } from '../../src/engine/rules/rule.ts';
import { BENCH_RULES } from './mix.ts';
// The tests' seeded generator (mulberry32), so every run compiles the same rules.
import { seededRandom } from '../../test/support/random.ts';

const GIT_VERBS = ['log', 'show', 'diff', 'fetch', 'checkout', 'branch', 'tag', 'stash', 'cherry-pick', 'rebase'];

/**
 * The kinds of rules a large policy holds, each i-th instance distinct: many share a program with the calls
 * (git, npm, docker), many name their own program, paths, domains and MCP tools.
 */
const TEMPLATES: ((i: number) => string)[] = [
  (i) => `bash(git ${GIT_VERBS[i % GIT_VERBS.length]} --author=dev${i} *)`,
  (i) => `bash(npm run task-${i}:*)`,
  (i) => `Bash(npx tool-${i}:*)`,
  (i) => `bash(make target-${i} *)`,
  (i) => `bash(cli-${i} deploy *)`,
  (i) => `bash(svc-${i}:*)`,
  (i) => `bash(docker compose -p proj${i} *)`,
  (i) => `bash(kubectl delete namespace ns-${i})`,
  (i) => `read_file(/srv/data-${i}/**)`,
  (i) => `Read(./vendor/lib-${i}/**)`,
  (i) => `edit_file(src/generated-${i}/**)`,
  (i) => `write_file(~/notes/n${i}/*.md)`,
  (i) => `grep(/var/log/app-${i}/**)`,
  (i) => `web_fetch(domain:docs${i}.example.com)`,
  (i) => `mcp__server${i}__*`,
  (i) => `mcp__github__tool_${i}`,
];

/** `count` rules: the typical policy's rules spread through `count - base` generated ones, in a fixed order. */
export function ruleSet(count: number, seed = 42): Rule[] {
  const random = seededRandom(seed);
  const base = BENCH_RULES.slice(0, Math.min(count, BENCH_RULES.length));
  const generated: { effect: Effect; pattern: string; risk?: 'high' | 'medium' | 'low' }[] = [];
  for (let i = 0; generated.length < count - base.length; i++) {
    const r = random();
    const effect: Effect = r < 0.6 ? 'allow' : r < 0.8 ? 'deny' : 'ask';
    generated.push({
      effect,
      pattern: TEMPLATES[i % TEMPLATES.length]!(i),
      risk: effect === 'ask' ? 'medium' : undefined,
    });
  }
  // Spread the typical rules evenly: first-match order then matters as it would in a real list.
  const all: typeof generated = [...generated];
  base.forEach((rule, k) => all.splice(Math.floor(((k + 0.5) * all.length) / base.length) + k, 0, rule));
  return all.map((r, index) => ({
    id: `r${index}`,
    effect: r.effect,
    pattern: r.pattern,
    risk: r.effect === 'ask' ? (r.risk ?? 'medium') : null,
    scope: 'global',
    expiresAt: null,
    note: null,
    createdBy: 'bench',
    createdAt: '2025-01-01T00:00:00.000Z',
    position: index + 1,
  }));
}
