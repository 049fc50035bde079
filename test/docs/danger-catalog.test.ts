// docs/danger-catalog.md is generated from the catalogue's entries: the committed file must match what they say now.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DANGER_CATALOG } from '../../src/engine/catalog/danger.ts';
import { ANALYSIS_FINDINGS } from '../../src/engine/catalog/analysis-findings.ts';
import { DANGER_CATALOG_DOC, renderDangerCatalog } from '../../scripts/gen-danger-catalog.ts';

const committed = readFileSync(new URL(`../../${DANGER_CATALOG_DOC}`, import.meta.url), 'utf8');

describe('docs/danger-catalog.md', () => {
  it('is what the catalogue generates now', () => {
    assert.ok(
      committed === renderDangerCatalog(),
      `${DANGER_CATALOG_DOC} is stale: run \`npm run gen:catalog\` and commit it`,
    );
  });

  it('lists every entry once, with its risk, reason and every example', () => {
    const doc = renderDangerCatalog();
    for (const entry of [...DANGER_CATALOG, ...Object.values(ANALYSIS_FINDINGS)]) {
      const rows = doc.split('\n').filter((line) => line.startsWith(`| \`${entry.id}\` |`));
      assert.equal(rows.length, 1, `${entry.id} has one row`);
      assert.ok(
        rows[0]!.includes(` ${entry.risk} | ${entry.reason.replace(/\|/g, '\\|')} |`),
        `${entry.id}: risk and reason`,
      );
      for (const example of entry.examples)
        assert.ok(
          rows[0]!.includes(example.replace(/\r?\n/g, '⏎').replace(/\|/g, '\\|')),
          `${entry.id}: example ${example}`,
        );
    }
  });

  it('keeps a backtick inside an example within its code span', () => {
    const row = renderDangerCatalog()
      .split('\n')
      .find((line) => line.startsWith('| `command-name-substitution` |'))!;
    assert.ok(row.includes('`` `echo rm` -r -f ~/work ``'), row);
  });
});
