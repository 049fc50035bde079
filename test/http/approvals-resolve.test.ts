// The reviewer's five answers over HTTP: who may answer, first answer wins, and what each choice leaves behind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bash, startHarness, type Harness } from '../support/harness.ts';
import { openAsk, poll, resolveAs, sleep } from '../support/approvals.ts';

describe('POST /v1/approvals/{id}/resolve', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('refuses an agent token with 403 and leaves the approval pending', async () => {
    const { approval } = await openAsk(h);
    const { status, body, headers } = await resolveAs(h, approval.id, { choice: 'allow_once' }, 'agent');
    assert.equal(status, 403);
    assert.equal(headers.get('content-type'), 'application/problem+json');
    assert.match(body.detail, /reviewer/);
    assert.equal((await poll(h, approval.id)).body.status, 'pending');
  });

  it('refuses a request without a token with 401', async () => {
    const { approval } = await openAsk(h);
    const res = await h.app.request(`/v1/approvals/${approval.id}/resolve`, {
      method: 'POST',
      body: '{"choice":"allow_once"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 401);
  });

  it('first answer wins: a different later answer is 409, the same answer again is an idempotent 200', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart postfix');
    const first = await resolveAs(h, approval.id, { choice: 'deny' });
    assert.equal(first.status, 200);
    assert.equal(first.body.status, 'denied');
    const again = await resolveAs(h, approval.id, { choice: 'deny' });
    assert.equal(again.status, 200);
    assert.equal(again.body.status, 'denied');
    assert.equal(again.body.resolved_at, first.body.resolved_at, 'the repeat changed nothing');
    const other = await resolveAs(h, approval.id, { choice: 'allow_once' });
    assert.equal(other.status, 409);
    assert.equal(other.headers.get('content-type'), 'application/problem+json');
    assert.match(other.body.detail, /already denied/);
    assert.equal((await poll(h, approval.id)).body.status, 'denied');
  });

  it('concurrent different answers: exactly one wins, the other gets 409', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart bind9');
    const results = await Promise.all([
      resolveAs(h, approval.id, { choice: 'allow_once' }),
      resolveAs(h, approval.id, { choice: 'deny' }),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
    const winner = results.find((r) => r.status === 200)!.body.choice;
    assert.equal((await poll(h, approval.id)).body.choice, winner);
  });

  it('validates the body: unknown choice and unknown keys are 400 with path: message', async () => {
    const { approval } = await openAsk(h);
    for (const body of [{ choice: 'maybe' }, { choice: 'allow_once', extra: 1 }, {}]) {
      const { status, body: problem } = await resolveAs(h, approval.id, body);
      assert.equal(status, 400, JSON.stringify(body));
      assert.ok(
        problem.errors?.length > 0 && problem.errors.every((e: string) => /^[\w.()]*: /.test(e)),
        JSON.stringify(problem),
      );
    }
  });

  it('answers 404 for an unknown approval', async () => {
    const { status } = await resolveAs(h, 'nope', { choice: 'deny' });
    assert.equal(status, 404);
  });
});

describe('the five choices', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('allow_once allows this call and persists nothing: the same command asks again', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx');
    const { body } = await resolveAs(h, approval.id, { choice: 'allow_once' });
    assert.equal(body.decision, 'allow');
    assert.equal(body.rule_pattern, null);
    const again = await openAsk(h, 'sudo systemctl restart nginx');
    assert.notEqual(again.approval.id, approval.id, 'a new approval, not the answered one');
    const rules = await (await h.reviewer('/v1/rules')).json();
    assert.equal(rules.rules.length, 0);
    assert.equal((await (await h.reviewer('/v1/grants')).json()).grants.length, 0);
  });

  it('allow_session grants the session only; listed and revocable through /v1/grants', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx', { session_id: 'session-a' });
    const { status, body } = await resolveAs(h, approval.id, { choice: 'allow_session' });
    assert.equal(status, 200);
    assert.equal(body.rule_pattern, 'bash(sudo systemctl restart nginx *)');
    const same = await h.decide(bash('sudo systemctl restart nginx', { session_id: 'session-a' }));
    assert.equal(same.body.decision, 'allow');
    assert.equal(same.body.source, 'session_grant');
    const other = await h.decide(bash('sudo systemctl restart nginx', { session_id: 'session-b' }));
    assert.equal(other.body.decision, 'ask', 'another session still asks');
    const dangerous = await h.decide(bash('sudo rm -rf /var/www', { session_id: 'session-a' }));
    assert.equal(dangerous.body.decision, 'ask', 'the grant is narrow');

    const grants = (await (await h.reviewer('/v1/grants?session_id=session-a')).json()).grants;
    assert.equal(grants.length, 1);
    assert.equal(grants[0].session_id, 'session-a');
    assert.equal(grants[0].pattern, 'bash(sudo systemctl restart nginx *)');
    assert.equal(grants[0].approval_id, approval.id);
    assert.equal(grants[0].created_by, 'reviewer');
    assert.equal((await (await h.reviewer('/v1/grants?session_id=session-b')).json()).grants.length, 0);
    assert.equal((await h.agent('/v1/grants')).status, 403, 'agents cannot list grants');
    assert.equal(
      (await h.agent(`/v1/grants/${grants[0].id}`, { method: 'DELETE' })).status,
      403,
      'agents cannot revoke grants',
    );

    assert.equal((await h.reviewer(`/v1/grants/${grants[0].id}`, { method: 'DELETE' })).status, 204);
    assert.equal((await h.reviewer(`/v1/grants/${grants[0].id}`, { method: 'DELETE' })).status, 404);
    const revoked = await h.decide(bash('sudo systemctl restart nginx', { session_id: 'session-a' }));
    assert.equal(revoked.body.decision, 'ask', 'revoking the grant makes the session ask again');
  });

  it('allow_session without a session_id on the call is 400 and leaves the approval pending', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx', { session_id: undefined });
    const { status, body } = await resolveAs(h, approval.id, { choice: 'allow_session' });
    assert.equal(status, 400);
    assert.match(body.detail, /session/);
    assert.equal((await poll(h, approval.id)).body.status, 'pending');
    await resolveAs(h, approval.id, { choice: 'deny' });
  });

  it('allow_always saves the narrow suggested rule; the dangerous variant still asks', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx', { session_id: 'always-1' });
    assert.equal(approval.suggested_pattern, 'bash(sudo systemctl restart nginx *)');
    const { body } = await resolveAs(h, approval.id, { choice: 'allow_always' });
    assert.equal(body.rule_pattern, 'bash(sudo systemctl restart nginx *)');
    const rules = (await (await h.reviewer('/v1/rules')).json()).rules;
    const saved = rules.find((r: any) => r.pattern === 'bash(sudo systemctl restart nginx *)');
    assert.ok(saved, JSON.stringify(rules));
    assert.equal(saved.effect, 'allow');
    assert.equal(saved.created_by, 'reviewer');

    const again = await h.decide(bash('sudo systemctl restart nginx', { session_id: 'any-other' }));
    assert.equal(again.body.decision, 'allow');
    assert.equal(again.body.source, 'rule');
    for (const variant of [
      'sudo rm -rf /var/www',
      'sudo systemctl stop nginx',
      'rm -rf /var/www sudo systemctl restart nginx',
    ]) {
      const { body: v } = await h.decide(bash(variant, { session_id: 'any-other' }));
      assert.equal(v.decision, 'ask', `${variant} must still ask, got ${JSON.stringify(v)}`);
    }
    await h.reviewer(`/v1/rules/${saved.id}`, { method: 'DELETE' });
  });

  it('allow_always with an edited rule_pattern saves that pattern; a malformed one is 400', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart redis', { session_id: 'always-2' });
    const bad = await resolveAs(h, approval.id, { choice: 'allow_always', rule_pattern: 'bash(' });
    assert.equal(bad.status, 400);
    assert.ok(
      bad.body.errors.some((e: string) => e.startsWith('rule_pattern:')),
      JSON.stringify(bad.body),
    );
    assert.equal((await poll(h, approval.id)).body.status, 'pending');
    const { body } = await resolveAs(h, approval.id, {
      choice: 'allow_always',
      rule_pattern: 'bash(sudo systemctl restart redis *)',
    });
    assert.equal(body.rule_pattern, 'bash(sudo systemctl restart redis *)');
    assert.equal(
      (
        await resolveAs(h, approval.id, {
          choice: 'allow_always',
          rule_pattern: 'bash(sudo systemctl restart redis *)',
        })
      ).status,
      200,
      'the same answer again',
    );
    assert.equal(
      (await resolveAs(h, approval.id, { choice: 'allow_always', rule_pattern: 'bash(sudo *)' })).status,
      409,
      'a different rule is a different answer',
    );
    const saved = (await (await h.reviewer('/v1/rules')).json()).rules.filter((r: any) =>
      r.pattern.startsWith('bash(sudo'),
    );
    assert.deepEqual(
      saved.map((r: any) => r.pattern),
      ['bash(sudo systemctl restart redis *)'],
      'one rule, saved once',
    );
    const { body: later } = await h.decide(bash('sudo systemctl restart redis --no-block', { session_id: 'always-3' }));
    assert.equal(later.decision, 'allow');
  });

  it('allow_always without a suggestion needs rule_pattern (400), and the dangerous variant of the typed rule still asks', async () => {
    // Changed on purpose (issue 22): `rm -rf /tmp/build` now gets its exact command as the suggestion (a spec without
    // wildcard is exact). A command whose program is not literal still has none: nothing names what would run.
    const { approval } = await openAsk(h, '$CMD -rf /tmp/build', { session_id: 'always-4' });
    assert.equal(approval.suggested_pattern, null, 'no pattern names a command whose program is a variable');
    const missing = await resolveAs(h, approval.id, { choice: 'allow_always' });
    assert.equal(missing.status, 400);
    assert.ok(
      missing.body.errors.some((e: string) => e.startsWith('rule_pattern:')),
      JSON.stringify(missing.body),
    );
    assert.equal((await resolveAs(h, approval.id, { choice: 'allow_once' })).status, 200);
  });

  it('deny answers deny', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart mysql');
    const held = poll(h, approval.id, '?wait=30');
    await sleep(50);
    await resolveAs(h, approval.id, { choice: 'deny' });
    const { body } = await held;
    assert.equal(body.status, 'denied');
    assert.equal(body.decision, 'deny');
    assert.equal(body.choice, 'deny');
    assert.equal(body.feedback, null);
  });

  it('deny_with_feedback needs feedback (400 without), and the agent reads it verbatim', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart mongod');
    for (const missing of [{ choice: 'deny_with_feedback' }, { choice: 'deny_with_feedback', feedback: '   ' }]) {
      const { status, body } = await resolveAs(h, approval.id, missing);
      assert.equal(status, 400);
      assert.ok(
        body.errors.some((e: string) => e.startsWith('feedback:')),
        JSON.stringify(body),
      );
    }
    assert.equal((await poll(h, approval.id)).body.status, 'pending');
    const feedback = 'Do not restart the database during business hours.\nUse `systemctl reload` instead — «merci».';
    const held = poll(h, approval.id, '?wait=30');
    await sleep(50);
    assert.equal((await resolveAs(h, approval.id, { choice: 'deny_with_feedback', feedback })).status, 200);
    const { body } = await held;
    assert.equal(body.decision, 'deny');
    assert.equal(body.choice, 'deny_with_feedback');
    assert.equal(body.feedback, feedback);
  });

  it('modified_args reach the agent with an approval', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx');
    const held = poll(h, approval.id, '?wait=30');
    await sleep(50);
    const modified = { command: 'sudo systemctl reload nginx' };
    await resolveAs(h, approval.id, { choice: 'allow_once', modified_args: modified });
    const { body } = await held;
    assert.equal(body.decision, 'allow');
    assert.deepEqual(body.modified_args, modified);
  });
});
