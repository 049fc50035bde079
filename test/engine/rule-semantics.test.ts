// The rule semantics table of docs/rules.md, row by row, through the real pipeline; the order deny → ask → allow; and
// the bypasses of issue 22 (an allow of `git status` covering `rm -rf ~/x git status`, `sudo git status`, …).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { decide, type EngineContext, type Verdict } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import type { Rule } from '../../src/engine/rules/rule.ts';
import type { Effect, Mode } from '../../src/engine/types.ts';
import { CWD, HOME, sharedAnalyzer } from './shell-support.ts';

const aliases = buildAliasIndex();

function rules(list: [Effect, string][]): Rule[] {
  return list.map(([effect, pattern], i) => ({
    id: `r${i}`,
    effect,
    pattern,
    risk: effect === 'ask' ? 'medium' : null,
    scope: 'global',
    expiresAt: null,
    note: null,
    createdBy: null,
    createdAt: '2026-01-01T00:00:00Z',
    position: i + 1,
  }));
}

async function judge(list: [Effect, string][], command: string, mode: Mode = 'strict'): Promise<Verdict> {
  const engine: EngineContext = {
    operatorMode: mode,
    askFallback: 'deny',
    home: HOME,
    aliases,
    analyzer: await sharedAnalyzer(),
  };
  return decide(
    { call: { tool: 'Bash', args: { command }, cwd: CWD } },
    compilePolicy(rules(list), aliases, HOME),
    engine,
  );
}

/** Whether an allow rule with this spec covers the command (strict mode: a command no rule covers asks). */
async function allowedBy(spec: string, command: string): Promise<boolean> {
  const v = await judge([['allow', `Bash(${spec})`]], command);
  return v.decision === 'allow' && v.source === 'rule';
}

// spec → commands it matches, commands it does not. One row per line of the table in docs/rules.md.
const TABLE: { spec: string; kind: string; matches: string[]; misses: string[] }[] = [
  {
    spec: 'git status',
    kind: 'exact: the command, word for word, after quote removal',
    matches: ['git status', 'git  status', "git 'status'", '"git" status'],
    misses: [
      'git status --porcelain',
      'sudo git status',
      'rm -rf ~/x git status',
      'echo git status',
      'git',
      'git statusx',
    ],
  },
  {
    spec: 'git commit -m "fix bug"',
    kind: 'exact: quotes in the spec are removed as in the command',
    matches: ['git commit -m "fix bug"', "git commit -m 'fix bug'"],
    misses: ['git commit -m fix bug', 'git commit -m "fix bug" --amend'],
  },
  {
    spec: 'npm run test:*',
    kind: 'prefix (legacy `:*`): at a word boundary, the bare prefix included',
    matches: ['npm run test', 'npm run test -- --watch', 'npm run test --coverage'],
    misses: ['npm run testing', 'npm run test:unit', 'npm run lint', 'sudo npm run test'],
  },
  {
    spec: 'git *',
    kind: 'prefix (a trailing ` *`, the only star): the bare command too',
    matches: ['git', 'git log', 'git log --oneline -n 5'],
    misses: ['gitk', 'sudo git log', 'echo git log'],
  },
  {
    spec: 'git * main',
    kind: 'glob: `*` is any text, spaces included',
    matches: ['git push origin main', 'git merge main'],
    misses: ['git main', 'git push origin main --force', 'git push origin mainline'],
  },
  {
    spec: 'ls*',
    kind: 'glob: no space before the star, so no word boundary',
    matches: ['ls', 'ls -la', 'lsof'],
    misses: ['echo ls'],
  },
  { spec: 'ls *', kind: 'prefix: the space before the star matters', matches: ['ls', 'ls -la'], misses: ['lsof'] },
  {
    spec: '* --version',
    kind: 'glob: a leading star',
    matches: ['node --version', 'npm --version'],
    misses: ['node --version --verbose', 'node -v'],
  },
  {
    spec: '* run *',
    kind: 'glob: two stars, so the trailing one is not optional',
    matches: ['npm run build', 'pnpm run test'],
    misses: ['npm run', 'npm runx build'],
  },
  {
    spec: 'echo \\*',
    kind: 'exact: an escaped star is a literal `*`',
    matches: ["echo '*'", 'echo \\*'],
    misses: ['echo hi', 'echo'],
  },
  { spec: "echo '*'", kind: 'exact: a quoted star is a literal `*`', matches: ["echo '*'"], misses: ['echo hi'] },
];

