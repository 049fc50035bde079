// The pipeline for file tools (mode strict: what no rule covers asks): every path against the rules, and the trace.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { decide, type EngineContext } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import type { Rule } from '../../src/engine/rules/rule.ts';
import type { Effect } from '../../src/engine/types.ts';
import { sharedAnalyzer } from './shell-support.ts';

const HOME = '/home/tester';
const CWD = '/srv/app';
const aliases = buildAliasIndex();

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

async function engine(): Promise<EngineContext> {
  return { operatorMode: 'strict', askFallback: 'deny', home: HOME, aliases, analyzer: await sharedAnalyzer() };
}

const RULES = [
  rule('deny', 'read_file(**/secrets/**)', 0),
  rule('ask', 'write_file(/srv/app/config/**)', 1),
  rule('allow', 'read_file(src/**)', 2),
  rule('allow', 'write_file(src/**)', 3),
  rule('allow', 'read_file(/opt/shared/**)', 4),
];

describe('file tools through the pipeline', () => {
  const policy = compilePolicy(RULES, aliases, HOME);
  const cases: {
    name: string;
    tool: string;
    args: Record<string, unknown>;
    cwd?: string;
    decision: string;
    source: string;
    pattern?: string;
  }[] = [
    {
      name: 'a relative glob matches a path relative to the cwd',
      tool: 'Read',
      args: { file_path: `${CWD}/src/a.ts` },
      decision: 'allow',
      source: 'rule',
      pattern: 'read_file(src/**)',
    },
    {
      name: 'a relative path argument resolves against the cwd',
      tool: 'Read',
      args: { file_path: 'src/a.ts' },
      decision: 'allow',
      source: 'rule',
      pattern: 'read_file(src/**)',
    },
    {
      name: 'a path that leaves the cwd through .. is not relative to it',
      tool: 'Read',
      args: { file_path: 'src/../../other/src/a.ts' },
      decision: 'ask',
      source: 'default',
    },
    {
      name: 'a sibling directory sharing the prefix is outside the cwd',
      tool: 'Read',
      args: { file_path: '/srv/application/src/a.ts' },
      decision: 'ask',
      source: 'default',
    },
    {
      name: 'the same path from another cwd is not covered',
      tool: 'Read',
      args: { file_path: `${CWD}/src/a.ts` },
      cwd: '/srv',
      decision: 'ask',
      source: 'default',
    },
    {
      name: 'an absolute glob matches the absolute path',
      tool: 'Read',
      args: { file_path: '/opt/shared/lib/x.ts' },
      decision: 'allow',
      source: 'rule',
      pattern: 'read_file(/opt/shared/**)',
    },
    {
      name: 'an allow needs every path of the call covered',
      tool: 'Read',
      args: { paths: [`${CWD}/src/a.ts`, '/etc/hosts'] },
      decision: 'ask',
      source: 'default',
    },
    {
      name: 'an allow covering every path allows',
      tool: 'Read',
      args: { paths: [`${CWD}/src/a.ts`, '/opt/shared/b.ts'] },
      decision: 'allow',
      source: 'rule',
      pattern: 'read_file(src/**)',
    },
    {
      name: 'a deny needs only one path',
      tool: 'Read',
      args: { paths: [`${CWD}/src/a.ts`, `${CWD}/secrets/key`] },
      decision: 'deny',
      source: 'rule',
      pattern: 'read_file(**/secrets/**)',
    },
    {
      name: 'an ask rule matches after the allows fail',
      tool: 'Write',
      args: { file_path: 'config/app.json', content: '' },
      decision: 'ask',
      source: 'rule',
      pattern: 'write_file(/srv/app/config/**)',
    },
    {
      name: 'a write covered by its relative glob',
      tool: 'Write',
      args: { file_path: './src/new.ts', content: '' },
      decision: 'allow',
      source: 'rule',
      pattern: 'write_file(src/**)',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const v = decide({ call: { tool: c.tool, args: c.args, cwd: c.cwd ?? CWD } }, policy, await engine());
      assert.equal(v.decision, c.decision, v.reason);
      assert.equal(v.source, c.source, v.reason);
      assert.equal(v.rule?.pattern, c.pattern);
    });
  }
});

