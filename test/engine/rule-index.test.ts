// The rule index answers exactly what a linear scan of every rule answers (the index only skips rules that cannot match).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import micromatch from 'micromatch';
import { buildAliasIndex, canonicalTool } from '../../src/engine/catalog/tool-aliases.ts';
import { compileSpec, type MatchSubject } from '../../src/engine/rules/matcher.ts';
import { compilePolicy, type MatchScope } from '../../src/engine/rules/policy.ts';
import { isPatternError, parsePattern, ruleInScope, type Rule } from '../../src/engine/rules/rule.ts';
import type { Effect } from '../../src/engine/types.ts';
import { seededRandom } from '../support/random.ts';

const HOME = '/home/tester';
const aliases = buildAliasIndex();

/** The reference: every rule in declaration order, with the matching rules of docs/rules.md. */
function linearFirstMatch(
  rules: Rule[],
  effect: Effect,
  tool: string,
  subject: MatchSubject,
  scope: MatchScope,
): Rule | undefined {
  for (const rule of [...rules].sort((a, b) => a.position - b.position)) {
    if (rule.effect !== effect || !ruleInScope(rule, scope.agentId, scope.sessionId, scope.now)) continue;
    const parsed = parsePattern(rule.pattern);
    if (isPatternError(parsed)) continue;
    const alias = /[*?]/.test(parsed.tool) ? undefined : canonicalTool(parsed.tool, aliases);
    const toolMatches = alias
      ? alias.canonical.toLowerCase() === tool.toLowerCase()
      : micromatch.isMatch(tool.toLowerCase(), parsed.tool.toLowerCase());
    if (!toolMatches) continue;
    const kind = alias ? alias.kind : 'any';
    const spec = parsed.spec === undefined ? undefined : compileSpec(parsed.spec, kind, HOME);
    if (spec && kind === 'shell' && spec.key !== undefined) {
      // Command patterns with a literal first word name the program the command starts with (exact, prefix or glob;
      // the word-sequence patterns that matched anywhere are gone: docs/rules.md).
      if ((subject.words ?? [])[0] !== spec.key) continue;
    }
    if (!spec || spec.test(subject)) return rule;
  }
  return undefined;
}

const PATTERNS = [
  'bash',
  'Bash(git *)',
  'bash(git log *)',
  'bash(git log --oneline *)',
  'bash(git lo*)',
  'bash(git*)',
  'bash(*git*)',
  'bash(git push --force *)',
  'bash(git:*)',
  'bash(git commit:*)',
  'bash(npm run test:*)',
  'bash(npm run *)',
  'bash(npm run test *)',
  'bash(npm  run *)',
  'bash(docker)',
  'bash(docker rm)',
  'bash(rm -rf *)',
  'bash(rm -rf /)',
  'bash(sudo *)',
  'bash(a b c d e *)',
  'bash(a b c d *)',
  'bash(a b c *)',
  'bash(a b c d e f)',
  'bash(echo *hi*)',
  'bash(make)',
  'bash(make build-*)',
  'bash(git commit -m fix *)',
  'bash(git commit -m "fix bug")',
  "bash('git log' *)",
  'bash(echo \\*)',
  'bash(* run:*)',
  'bash(git * main)',
  'bash(* --version)',
  'bash(git push:*)',
  "bash('' *)",
  'read_file',
  'Read(src/**)',
  'Read(./src/**)',
  'read_file(/etc/passwd)',
  'read_file(/etc/*)',
  'read_file(~/.config/**)',
  'read_file(**/*.env)',
  'read_file(src/{a,b}/**)',
  'read_file(/srv/data-1/**)',
  'read_file(/srv/data-1/x.txt)',
  'read_file(/srv/**/secret)',
  'read_file(.)',
  'read_file(src)',
  'edit_file(src/**)',
  'edit_file(src/*.ts)',
  'write_file(~/notes/*.md)',
  'grep(/var/log/**)',
  'list_dir(/home/tester/work/**)',
  'web_fetch',
  'web_fetch(domain:example.com)',
  'web_fetch(domain:*.example.org)',
  'web_fetch(https://example.com/*)',
  'WebFetch(domain:docs.example.com)',
  'mcp__github__*',
  'mcp__*',
  'mcp__github__get_issue',
  'mcp__github__get_*',
  '*',
  'custom_tool(*"x"*)',
];

const COMMANDS: string[][] = [
  ['git', 'status'],
  ['git', 'log'],
  ['git', 'log', '--oneline', '-n', '5'],
  ['git', 'lo'],
  ['git', 'logx'],
  ['git', 'push', '--force', 'origin'],
  ['git', 'push --force', 'origin'],
  ['git log', 'x'],
  ['git', 'commit', '-m', 'fix bug'],
  ['git', 'commit', '-m', 'fix', 'bug'],
  ['npm', 'run', 'test'],
  ['npm', 'run', 'test', '--', '-x'],
  ['npm', 'run', 'test:unit'],
  ['npm', 'run'],
  ['npm', '', 'run', 'x'],
  ['sudo', 'docker', 'ps'],
  ['docker', 'rm', 'x'],
  ['dockerfile-lint'],
  ['rm', '-rf', '/'],
  ['rm', '-rf', '/tmp/x'],
  ['a', 'b', 'c', 'd', 'e', 'f'],
  ['a', 'b', 'c', 'd', 'e'],
  ['a', 'b', 'c', 'd'],
  ['a', 'b', 'c'],
  ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
  ['echo', 'oh', 'hi'],
  ['echo'],
  ['make'],
  ['make', 'build-all'],
  ['gitx'],
  [''],
  ['x', 'git'],
];

