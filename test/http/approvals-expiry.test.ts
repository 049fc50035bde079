// Expiry (no reviewer answered → deny, source timeout) and decide-and-wait ("wait": N in /v1/decide).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bash, startHarness, type Harness } from '../support/harness.ts';
import { openAsk, poll, resolveAs, sleep } from '../support/approvals.ts';

describe('expiry', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ flags: { 'approval-timeout': '1s' } });
    await h.decide(bash('ls')); // the first decide of a process warms the analyzer; keep that out of the 1 s
  });
  after(() => h.close());

  it('an unanswered approval expires to deny with a reason saying no reviewer answered', async () => {
    const { approval } = await openAsk(h);
    const expiresIn = Date.parse(approval.expires_at) - Date.now();
    assert.ok(expiresIn <= 1000, `expires in ${expiresIn} ms`);
    const { body, ms } = await poll(h, approval.id, '?wait=10');
    assert.ok(ms < 2500, `the held poll woke at expiry (${ms.toFixed(0)} ms)`);
    assert.equal(body.status, 'expired');
    assert.equal(body.decision, 'deny');
    assert.match(body.answer_reason, /no reviewer answered/);
    assert.equal(body.resolved_by, null);
    const late = await resolveAs(h, approval.id, { choice: 'allow_once' });
    assert.equal(late.status, 409, 'an expired approval cannot be approved');
    assert.match(late.body.detail, /expired/);
  });

  it('decide-and-wait returns deny with source timeout when nobody answers before the expiry', async () => {
    const started = performance.now();
    const { status, body } = await h.decide(bash('sudo systemctl restart nginx', { wait: 10 }));
    const ms = performance.now() - started;
    assert.equal(status, 200);
    assert.equal(body.decision, 'deny');
    assert.equal(body.source, 'timeout');
    assert.match(body.reason, /no reviewer answered/);
    assert.equal(body.approval.status, 'expired');
    assert.ok(ms >= 800 && ms < 2500, `took ${ms.toFixed(0)} ms`);
  });
});

describe('decide-and-wait', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  /** Starts a decide with wait, waits until its approval is queued, and returns both. */
  async function decideAndWait(
    command: string,
    wait = 30,
  ): Promise<{ id: string; answer: Promise<{ status: number; body: any }> }> {
    const answer = h.decide(bash(command, { wait }));
    for (let i = 0; i < 100; i++) {
      const queue = (await (await h.reviewer('/v1/approvals?status=pending')).json()).approvals;
      const mine = queue.find((a: any) => a.args.command === command);
      if (mine) return { id: mine.id, answer };
      await sleep(10);
    }
    throw new Error(`no approval opened for ${command}`);
  }

  it('returns allow with source human when the reviewer approves', async () => {
    const { id, answer } = await decideAndWait('sudo systemctl restart nginx');
    await sleep(50);
    await resolveAs(h, id, { choice: 'allow_once' });
    const { status, body } = await answer;
    assert.equal(status, 200);
    assert.equal(body.decision, 'allow');
    assert.equal(body.source, 'human');
    assert.equal(body.approval.id, id);
    assert.equal(body.approval.status, 'approved');
    assert.match(body.reason, /approved by reviewer/);
  });

  it('returns deny with the feedback verbatim for deny_with_feedback', async () => {
    const { id, answer } = await decideAndWait('sudo systemctl restart postgresql');
    const feedback = 'Not now: a migration is running. Try again after 18:00.';
    await resolveAs(h, id, { choice: 'deny_with_feedback', feedback });
    const { body } = await answer;
    assert.equal(body.decision, 'deny');
    assert.equal(body.source, 'human');
    assert.equal(body.feedback, feedback);
    assert.ok(body.reason.includes(feedback), body.reason);
  });

  it('returns modified_args when the reviewer approved an edited call', async () => {
    const { id, answer } = await decideAndWait('sudo systemctl restart apache2');
    await resolveAs(h, id, { choice: 'allow_once', modified_args: { command: 'sudo systemctl reload apache2' } });
    const { body } = await answer;
    assert.equal(body.decision, 'allow');
    assert.deepEqual(body.modified_args, { command: 'sudo systemctl reload apache2' });
  });

  it('returns ask with the still-pending approval when the wait runs out first', async () => {
    const started = performance.now();
    const { body } = await h.decide(bash('sudo systemctl restart redis', { wait: 1 }));
    const ms = performance.now() - started;
    assert.equal(body.decision, 'ask');
    assert.equal(body.approval.status, 'pending');
    assert.ok(ms >= 950 && ms < 2500, `took ${ms.toFixed(0)} ms`);
  });

  it('rejects a wait above 60 or below 0 with 400', async () => {
    for (const wait of [61, -1, 'x']) {
      const { status, body } = await h.decide(bash('sudo systemctl restart redis', { wait }));
      assert.equal(status, 400, `wait ${wait}: ${JSON.stringify(body)}`);
      assert.ok(body.errors.some((e: string) => e.startsWith('wait:')));
    }
  });

  it('an allowed call answers at once, wait or not', async () => {
    const started = performance.now();
    const { body } = await h.decide(bash('ls', { wait: 30 }));
    assert.equal(body.decision, 'allow');
    assert.ok(performance.now() - started < 500);
  });
});
