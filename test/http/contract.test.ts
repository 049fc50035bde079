// The contract: the committed types must be what openapi-typescript generates from openapi.yaml today.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

describe('openapi contract', () => {
  it('src/http/openapi-types.ts is fresh (run `npm run gen:types` after editing openapi.yaml)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-contract-'));
    try {
      const out = join(dir, 'types.ts');
      const run = spawnSync(
        process.execPath,
        ['node_modules/openapi-typescript/bin/cli.js', 'openapi.yaml', '-o', out],
        { encoding: 'utf8' },
      );
      assert.equal(run.status, 0, run.stderr);
      assert.equal(
        readFileSync('src/http/openapi-types.ts', 'utf8'),
        readFileSync(out, 'utf8'),
        'generated types are stale: run npm run gen:types',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