describe('the rule semantics table (docs/rules.md), through the pipeline', () => {
  for (const row of TABLE) {
    it(`Bash(${row.spec}) — ${row.kind}`, async () => {
      for (const command of row.matches)
        assert.ok(await allowedBy(row.spec, command), `Bash(${row.spec}) must allow ${command}`);
      for (const command of row.misses)
        assert.ok(!(await allowedBy(row.spec, command)), `Bash(${row.spec}) must not allow ${command}`);
    });
  }

  it('every simple command of a compound command must be covered (Claude Code: `safe-cmd *` does not allow `safe-cmd && other-cmd`)', async () => {
    assert.ok(await allowedBy('safe-cmd *', 'safe-cmd --flag'));
    assert.ok(!(await allowedBy('safe-cmd *', 'safe-cmd && other-cmd')));
    assert.ok(!(await allowedBy('git status', 'git status; rm -rf ~/x')));
    const both = await judge(
      [
        ['allow', 'Bash(git status)'],
        ['allow', 'Bash(git log *)'],
      ],
      'git status && git log -n 1',
    );
    assert.equal(both.decision, 'allow', both.reason);
  });

  it('Bash(*) is every command, as a bare Bash is', async () => {
    assert.ok(await allowedBy('*', 'make all'));
  });
});

describe('an allow without wildcard no longer silences what it does not name (issue 22)', () => {
  const bypasses = ['rm -rf ~/x git status', 'find . -delete -name git status', 'sudo git status'];
  for (const command of bypasses) {
    it(`${command}: decided as without the rule`, async () => {
      const without = await judge([], command, 'default');
      const withRule = await judge([['allow', 'bash(git status)']], command, 'default');
      assert.notEqual(without.decision, 'allow', `${command} must not be allowed on its own: ${without.reason}`);
      assert.equal(withRule.decision, without.decision, withRule.reason);
      assert.equal(withRule.source, without.source, withRule.reason);
      assert.equal(withRule.rule, undefined);
    });
  }
  it('control: git status itself is allowed by the rule', async () => {
    const v = await judge([['allow', 'bash(git status)']], 'git status', 'strict');
    assert.equal(v.decision, 'allow');
    assert.equal(v.rule?.pattern, 'bash(git status)');
  });
});

describe('order: deny, then ask, then allow (Claude Code)', () => {
  const imported: [Effect, string][] = [
    ['ask', 'Bash(git push *)'],
    ['allow', 'Bash(git *)'],
  ];

  it('an ask rule asks even when an allow rule matches too', async () => {
    const v = await judge(imported, 'git push origin main', 'default');
    assert.equal(v.decision, 'ask', v.reason);
    assert.equal(v.rule?.pattern, 'Bash(git push *)');
  });

  it('control: what only the allow rule matches is allowed', async () => {
    const v = await judge(imported, 'git log --oneline', 'strict');
    assert.equal(v.decision, 'allow', v.reason);
    assert.equal(v.rule?.pattern, 'Bash(git *)');
  });

  it('the ask is not dodged by a wrapper, and the allow does not cover the wrapped form', async () => {
    for (const command of ['sudo git push origin main', 'env GIT_TRACE=1 git push', "bash -c 'git push origin main'"]) {
      const v = await judge(imported, command, 'default');
      assert.equal(v.decision, 'ask', `${command}: ${v.reason}`);
    }
  });

  it('a deny beats an allow that names the command exactly (Claude Code: deny Bash(aws *), allow Bash(aws s3 ls))', async () => {
    const v = await judge(
      [
        ['allow', 'Bash(aws s3 ls)'],
        ['deny', 'Bash(aws *)'],
      ],
      'aws s3 ls',
    );
    assert.equal(v.decision, 'deny');
    assert.equal(v.rule?.pattern, 'Bash(aws *)');
  });
});

describe('a deny rule meets the command behind its wrappers', () => {
  const deny: [Effect, string][] = [
    ['deny', 'bash(git push *)'],
    ['allow', 'bash(*)'],
  ];
  const wrapped = [
    'git push origin main',
    'sudo git push origin main',
    'sudo -u deploy git push',
    'env GIT_SSH_COMMAND=ssh git push',
    'nice -n 5 git push',
    'timeout 30 git push --force',
    "bash -c 'git push origin main'",
    "sh -c 'cd /tmp && git push'",
    'FOO=1 git push',
  ];
  for (const command of wrapped) {
    it(`denies ${command}`, async () => {
      const v = await judge(deny, command);
      assert.equal(v.decision, 'deny', v.reason);
      assert.equal(v.rule?.pattern, 'bash(git push *)');
    });
  }
  it('control: git pull, behind the same wrappers, is not denied', async () => {
    for (const command of ['git pull', 'sudo git pull', "bash -c 'git pull'", 'env A=1 git pull']) {
      const v = await judge(deny, command);
      assert.notEqual(v.decision, 'deny', `${command}: ${v.reason}`);
    }
  });
  it('an exact deny also meets its command unwrapped', async () => {
    for (const command of ['rm -rf /srv/app', 'sudo rm -rf /srv/app', "bash -c 'rm -rf /srv/app'"]) {
      const v = await judge([['deny', 'bash(rm -rf /srv/app)']], command);
      assert.equal(v.decision, 'deny', `${command}: ${v.reason}`);
    }
  });
});
