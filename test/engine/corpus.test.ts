// The public labelled shell corpus (test/fixtures/corpus-shell-public.jsonl) and our private one, judged through the
// whole pipeline.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudge, meets, readCorpus, type CorpusCase } from './shell-support.ts';

const PUBLIC = new URL('../fixtures/corpus-shell-public.jsonl', import.meta.url).pathname;
const PRIVATE = new URL('./corpus-private.jsonl', import.meta.url).pathname;

/**
 * Public corpus lines whose label a deliberate behaviour change overrides (the file is shared and not ours to edit):
 * the command, the label it has now, and why.
 */
const OVERRIDDEN: Record<string, { expect: CorpusCase['expect']; why: string }> = {
  'chmod +x ./deploy.sh': {
    expect: 'allow',
    why: 'issue 26: chmod +x of a file inside the project is everyday work (was asked, naive medium tier)',
  },
};

for (const [name, file] of [
  ['public corpus', PUBLIC],
  ['private corpus', PRIVATE],
] as const) {
  describe(name, async () => {
    const judge = await createJudge();
    for (const line of readCorpus(file)) {
      const override = file === PUBLIC ? OVERRIDDEN[line.cmd] : undefined;
      const c: CorpusCase = override ? { cmd: line.cmd, expect: override.expect, risk: null, why: override.why } : line;
      it(`${c.expect}${c.risk ? ` (${c.risk})` : ''}: ${c.cmd.replace(/\n/g, '\\n')}`, () => {
        const j = judge(c.cmd);
        assert.ok(
          meets(c, j),
          `expected ${c.expect}${c.risk ? `/${c.risk}` : ''}, got ${j.decision}/${j.risk}: ${j.reason} (${c.why ?? ''})`,
        );
      });
    }
  });
}
