// Long-polling an approval: held until the answer, ?wait and Prefer: wait, the cap, terminal states at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../support/harness.ts';
import { openAsk, poll, resolveAs, sleep } from '../support/approvals.ts';

describe('an ask opens a pending approval', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('answers decision ask with {id, status, expires_at, suggested_pattern, poll}', async () => {
    const body = await openAsk(h);
    const { approval } = body;
    assert.match(approval.id, /^[0-9a-f-]{36}$/);
    assert.equal(approval.status, 'pending');
    const expiresIn = Date.parse(approval.expires_at) - Date.now();
    assert.ok(expiresIn > 14 * 60_000 && expiresIn <= 15 * 60_000, `default expiry is 15 minutes, got ${expiresIn} ms`);
    assert.equal(approval.suggested_pattern, 'bash(sudo systemctl restart nginx *)');
    assert.equal(approval.poll, `/v1/approvals/${approval.id}?wait=30`);
  });

  it('serves the full approval to the agent: call, reason, risk, agent and session', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl stop postgresql');
    const { status, body } = await poll(h, approval.id);
    assert.equal(status, 200);
    assert.equal(body.status, 'pending');
    assert.equal(body.decision, null);
    assert.equal(body.choice, null);
    assert.equal(body.tool, 'bash');
    assert.deepEqual(body.args, { command: 'sudo systemctl stop postgresql' });
    assert.equal(body.agent_id, 'test-agent');
    assert.equal(body.session_id, 'test-session');
    assert.ok(body.reason.length > 0);
    assert.ok(['low', 'medium', 'high'].includes(body.risk));
    assert.equal(body.resolved_by, null);
  });

  it('answers 404 problem+json for an unknown id', async () => {
    const res = await h.agent('/v1/approvals/00000000-0000-0000-0000-000000000000?wait=5');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
  });
});

describe('GET /v1/approvals/{id}?wait=N', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('returns within 500 ms of the resolve while held for 30 s', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx');
    const held = poll(h, approval.id, '?wait=30');
    await sleep(300);
    assert.equal(h.toolgate.approvals.waiting(), 1, 'the long-poll is held in-process');
    const resolved = await resolveAs(h, approval.id, { choice: 'allow_once' });
    const resolvedAt = performance.now();
    assert.equal(resolved.status, 200);
    const answer = await held;
    const lag = performance.now() - resolvedAt;
    assert.ok(lag < 500, `the held poll returned ${lag.toFixed(0)} ms after the resolve`);
    assert.ok(answer.ms >= 250 && answer.ms < 5000, `it was held until the answer (${answer.ms.toFixed(0)} ms)`);
    assert.equal(answer.body.status, 'approved');
    assert.equal(answer.body.decision, 'allow');
    assert.equal(answer.body.choice, 'allow_once');
    assert.equal(answer.body.resolved_by, 'reviewer');
    assert.equal(h.toolgate.approvals.waiting(), 0);
  });

  it('wait=1 holds about a second and returns the pending state', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart redis');
    const { status, body, ms, headers } = await poll(h, approval.id, '?wait=1');
    assert.equal(status, 200);
    assert.equal(body.status, 'pending');
    assert.ok(ms >= 950 && ms < 2000, `held ${ms.toFixed(0)} ms`);
    assert.equal(headers.get('preference-applied'), null, 'only a Prefer header is echoed');
  });

  it('without wait returns at once', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart memcached');
    const { body, ms } = await poll(h, approval.id);
    assert.equal(body.status, 'pending');
    assert.ok(ms < 300, `took ${ms.toFixed(0)} ms`);
  });

  it('Prefer: wait=1 holds about a second and echoes Preference-Applied', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart cron');
    const { status, body, ms, headers } = await poll(h, approval.id, '', { prefer: 'wait=1' });
    assert.equal(status, 200);
    assert.equal(body.status, 'pending');
    assert.ok(ms >= 950 && ms < 2000, `held ${ms.toFixed(0)} ms`);
    assert.equal(headers.get('preference-applied'), 'wait=1');
  });

  it('Prefer: respond-async, wait=30 is understood among other preferences', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart ssh');
    const held = poll(h, approval.id, '', { prefer: 'respond-async, wait=30' });
    await sleep(100);
    await resolveAs(h, approval.id, { choice: 'deny' });
    const { body, headers, ms } = await held;
    assert.equal(body.status, 'denied');
    assert.equal(body.decision, 'deny');
    assert.equal(headers.get('preference-applied'), 'wait=30');
    assert.ok(ms < 2000);
  });

  it('caps the wait at 60 s (Preference-Applied says wait=60)', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart docker');
    const held = poll(h, approval.id, '', { prefer: 'wait=600' });
    await sleep(100);
    await resolveAs(h, approval.id, { choice: 'allow_once' });
    const { headers, body } = await held;
    assert.equal(headers.get('preference-applied'), 'wait=60');
    assert.equal(body.status, 'approved');
  });

  it('a terminal approval returns at once, even with wait=30', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart apache2');
    await resolveAs(h, approval.id, { choice: 'deny' });
    const { body, ms } = await poll(h, approval.id, '?wait=30');
    assert.equal(body.status, 'denied');
    assert.ok(ms < 300, `took ${ms.toFixed(0)} ms`);
  });

  it('several agents held on one approval all get the answer', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart haproxy');
    const held = [
      poll(h, approval.id, '?wait=30'),
      poll(h, approval.id, '?wait=30'),
      poll(h, approval.id, '', { prefer: 'wait=30' }),
    ];
    await sleep(100);
    assert.equal(h.toolgate.approvals.waiting(), 3);
    await resolveAs(h, approval.id, { choice: 'allow_once' });
    for (const r of await Promise.all(held)) assert.equal(r.body.status, 'approved');
  });

  it('rejects a malformed wait with 400 problem+json naming the parameter', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx');
    for (const bad of ['abc', '-1', '']) {
      const res = await h.agent(`/v1/approvals/${approval.id}?wait=${bad}`);
      assert.equal(res.status, 400, `wait=${bad}`);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      const problem = await res.json();
      assert.ok(
        problem.errors.some((e: string) => e.startsWith('wait:')),
        JSON.stringify(problem),
      );
    }
  });

  it('a client that hangs up stops being a waiter', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx');
    const controller = new AbortController();
    const pending = h.app.request(`/v1/approvals/${approval.id}?wait=30`, {
      headers: { authorization: 'Bearer agent-token-for-tests-0123456789' },
      signal: controller.signal,
    });
    await sleep(100);
    assert.equal(h.toolgate.approvals.waiting(), 1);
    controller.abort();
    await Promise.resolve(pending).catch(() => undefined);
    await sleep(20);
    assert.equal(h.toolgate.approvals.waiting(), 0);
  });
});
