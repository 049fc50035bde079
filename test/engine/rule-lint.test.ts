// Lint on save, under exact shell specs and the order deny → ask → allow (docs/rules.md).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { lintRule } from '../../src/engine/rules/lint.ts';
import type { Rule } from '../../src/engine/rules/rule.ts';
import type { ShellAnalyzer } from '../../src/engine/shell/analyzer.ts';
import type { Effect } from '../../src/engine/types.ts';
import { HOME, sharedAnalyzer } from './shell-support.ts';

let analyzer: ShellAnalyzer;
before(async () => (analyzer = await sharedAnalyzer()));

function saved(effect: Effect, pattern: string): Rule {
  return {
    id: 'x',
    effect,
    pattern,
    risk: null,
    scope: 'global',
    expiresAt: null,
    note: null,
    createdBy: null,
    createdAt: '',
    position: 1,
  };
}

describe('lintRule', () => {
  it('warns that a deny or ask spec without wildcard names only the exact command', () => {
    for (const effect of ['deny', 'ask'] as const) {
      const warnings = lintRule({ effect, pattern: 'bash(git push)' }, [], analyzer, HOME);
      assert.ok(
        warnings.some((w) => /only the exact command `git push`; write bash\(git push \*\)/.test(w)),
        warnings.join('\n'),
      );
    }
    // Control: with a wildcard, or an exact allow (narrow, so safe), there is nothing to say about it.
    assert.deepEqual(lintRule({ effect: 'deny', pattern: 'bash(git push *)' }, [], analyzer, HOME), []);
    assert.deepEqual(lintRule({ effect: 'allow', pattern: 'bash(git status)' }, [], analyzer, HOME), []);
  });

  it('warns that an allow under an ask rule with the same pattern never applies, and the reverse', () => {
    assert.ok(
      lintRule(
        { effect: 'allow', pattern: 'bash(git push *)' },
        [saved('ask', 'bash(git push *)')],
        analyzer,
        HOME,
      ).some((w) => /never applies/.test(w)),
    );
    assert.ok(
      lintRule(
        { effect: 'ask', pattern: 'bash(git push *)' },
        [saved('allow', 'bash(git push *)')],
        analyzer,
        HOME,
      ).some((w) => /takes over the allow rule/.test(w)),
    );
  });

  it('an exact allow no longer covers the dangerous probes its words appear in', () => {
    // Before issue 22, bash(rm -rf) was a word sequence and covered `rm -rf /`; now it is the bare `rm -rf` only.
    assert.deepEqual(lintRule({ effect: 'allow', pattern: 'bash(rm -rf)' }, [], analyzer, HOME), []);
    assert.ok(
      lintRule({ effect: 'allow', pattern: 'bash(rm -rf *)' }, [], analyzer, HOME).some((w) =>
        /would allow `rm -rf \/`/.test(w),
      ),
    );
  });
});
