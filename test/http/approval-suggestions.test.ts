// The rule offered with an ask (answers 2 and 3): always there, and never wider than what the reviewer saw (issue 22).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openAsk, resolveAs } from '../support/approvals.ts';
import { bash, startHarness, type Harness } from '../support/harness.ts';

describe('suggested patterns and "allow for this session"', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('kill -9 4242: the exact command is offered, and allow_session succeeds for it alone', async () => {
    const session = { session_id: 'kill-session' };
    const { approval } = await openAsk(h, 'kill -9 4242', session);
    assert.equal(approval.suggested_pattern, 'bash(kill -9 4242)');
    const resolved = await resolveAs(h, approval.id, { choice: 'allow_session' });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(resolved.body.status, 'approved');

    const again = await h.decide(bash('kill -9 4242', session));
    assert.equal(again.body.decision, 'allow', again.body.reason);
    assert.equal(again.body.source, 'session_grant');
    // The grant is the command the reviewer saw: not every process, not another pid, not another session.
    for (const command of ['kill -9 -1', 'kill -9 4243', 'sudo kill -9 4242', 'kill -9 4242 1']) {
      const other = await h.decide(bash(command, session));
      assert.notEqual(other.body.decision, 'allow', `${command}: ${other.body.reason}`);
    }
    const elsewhere = await h.decide(bash('kill -9 4242', { session_id: 'another-session' }));
    assert.equal(elsewhere.body.decision, 'ask');
  });

  it('rm -rf /: the exact command is offered, not bash(rm -rf *)', async () => {
    const { approval } = await openAsk(h, 'rm -rf /', { session_id: 'rm-session' });
    assert.equal(approval.suggested_pattern, 'bash(rm -rf /)');
    const always = await resolveAs(h, approval.id, { choice: 'allow_always' });
    assert.equal(always.status, 200, JSON.stringify(always.body));
    // The saved rule allows what was approved and no other forced recursive delete.
    const same = await h.decide(bash('rm -rf /', { session_id: 'other' }));
    assert.equal(same.body.decision, 'allow', same.body.reason);
    for (const command of ['rm -rf ~', 'rm -rf /srv', 'rm -rf / /home', 'sudo rm -rf /']) {
      const other = await h.decide(bash(command, { session_id: 'other' }));
      assert.notEqual(other.body.decision, 'allow', `${command}: ${other.body.reason}`);
    }
  });

  it('a harmless stem still gets its safe prefix (control)', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx', { session_id: 'svc' });
    assert.equal(approval.suggested_pattern, 'bash(sudo systemctl restart nginx *)');
  });

  it('an ask from an ask rule: allow_session lets that command through in the session, the rule still asks for the rest', async () => {
    const added = await h.reviewer('/v1/rules', {
      method: 'POST',
      body: JSON.stringify({ effect: 'ask', pattern: 'bash(git push *)' }),
    });
    assert.equal(added.status, 201);
    const session = { session_id: 'push-session' };
    const { approval } = await openAsk(h, 'git push origin feature', session);
    assert.equal((await resolveAs(h, approval.id, { choice: 'allow_session' })).status, 200);
    const again = await h.decide(bash('git push origin feature', session));
    assert.equal(again.body.decision, 'allow', again.body.reason);
    const other = await h.decide(bash('git push origin main', session));
    assert.equal(other.body.decision, 'ask', other.body.reason);
    assert.equal(other.body.rule?.pattern, 'bash(git push *)');
  });
});

describe('"always allow" for an ask an ask rule raised', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('is refused with the reason (the saved allow rule would never apply), allow_session and allow_once still work', async () => {
    assert.equal(
      (
        await h.reviewer('/v1/rules', {
          method: 'POST',
          body: JSON.stringify({ effect: 'ask', pattern: 'bash(npm publish *)' }),
        })
      ).status,
      201,
    );
    const first = (await openAsk(h, 'npm publish --tag next', { session_id: 'pub' })).approval;
    const always = await resolveAs(h, first.id, { choice: 'allow_always' });
    assert.equal(always.status, 400);
    assert.match(JSON.stringify(always.body), /ask rules are checked before allow rules/);
    assert.equal((await resolveAs(h, first.id, { choice: 'allow_session' })).status, 200);
    const rules = (await (await h.reviewer('/v1/rules')).json()).rules.map((r: any) => `${r.effect} ${r.pattern}`);
    assert.deepEqual(rules, ['ask bash(npm publish *)'], 'no allow rule was saved');
  });

  it('control: an ask raised by a danger finding may still be answered "always allow"', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx', { session_id: 'svc' });
    assert.equal((await resolveAs(h, approval.id, { choice: 'allow_always' })).status, 200);
  });
});
