// GET /v1/status: the operator mode, the pending count and the version, for reviewers only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../support/harness.ts';

const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

describe('GET /v1/status', () => {
  let h: Harness;
  before(async () => (h = await startHarness({ flags: { mode: 'auto_approve' } })));
  after(() => h.close());

  it('needs a reviewer token', async () => {
    assert.equal((await h.app.request('/v1/status')).status, 401);
    assert.equal((await h.agent('/v1/status')).status, 403);
  });

  it('reports the mode, the pending approvals and the version', async () => {
    assert.deepEqual(await (await h.reviewer('/v1/status')).json(), { mode: 'auto_approve', pending: 0, version });
    assert.equal(
      (await h.decide({ tool: 'bash', args: { command: 'rm -rf ./src' } })).body.decision,
      'ask',
      'high risk still asks in auto_approve',
    );
    assert.equal((await (await h.reviewer('/v1/status')).json()).pending, 1);
  });
});
