// Rule patterns, matchers and the compiled policy: order, scope, expiry and the index.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { compileCommandSpec } from '../../src/engine/rules/matcher.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import { isPatternError, parsePattern, type Rule } from '../../src/engine/rules/rule.ts';
import type { Effect } from '../../src/engine/types.ts';

const aliases = buildAliasIndex();
const words = (line: string) => ({ words: line.split(' '), line });

function rule(effect: Effect, pattern: string, position: number, extra: Partial<Rule> = {}): Rule {
  return {
    id: `r${position}`,
    effect,
    pattern,
    risk: effect === 'ask' ? 'medium' : null,
    scope: 'global',
    expiresAt: null,
    note: null,
    createdBy: null,
    createdAt: '2026-01-01T00:00:00Z',
    position,
    ...extra,
  };
}

describe('rule patterns', () => {
  it('parses a bare tool and a tool with a spec', () => {
    assert.deepEqual(parsePattern('read_file'), { tool: 'read_file', spec: undefined });
    assert.deepEqual(parsePattern('bash(git *)'), { tool: 'bash', spec: 'git *' });
    assert.deepEqual(parsePattern('Bash(npm run test:*)'), { tool: 'Bash', spec: 'npm run test:*' });
  });
  it('reports malformed patterns as values', () => {
    assert.ok(isPatternError(parsePattern('bash(')));
    assert.ok(isPatternError(parsePattern('bash()')));
    assert.ok(isPatternError(parsePattern('')));
  });
});

describe('command specs', () => {
  it('a trailing " *" also matches the bare command', () => {
    const m = compileCommandSpec('git *');
    assert.ok(m.test(words('git status')));
    assert.ok(m.test(words('git')));
    assert.ok(!m.test(words('gitk')));
  });
  it('a Claude-style prefix matches whole words only', () => {
    const m = compileCommandSpec('npm run test:*');
    assert.ok(m.test(words('npm run test')));
    assert.ok(m.test(words('npm run test -- --watch')));
    assert.ok(!m.test(words('npm run testing')));
  });
  // Changed on purpose (issue 22): a spec without wildcard was a word sequence matching anywhere in a command, so an
  // allow of `git status` covered `rm -rf ~/x git status`. It is now the exact command, as in Claude Code.
  it('a spec without wildcard is the exact command, not a word sequence or a substring', () => {
    const m = compileCommandSpec('docker');
    assert.ok(m.test(words('docker')));
    assert.ok(!m.test(words('sudo docker ps')));
    assert.ok(!m.test(words('docker ps')));
    assert.ok(!m.test(words('dockerfile-lint')));
    const seq = compileCommandSpec('git push');
    assert.ok(seq.test(words('git push')));
    assert.ok(!seq.test(words('git push origin main')));
    assert.ok(!seq.test(words('git log push')));
  });
  it('a glob in the middle matches any characters', () => {
    const m = compileCommandSpec('*go test*');
    assert.ok(m.test(words('cd x && go test ./...')));
    assert.ok(!m.test(words('go build')));
  });
});

