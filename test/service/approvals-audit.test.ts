// Every human answer, expiry and cancellation is an audit_log row with approval_id, source and resolved_by.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../support/harness.ts';
import { auditRowsFor, openAsk, poll, resolveAs } from '../support/approvals.ts';

describe('approvals in the audit log', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ flags: { 'approval-timeout': '1s' } });
    await h.decide({ tool: 'bash', args: { command: 'ls' } }); // warm the analyzer, so the first ask does not eat the expiry
  });
  after(() => h.close());

  it('the ask and the human answer are two rows sharing approval_id and decision_id', async () => {
    const ask = await openAsk(h, 'sudo systemctl restart nginx');
    await resolveAs(h, ask.approval.id, { choice: 'deny_with_feedback', feedback: 'use reload' });
    const rows = auditRowsFor(h, ask.approval.id);
    assert.equal(rows.length, 2, JSON.stringify(rows));
    const [asked, answered] = rows;
    assert.equal(asked.decision, 'ask');
    assert.equal(asked.decision_id, ask.decision_id);
    assert.equal(answered.decision, 'deny');
    assert.equal(answered.source, 'human');
    assert.equal(answered.resolved_by, 'reviewer');
    assert.equal(answered.decision_id, ask.decision_id);
    assert.equal(answered.agent_id, 'test-agent');
    assert.equal(answered.session_id, 'test-session');
    assert.match(answered.reason, /deny_with_feedback: use reload/);
    assert.ok(answered.seq > asked.seq);
  });

  it('allow_always records the saved rule on the answer row', async () => {
    const ask = await openAsk(h, 'sudo systemctl restart redis');
    const { body } = await resolveAs(h, ask.approval.id, { choice: 'allow_always' });
    assert.equal(body.status, 'approved');
    const answered = auditRowsFor(h, ask.approval.id).at(-1);
    assert.equal(answered.decision, 'allow');
    assert.equal(answered.source, 'human');
    assert.ok(answered.rule_id, 'the row names the rule it created');
    assert.match(answered.reason, /bash\(sudo systemctl restart redis \*\)/);
  });

  it('an expiry is a row with source timeout and no resolved_by', async () => {
    const ask = await openAsk(h, 'sudo systemctl restart apache2');
    const { body } = await poll(h, ask.approval.id, '?wait=5');
    assert.equal(body.status, 'expired');
    const rows = auditRowsFor(h, ask.approval.id);
    const expired = rows.at(-1);
    assert.equal(rows.length, 2);
    assert.equal(expired.decision, 'deny');
    assert.equal(expired.source, 'timeout');
    assert.equal(expired.resolved_by, null);
    assert.match(expired.reason, /no reviewer answered/);
  });

  it('a cancellation is a row naming who cancelled', async () => {
    const ask = await openAsk(h, 'sudo systemctl restart mysql');
    await h.agent(`/v1/approvals/${ask.approval.id}/cancel`, { method: 'POST' });
    const cancelled = auditRowsFor(h, ask.approval.id).at(-1);
    assert.equal(cancelled.decision, 'cancelled');
    assert.equal(cancelled.source, 'agent');
    assert.equal(cancelled.resolved_by, 'agent');
  });

  it('a repeated answer or a refused one adds no row', async () => {
    const ask = await openAsk(h, 'sudo systemctl restart tor');
    await resolveAs(h, ask.approval.id, { choice: 'deny' });
    await resolveAs(h, ask.approval.id, { choice: 'deny' });
    await resolveAs(h, ask.approval.id, { choice: 'allow_once' });
    assert.equal(auditRowsFor(h, ask.approval.id).length, 2);
  });
});
