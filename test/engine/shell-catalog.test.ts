// The danger catalogue is data: every entry has an id, a risk, a reason, and examples that must raise it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DANGER_CATALOG } from '../../src/engine/catalog/danger.ts';
import { ANALYSIS_FINDINGS } from '../../src/engine/catalog/analysis-findings.ts';
import { sharedAnalyzer } from './shell-support.ts';

describe('danger catalogue', async () => {
  const analyzer = await sharedAnalyzer();

  it('has unique ids, a risk and a readable reason per entry', () => {
    const ids = DANGER_CATALOG.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'duplicate ids');
    for (const e of DANGER_CATALOG) {
      assert.match(e.id, /^[a-z0-9-]+$/);
      assert.ok(['high', 'medium', 'low'].includes(e.risk), e.id);
      assert.ok(e.reason.length > 15, `${e.id} needs a reason`);
      assert.ok(e.examples.length > 0, `${e.id} needs examples`);
      assert.ok(e.match || e.written, `${e.id} needs a matcher or a written-path test`);
    }
  });

  for (const entry of DANGER_CATALOG) {
    describe(`${entry.id} (${entry.risk})`, () => {
      for (const example of entry.examples) {
        it(`raises on: ${example}`, () => {
          const a = analyzer.analyze(example);
          assert.ok(a.ok, a.error);
          const hit = a.findings.find((f) => f.id === entry.id);
          assert.ok(hit, `no ${entry.id} in ${a.findings.map((f) => f.id).join(', ') || 'nothing'}`);
          assert.equal(hit.risk, entry.risk);
          assert.ok(
            a.commands.some((c) => c.text === hit.command),
            'a finding names the command it came from',
          );
        });
      }
    });
  }

  for (const entry of Object.values(ANALYSIS_FINDINGS)) {
    for (const example of entry.examples) {
      it(`${entry.id} raises on: ${example}`, () => {
        const a = analyzer.analyze(example);
        assert.ok(
          a.findings.some((f) => f.id === entry.id),
          `got ${a.findings.map((f) => f.id).join(', ')}`,
        );
      });
    }
  }
});