describe('the trace', () => {
  const policy = compilePolicy(RULES, aliases, HOME);
  it('is built only when the request asks to explain', async () => {
    const call = { tool: 'Read', args: { file_path: `${CWD}/src/a.ts` }, cwd: CWD };
    const quiet = decide({ call }, policy, await engine());
    assert.equal(quiet.trace, undefined);
    const explained = decide({ call, explain: true }, policy, await engine());
    // Ask rules now come before allow rules (Claude Code's order, issue 22): the trace passes ask_rules first.
    assert.deepEqual(
      explained.trace?.map((s) => `${s.stage} ${s.outcome}`),
      [
        'normalize passed',
        'protected_path passed',
        'deny_rules passed',
        'read_only skipped',
        'ask_rules passed',
        'allow_rules decided',
      ],
    );
    assert.equal(explained.trace?.[5]?.detail, 'covered by read_file(src/**)');
  });
  it('tells the protected path that decided', async () => {
    const v = decide(
      { call: { tool: 'Read', args: { file_path: '~/.ssh/id_rsa' }, cwd: CWD }, explain: true },
      policy,
      await engine(),
    );
    assert.equal(v.decision, 'deny');
    assert.deepEqual(v.trace, [
      { stage: 'normalize', outcome: 'passed', detail: 'tool Read → read_file; paths: ~/.ssh/id_rsa' },
      { stage: 'protected_path', outcome: 'decided', detail: '~/.ssh/id_rsa: SSH private keys and authorized_keys' },
    ]);
  });
  it('reads ~/.ssh/config but never writes it, and the keys beside it stay protected (issue 26, round 4)', async () => {
    const judge = async (tool: string, args: Record<string, unknown>) =>
      decide({ call: { tool, args, cwd: CWD } }, policy, await engine());
    // (Mode strict: a read no rule covers asks; the point is that no protected path denies it.)
    assert.notEqual((await judge('Read', { file_path: '~/.ssh/config' })).source, 'protected_path');
    assert.equal((await judge('Read', { file_path: '~/.ssh/id_ed25519' })).source, 'protected_path');
    assert.equal((await judge('Read', { file_path: '~/.ssh/config.d/work' })).source, 'protected_path');
    const write = await judge('Write', { file_path: '~/.ssh/config', content: 'Host *\n  ProxyCommand sh -c x\n' });
    assert.equal(write.decision, 'deny');
    assert.equal(write.source, 'protected_path');
    const edit = await judge('Edit', { file_path: '~/.ssh/config', old_string: 'a', new_string: 'b' });
    assert.equal(edit.source, 'protected_path');
  });
  it('follows an ask through the mode to the fallback', async () => {
    const v = decide(
      {
        call: { tool: 'Write', args: { file_path: 'config/app.json', content: '' }, cwd: CWD },
        explain: true,
        interactive: false,
      },
      policy,
      await engine(),
    );
    assert.deepEqual(
      v.trace?.slice(-3).map((s) => `${s.stage} ${s.outcome}`),
      ['ask_rules decided', 'mode passed', 'fallback decided'],
    );
  });
});

describe('verdict shape', () => {
  const policy = compilePolicy(RULES, aliases, HOME);
  it('names a rule only where a stage gave one', async () => {
    const ctx = await engine();
    const protectedDeny = decide(
      { call: { tool: 'Read', args: { file_path: '~/.ssh/id_rsa' }, cwd: CWD } },
      policy,
      ctx,
    );
    assert.deepEqual(Object.keys(protectedDeny), [
      'decision',
      'reason',
      'risk',
      'source',
      'findings',
      'mode',
      'call',
      'analysis',
      'needsHuman',
      'trace',
    ]);
    const allowed = decide({ call: { tool: 'Read', args: { file_path: 'src/a.ts' }, cwd: CWD } }, policy, ctx);
    assert.deepEqual(Object.keys(allowed), [
      'decision',
      'reason',
      'risk',
      'source',
      'rule',
      'findings',
      'mode',
      'call',
      'analysis',
      'needsHuman',
      'trace',
    ]);
    assert.deepEqual(allowed.rule, { id: 'r2', pattern: 'read_file(src/**)', effect: 'allow' });
  });
});
