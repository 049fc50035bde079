// Every bypass or mistake ever found in the shell analysis gains a line in regressions.jsonl, judged here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudge, meets, readCorpus } from './shell-support.ts';

const FILE = new URL('./regressions.jsonl', import.meta.url).pathname;

describe('shell regressions', async () => {
  const judge = await createJudge();
  for (const c of readCorpus(FILE)) {
    it(`${c.expect}: ${c.cmd.replace(/\n/g, '\\n')}`, () => {
      const j = judge(c.cmd);
      assert.ok(
        meets(c, j),
        `expected ${c.expect}${c.risk ? `/${c.risk}` : ''}, got ${j.decision}/${j.risk}: ${j.reason} — ${c.why}`,
      );
    });
  }
});
