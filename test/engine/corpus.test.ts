// The public labelled shell corpus (test/fixtures/corpus-shell-public.jsonl) and our private one, judged through the
// whole pipeline.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudge, meets, readCorpus } from './shell-support.ts';

const PUBLIC = new URL('../fixtures/corpus-shell-public.jsonl', import.meta.url).pathname;
const PRIVATE = new URL('./corpus-private.jsonl', import.meta.url).pathname;

for (const [name, file] of [['public corpus', PUBLIC], ['private corpus', PRIVATE]] as const) {
  describe(name, async () => {
    const judge = await createJudge();
    for (const c of readCorpus(file)) {
      it(`${c.expect}${c.risk ? ` (${c.risk})` : ''}: ${c.cmd.replace(/\n/g, '\\n')}`, () => {
        const j = judge(c.cmd);
        assert.ok(meets(c, j), `expected ${c.expect}${c.risk ? `/${c.risk}` : ''}, got ${j.decision}/${j.risk}: ${j.reason} (${c.why ?? ''})`);
      });
    }
  });
}
