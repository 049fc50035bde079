// Symlinked roots through POST /v1/decide (issue 23, row 8): the service hands the engine the host's realpath, so a
// recursive search of a link to the directory holding toolgate's data dir reaches the reviewer token.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bash, startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

let h: Harness;
let links: string;
before(async () => {
  h = await startHarness({ file: true });
  writeFileSync(join(h.dataDir, 'tokens.json'), '{"reviewer":"tgr_x"}', { mode: 0o600 });
  links = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-links-')));
  symlinkSync(dirname(realpathSync(h.dataDir)), join(links, 'up')); // a link to the directory holding the data dir
  mkdirSync(join(links, 'docs'));
  symlinkSync(join(links, 'docs'), join(links, 'd')); // a link to a harmless directory
});
after(async () => {
  await h.close();
  rmSync(links, { recursive: true, force: true });
});

const decide = async (body: Record<string, unknown>) =>
  (await h.decide({ agent_id: 'a', session_id: 's', cwd: `${TEST_HOME}/work`, ...body })).body;

describe('symlinked roots through the HTTP layer', () => {
  it('denies grep -r, rg --hidden and the Grep tool rooted at a link that contains the data dir', async () => {
    for (const command of [
      `grep -r tgr_ ${links}/up/`,
      `rg --hidden tgr_ ${links}/up`,
      `find -L ${links}/up -type f -exec cat {} +`,
    ]) {
      const body = await decide(bash(command));
      assert.equal(body.decision, 'deny', `${command}: ${body.reason}`);
      assert.equal(body.source, 'protected_path');
    }
    assert.equal((await decide({ tool: 'Grep', args: { pattern: 'tgr_', path: `${links}/up` } })).decision, 'deny');
  });

  it('allows searching a link to a harmless directory (control)', async () => {
    assert.equal((await decide(bash(`grep -r TODO ${links}/d`))).decision, 'allow');
    assert.equal((await decide({ tool: 'Grep', args: { pattern: 'TODO', path: `${links}/d` } })).decision, 'allow');
  });
});