const PATHS: [string, string | undefined][] = [
  ['/home/tester/work/p/src/a.ts', 'src/a.ts'],
  ['/home/tester/work/p/src', 'src'],
  ['/home/tester/work/p', '.'],
  ['/etc/passwd', undefined],
  ['/etc/hosts', undefined],
  ['/home/tester/.config/gh/hosts.yml', undefined],
  ['/home/tester/work/p/.env', '.env'],
  ['/home/tester/work/p/src/a/b.ts', 'src/a/b.ts'],
  ['/srv/data-1/x.txt', undefined],
  ['/srv/data-1', undefined],
  ['/srv/data-10/x', undefined],
  ['/srv/x/y/secret', undefined],
  ['/var/log/app/x.log', undefined],
  ['/home/tester/notes/a.md', undefined],
  ['/home/tester/work/deep/er/x', 'deep/er/x'],
];

const HOSTS = [
  'example.com',
  'www.example.com',
  'badexample.com',
  'example.org',
  'a.example.org',
  'docs.example.com',
  'x.docs.example.com',
  'other.net',
];

function ruleSet(seed: number, count: number): Rule[] {
  const random = seededRandom(seed);
  const effects: Effect[] = ['allow', 'deny', 'ask'];
  const scopes = ['global', 'global', 'global', 'agent:a1', 'session:s1', 'agent:a2'];
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    effect: effects[Math.floor(random() * 3)]!,
    pattern: PATTERNS[Math.floor(random() * PATTERNS.length)]!,
    risk: null,
    scope: scopes[Math.floor(random() * scopes.length)]!,
    expiresAt: random() < 0.1 ? (random() < 0.5 ? '2000-01-01T00:00:00Z' : '2999-01-01T00:00:00Z') : null,
    note: null,
    createdBy: null,
    createdAt: '2025-01-01T00:00:00Z',
    position: Math.floor(random() * 1000),
  }));
}

describe('rule index', () => {
  it('finds the same first matching rule as a linear scan, for commands, paths, hosts and other tools', () => {
    const scopes: MatchScope[] = [
      { now: Date.now() },
      { agentId: 'a1', sessionId: 's1', now: Date.now() },
      { agentId: 'a2', now: Date.now() },
    ];
    let compared = 0;
    let matched = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rules = ruleSet(seed, 5 + seed * 3);
      const policy = compilePolicy(rules, aliases, HOME);
      const check = (effect: Effect, tool: string, subject: MatchSubject, scope: MatchScope) => {
        const expected = linearFirstMatch(rules, effect, tool, subject, scope)?.id;
        const got = policy.firstMatch(effect, tool, subject, scope)?.rule.id;
        assert.equal(
          got,
          expected,
          `${effect} ${tool} ${JSON.stringify(subject)} with ${JSON.stringify(rules.map((r) => [r.id, r.effect, r.pattern, r.position, r.scope]))}`,
        );
        compared++;
        if (expected) matched++;
      };
      for (const effect of ['allow', 'deny', 'ask'] as const) {
        for (const scope of scopes) {
          check(effect, 'bash', {}, scope);
          for (const words of COMMANDS) check(effect, 'bash', { words, line: words.join(' ') }, scope);
          for (const tool of ['read_file', 'edit_file', 'write_file', 'grep', 'list_dir'])
            for (const [absPath, relPath] of PATHS) check(effect, tool, { absPath, relPath, text: '{}' }, scope);
          for (const host of HOSTS) check(effect, 'web_fetch', { url: `https://${host}/x`, host, text: '{}' }, scope);
          for (const tool of ['mcp__github__get_issue', 'mcp__github__list', 'mcp__slack__post', 'custom_tool'])
            check(effect, tool, { text: '{"q":"x"}' }, scope);
        }
      }
    }
    assert.ok(matched > compared / 10, `the cases must exercise matches too (${matched} of ${compared})`);
  });

  it('keeps first-match order across index lists: an earlier generic rule beats a later specific one', () => {
    const rules: Rule[] = [
      {
        id: 'generic',
        effect: 'allow',
        pattern: 'bash(git *)',
        risk: null,
        scope: 'global',
        expiresAt: null,
        note: null,
        createdBy: null,
        createdAt: '',
        position: 1,
      },
      {
        id: 'specific',
        effect: 'allow',
        pattern: 'bash(git log --oneline *)',
        risk: null,
        scope: 'global',
        expiresAt: null,
        note: null,
        createdBy: null,
        createdAt: '',
        position: 2,
      },
    ];
    const policy = compilePolicy(rules, aliases, HOME);
    const words = ['git', 'log', '--oneline'];
    assert.equal(policy.firstMatch('allow', 'bash', { words, line: words.join(' ') }, { now: 0 })?.rule.id, 'generic');
  });
});
