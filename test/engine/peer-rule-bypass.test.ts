// Allow-rule bypass attempts from the test suites of Codex, Gemini CLI and dcg (test/fixtures/peer-cases/rule-bypass.jsonl), judged in strict mode.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

interface BypassCase {
  allow_rule: string | string[];
  cmd: string;
  expect: 'allow' | 'not-allow';
  source: string;
}

const cases: BypassCase[] = readFileSync(new URL('../fixtures/peer-cases/rule-bypass.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));

let h: Harness;
before(async () => {
  h = await startHarness({ flags: { mode: 'strict' } });
});
after(() => h.close());

describe('peer allow-rule bypass attempts (strict mode)', () => {
  cases.forEach((c, i) => {
    const session = `bypass-${i}`;
    it(`${c.expect}: ${JSON.stringify(c.cmd)} under ${JSON.stringify(c.allow_rule)}`, async () => {
      // Each case's rules are scoped to its own session, so cases cannot see each other's rules.
      for (const pattern of [c.allow_rule].flat()) {
        const res = await h.reviewer('/v1/rules', {
          method: 'POST',
          body: JSON.stringify({ effect: 'allow', pattern, scope: `session:${session}` }),
        });
        assert.equal(res.status, 201);
      }
      const { body } = await h.decide({
        tool: 'bash',
        args: { command: c.cmd },
        session_id: session,
        agent_id: 'peer',
        cwd: `${TEST_HOME}/work/project`,
      });
      if (c.expect === 'allow') assert.equal(body.decision, 'allow', body.reason);
      else assert.notEqual(body.decision, 'allow', `allowed by ${body.rule?.pattern ?? body.source}: ${body.reason}`);
    });
  });
});
