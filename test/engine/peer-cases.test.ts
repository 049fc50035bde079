// Outside judgement: shell verdicts copied from Codex, Gemini CLI and dcg tests (test/fixtures/peer-cases/commands.jsonl).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudge, readCorpus } from './shell-support.ts';

const FILE = new URL('../fixtures/peer-cases/commands.jsonl', import.meta.url).pathname;

/**
 * Peer verdicts we knowingly do not follow, each with the reason. Empty today: every peer case is met.
 * Keep this list short and honest; a case belongs here only when the peers' judgement is debatable.
 */
const KNOWN_DISAGREEMENTS: Record<string, string> = {};

/** The bar on outside cases: share of `ask` cases caught and of `allow` cases allowed. */
const BAR = 0.95;

describe('peer cases', async () => {
  const judge = await createJudge();
  const cases = readCorpus(FILE);
  const tally = { ask: [0, 0], allow: [0, 0] } as Record<string, [number, number]>;
  const misses: string[] = [];
  for (const c of cases) {
    const j = judge(c.cmd);
    const ok = c.expect === 'ask' ? j.decision !== 'allow' : j.decision === 'allow';
    const t = (tally[c.expect] ??= [0, 0]);
    t[1]++;
    if (ok) t[0]++;
    else if (!(c.cmd in KNOWN_DISAGREEMENTS)) misses.push(`${c.expect} → ${j.decision}: ${JSON.stringify(c.cmd)} (${j.reason})`);
  }

  for (const [expect, [met, total]] of Object.entries(tally)) {
    it(`meets ≥ ${BAR * 100}% of the ${expect} cases (${met}/${total} = ${((100 * met) / total).toFixed(1)}%)`, () => {
      assert.ok(met / total >= BAR, misses.join('\n'));
    });
  }
  it('misses nothing outside the known disagreements', () => {
    assert.deepEqual(misses, []);
  });
});