describe('compiled policy', () => {
  it('returns the first rule of an effect in declaration order', () => {
    const policy = compilePolicy(
      [rule('allow', 'bash(git *)', 2), rule('allow', 'bash(git status)', 1)],
      aliases,
      '/home/u',
    );
    assert.equal(policy.firstMatch('allow', 'bash', words('git status'), { now: 0 })?.rule.id, 'r1');
    assert.equal(policy.firstMatch('allow', 'bash', words('git log'), { now: 0 })?.rule.id, 'r2');
  });
  it('matches tool names through the alias table, case-insensitively', () => {
    const policy = compilePolicy([rule('deny', 'Bash(rm:*)', 1), rule('allow', 'Read', 2)], aliases, '/home/u');
    assert.ok(policy.firstMatch('deny', 'bash', words('rm -rf x'), { now: 0 }));
    assert.ok(policy.firstMatch('allow', 'read_file', { absPath: '/x' }, { now: 0 }));
  });
  it('matches tool-name globs', () => {
    const policy = compilePolicy([rule('allow', 'mcp__github__*', 1)], aliases, '/home/u');
    assert.ok(policy.firstMatch('allow', 'mcp__github__create_issue', { text: '{}' }, { now: 0 }));
    assert.ok(!policy.firstMatch('allow', 'mcp__slack__post', { text: '{}' }, { now: 0 }));
  });
  it('path globs match the absolute and the cwd-relative path, with ~ expanded', () => {
    const policy = compilePolicy(
      [rule('deny', 'read_file(./secrets/**)', 1), rule('allow', 'read_file(~/notes/*)', 2)],
      aliases,
      '/home/u',
    );
    assert.ok(
      policy.firstMatch('deny', 'read_file', { absPath: '/p/secrets/a.txt', relPath: 'secrets/a.txt' }, { now: 0 }),
    );
    assert.ok(policy.firstMatch('allow', 'read_file', { absPath: '/home/u/notes/x.md' }, { now: 0 }));
    assert.ok(!policy.firstMatch('allow', 'read_file', { absPath: '/home/u/other/x.md' }, { now: 0 }));
  });
  it('domain specs match the host and its subdomains', () => {
    const policy = compilePolicy([rule('allow', 'web_fetch(domain:example.com)', 1)], aliases, '/home/u');
    assert.ok(
      policy.firstMatch(
        'allow',
        'web_fetch',
        { url: 'https://docs.example.com/x', host: 'docs.example.com' },
        { now: 0 },
      ),
    );
    assert.ok(
      !policy.firstMatch(
        'allow',
        'web_fetch',
        { url: 'https://example.com.evil.io/', host: 'example.com.evil.io' },
        { now: 0 },
      ),
    );
  });
  it('respects scope and expiry', () => {
    const policy = compilePolicy(
      [
        rule('allow', 'bash(make *)', 1, { scope: 'agent:builder' }),
        rule('allow', 'bash(npm *)', 2, { scope: 'session:s1' }),
        rule('allow', 'bash(ls *)', 3, { expiresAt: '2026-01-01T00:00:00Z' }),
      ],
      aliases,
      '/home/u',
    );
    assert.ok(policy.firstMatch('allow', 'bash', words('make all'), { agentId: 'builder', now: 0 }));
    assert.ok(!policy.firstMatch('allow', 'bash', words('make all'), { agentId: 'other', now: 0 }));
    assert.ok(policy.firstMatch('allow', 'bash', words('npm test'), { sessionId: 's1', now: 0 }));
    assert.ok(!policy.firstMatch('allow', 'bash', words('npm test'), { sessionId: 's2', now: 0 }));
    assert.ok(policy.firstMatch('allow', 'bash', words('ls -la'), { now: Date.parse('2025-12-31T00:00:00Z') }));
    assert.ok(!policy.firstMatch('allow', 'bash', words('ls -la'), { now: Date.parse('2026-01-02T00:00:00Z') }));
  });
  it('keeps bad patterns out and reports them', () => {
    const policy = compilePolicy([rule('allow', 'bash(', 1), rule('allow', 'bash(ls *)', 2)], aliases, '/home/u');
    assert.equal(policy.errors.length, 1);
    assert.ok(policy.firstMatch('allow', 'bash', words('ls'), { now: 0 }));
  });
  it('finds the right rule among ten thousand by its index', () => {
    const rules: Rule[] = [];
    for (let i = 0; i < 10_000; i++) rules.push(rule('allow', `bash(tool${i} run *)`, i + 1));
    // `docker *` (not `docker`, which is now the bare command only); the pipeline meets `sudo docker ps` unwrapped.
    rules.push(rule('deny', 'bash(docker *)', 10_001));
    const policy = compilePolicy(rules, aliases, '/home/u');
    assert.equal(
      policy.firstMatch('allow', 'bash', words('tool9876 run x'), { now: 0 })?.rule.pattern,
      'bash(tool9876 run *)',
    );
    assert.equal(policy.firstMatch('deny', 'bash', words('docker ps'), { now: 0 })?.rule.pattern, 'bash(docker *)');
    assert.equal(policy.firstMatch('allow', 'bash', words('tool9876 build'), { now: 0 }), undefined);
  });
});
