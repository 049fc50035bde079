// Outside judgement: shell verdicts copied from Codex, Gemini CLI and dcg tests (test/fixtures/peer-cases/commands.jsonl).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudge, readCorpus } from './shell-support.ts';

const FILE = new URL('../fixtures/peer-cases/commands.jsonl', import.meta.url).pathname;

/**
 * Peer verdicts we knowingly do not follow, each with the reason. Keep this list short and honest; a case belongs
 * here only when the peers' judgement is debatable. They are left out of the tally below (a test checks that each
 * is still a disagreement, so the list cannot outlive its reason).
 */
const SAFE_BRANCH_DELETE =
  'issue 26: `git branch -d` is the safe delete — git refuses a branch whose commits are not merged, so nothing is lost (`-D` and `-d -f` stay asked)';
const KNOWN_DISAGREEMENTS: Record<string, string> = {
  'git branch -d feature': SAFE_BRANCH_DELETE,
  "bash -lc 'git branch --delete feature'": SAFE_BRANCH_DELETE,
  'git -C . branch -d feature': SAFE_BRANCH_DELETE,
  "bash -lc 'git -C . branch -d feature'": SAFE_BRANCH_DELETE,
  'git branch --delete feature': SAFE_BRANCH_DELETE,
  'git branch -vd merged-branch': SAFE_BRANCH_DELETE,
  'git branch --del merged-branch': SAFE_BRANCH_DELETE,
  'git branch --no-format -d merged-branch': SAFE_BRANCH_DELETE,
  'chmod 755 file':
    'issue 26: making a file inside the project executable is everyday work (a file outside it stays asked)',
  'rm -rf dist':
    'issue 26: dist inside the working directory is build output the build makes again (disposable-output.ts)',
  'git rebase -i HEAD~3':
    'issue 26: an interactive rebase of local commits is everyday; the force push that publishes it stays asked',
};

/** The bar on outside cases: share of `ask` cases caught and of `allow` cases allowed. */
const BAR = 0.95;

describe('peer cases', async () => {
  const judge = await createJudge();
  const cases = readCorpus(FILE);
  const tally = { ask: [0, 0], allow: [0, 0] } as Record<string, [number, number]>;
  const misses: string[] = [];
  const stale: string[] = [];
  for (const c of cases) {
    const j = judge(c.cmd);
    const ok = c.expect === 'ask' ? j.decision !== 'allow' : j.decision === 'allow';
    if (c.cmd in KNOWN_DISAGREEMENTS) {
      if (ok) stale.push(c.cmd);
      continue;
    }
    const t = (tally[c.expect] ??= [0, 0]);
    t[1]++;
    if (ok) t[0]++;
    else misses.push(`${c.expect} → ${j.decision}: ${JSON.stringify(c.cmd)} (${j.reason})`);
  }

  for (const [expect, [met, total]] of Object.entries(tally)) {
    it(`meets ≥ ${BAR * 100}% of the ${expect} cases (${met}/${total} = ${((100 * met) / total).toFixed(1)}%)`, () => {
      assert.ok(met / total >= BAR, misses.join('\n'));
    });
  }
  it('misses nothing outside the known disagreements', () => {
    assert.deepEqual(misses, []);
  });
  it('lists only cases it still disagrees with', () => {
    assert.deepEqual(stale, []);
  });
});
