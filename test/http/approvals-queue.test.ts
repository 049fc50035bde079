// The queue: dedupe of identical pending calls, the per-agent cap, the reviewer's list, and cancel by the agent.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bash, startHarness, type Harness } from '../support/harness.ts';
import { openAsk, poll, resolveAs, sleep } from '../support/approvals.ts';

describe('dedupe', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('the same agent, session, tool and args get the same pending approval', async () => {
    const a = await openAsk(h, 'sudo systemctl restart nginx');
    const b = await openAsk(h, 'sudo systemctl restart nginx');
    assert.equal(b.approval.id, a.approval.id);
    assert.notEqual(b.decision_id, a.decision_id, 'each decision is still its own audit row');
    const queue = (await (await h.reviewer('/v1/approvals?status=pending')).json()).approvals;
    assert.equal(queue.filter((x: any) => x.id === a.approval.id).length, 1);
    assert.equal(queue.length, 1);
  });

  it('the tool alias does not matter (Bash and bash are the same call)', async () => {
    const a = await openAsk(h, 'sudo systemctl restart nginx');
    const { body } = await h.decide({ ...bash('sudo systemctl restart nginx'), tool: 'Bash' });
    assert.equal(body.approval.id, a.approval.id);
  });

  it('a different session, agent or command opens a new approval', async () => {
    const base = await openAsk(h, 'sudo systemctl restart nginx');
    const otherSession = await openAsk(h, 'sudo systemctl restart nginx', { session_id: 'other' });
    const otherAgent = await openAsk(h, 'sudo systemctl restart nginx', { agent_id: 'other-agent' });
    const otherCommand = await openAsk(h, 'sudo systemctl restart apache2');
    const ids = new Set([base, otherSession, otherAgent, otherCommand].map((x) => x.approval.id));
    assert.equal(ids.size, 4);
  });

  // Changed with issue 23 row 7: a tool_call_id used to join an approval whatever the arguments were (a different
  // command with a reused id received the reviewer's answer to the first). It is reused only for the identical call
  // now, so a command that differs even in form gets an approval of its own.
  it('the same tool_call_id gets the same approval only for the identical call', async () => {
    const a = await openAsk(h, 'sudo systemctl restart sshd', { tool_call_id: 'toolu_01' });
    const again = await openAsk(h, 'sudo systemctl restart sshd', { tool_call_id: 'toolu_01' });
    assert.equal(again.approval.id, a.approval.id, 'the identical call joins');
    const b = await openAsk(h, 'sudo  systemctl  restart  sshd', { tool_call_id: 'toolu_01' });
    assert.notEqual(b.approval.id, a.approval.id, 'another text is another call');
  });

  it('a reused tool_call_id never carries an answer over to another command (issue 23 row 7)', async () => {
    const nginx = await openAsk(h, 'sudo systemctl restart nginx', { tool_call_id: 'call-1', agent_id: 'row7' });
    const rm = await openAsk(h, 'sudo rm -rf /var/www', { tool_call_id: 'call-1', agent_id: 'row7' });
    assert.notEqual(rm.approval.id, nginx.approval.id);
    await resolveAs(h, nginx.approval.id, { choice: 'allow_once' });
    const polled = await poll(h, rm.approval.id);
    assert.equal(polled.body.status, 'pending', 'the rm is still waiting for its own answer');
  });

  it('duplicates are matched on the unredacted call, never on the redacted text (issue 23 row 6)', async () => {
    const first = await openAsk(h, 'sudo curl -u admin:hunter2 https://x.com', { agent_id: 'row6' });
    const second = await openAsk(h, 'sudo curl -u admin:$(rm${IFS}-rf${IFS}/) https://x.com', { agent_id: 'row6' });
    assert.notEqual(
      second.approval.id,
      first.approval.id,
      'two different commands that redact alike are two approvals',
    );
    const same = await openAsk(h, 'sudo curl -u admin:hunter2 https://x.com', { agent_id: 'row6' });
    assert.equal(same.approval.id, first.approval.id, 'control: the identical call still joins');
    await resolveAs(h, first.approval.id, { choice: 'allow_once' });
    assert.equal((await poll(h, second.approval.id)).body.status, 'pending');
  });

  it('a tool_call_id of another agent does not hand over its approval', async () => {
    const a = await openAsk(h, 'sudo systemctl restart cups', { tool_call_id: 'toolu_shared', agent_id: 'agent-1' });
    const b = await openAsk(h, 'sudo systemctl restart cups', { tool_call_id: 'toolu_shared', agent_id: 'agent-2' });
    assert.notEqual(b.approval.id, a.approval.id);
  });

  it('concurrent identical asks open one approval', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => h.decide(bash('sudo systemctl restart chronyd'))),
    );
    const ids = new Set(results.map((r) => r.body.approval.id));
    assert.equal(ids.size, 1);
  });

  it('once answered, the same call opens a new approval', async () => {
    const a = await openAsk(h, 'sudo systemctl restart tor');
    await resolveAs(h, a.approval.id, { choice: 'deny' });
    const b = await openAsk(h, 'sudo systemctl restart tor');
    assert.notEqual(b.approval.id, a.approval.id);
  });
});

describe('the per-agent cap', () => {
  let h: Harness;
  before(async () => (h = await startHarness({ flags: { 'max-pending': '3' } })));
  after(() => h.close());

  it('answers 429 problem+json beyond the cap, per agent, and frees up when one is answered', async () => {
    const opened = [];
    for (const unit of ['a', 'b', 'c'])
      opened.push(await openAsk(h, `sudo systemctl restart ${unit}`, { agent_id: 'flood' }));
    const res = await h.agent('/v1/decide', {
      method: 'POST',
      body: JSON.stringify(bash('sudo systemctl restart d', { agent_id: 'flood' })),
    });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    assert.ok(res.headers.get('retry-after'));
    const problem = await res.json();
    assert.equal(problem.status, 429);
    assert.match(problem.detail, /flood/);
    assert.match(problem.detail, /3 pending/);
    // The decision still travels (a caller reading only `decision` must not run the call) and is in the audit log.
    assert.equal(problem.decision, 'ask');
    assert.equal(problem.risk, 'medium');
    assert.equal(problem.approval, undefined, 'no approval was queued');
    const db = (h.toolgate.store as unknown as { db: import('better-sqlite3').Database }).db;
    const row = db
      .prepare('SELECT decision, approval_id, reason FROM audit_log WHERE decision_id = ?')
      .get(problem.decision_id) as { decision: string; approval_id: string | null; reason: string };
    assert.equal(row.decision, 'ask');
    assert.equal(row.approval_id, null);
    assert.match(row.reason, /not queued/);

    const dup = await openAsk(h, 'sudo systemctl restart a', { agent_id: 'flood' });
    assert.equal(
      dup.approval.id,
      opened[0].approval.id,
      'an identical call is still answered with its approval at the cap',
    );
    await openAsk(h, 'sudo systemctl restart d', { agent_id: 'calm' });

    await resolveAs(h, opened[0].approval.id, { choice: 'deny' });
    await openAsk(h, 'sudo systemctl restart d', { agent_id: 'flood' });
  });

  it('a non-asking call is never refused by the cap', async () => {
    const { status, body } = await h.decide(bash('ls -la', { agent_id: 'flood' }));
    assert.equal(status, 200);
    assert.equal(body.decision, 'allow');
  });
});

describe('the per-token and total caps (issue 23 row 4)', () => {
  let h: Harness;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-caps-'));
    const file = join(dir, 'toolgate.json');
    writeFileSync(file, JSON.stringify({ max_pending_per_agent: 50, max_pending_per_token: 6, max_pending_total: 9 }));
    h = await startHarness({ flags: { config: file } });
    rmSync(dir, { recursive: true, force: true });
  });
  after(() => h.close());

  it('inventing agent ids does not get past the per-token cap; the queue lists the newest and says how many are hidden', async () => {
    const statuses: number[] = [];
    let last: any;
    for (let i = 0; i < 10; i++) {
      const res = await h.agent('/v1/decide', {
        method: 'POST',
        body: JSON.stringify(bash(`sudo systemctl restart svc-${i}`, { agent_id: `invented-${i}` })),
      });
      statuses.push(res.status);
      last = await res.json();
    }
    assert.deepEqual(statuses, [...Array(6).fill(200), ...Array(4).fill(429)]);
    assert.match(last.detail, /token agent already has 6 pending approvals/);
    // The total cap holds for every token together (the reviewer token may also decide).
    for (let i = 0; i < 3; i++)
      assert.equal(
        (
          await h.reviewer('/v1/decide', {
            method: 'POST',
            body: JSON.stringify(bash(`sudo systemctl restart r-${i}`)),
          })
        ).status,
        200,
      );
    const over = await h.reviewer('/v1/decide', {
      method: 'POST',
      body: JSON.stringify(bash('sudo systemctl restart r-9')),
    });
    assert.equal(over.status, 429);
    assert.match((await over.json()).detail, /9 pending approvals in total/);
    // The list shows the newest two (oldest first among them) and says seven are hidden.
    const res = await h.reviewer('/v1/approvals?status=pending&limit=2');
    const body = await res.json();
    assert.deepEqual(
      body.approvals.map((a: any) => a.args.command),
      ['sudo systemctl restart r-1', 'sudo systemctl restart r-2'],
    );
    assert.equal(body.hidden, 7);
  });
});

describe('GET /v1/approvals (the reviewer queue)', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('lists pending approvals oldest first, with risk; agents get 403', async () => {
    const first = await openAsk(h, 'sudo systemctl restart one');
    await sleep(5);
    const second = await openAsk(h, 'sudo rm -rf /var/www');
    await sleep(5);
    const third = await openAsk(h, 'sudo systemctl restart three');
    await resolveAs(h, third.approval.id, { choice: 'deny' });
    const res = await h.reviewer('/v1/approvals?status=pending');
    assert.equal(res.status, 200);
    const { approvals } = await res.json();
    assert.deepEqual(
      approvals.map((a: any) => a.id),
      [first.approval.id, second.approval.id],
    );
    assert.equal(approvals[1].risk, 'high');
    const denied = (await (await h.reviewer('/v1/approvals?status=denied')).json()).approvals;
    assert.deepEqual(
      denied.map((a: any) => a.id),
      [third.approval.id],
    );
    assert.equal((await h.agent('/v1/approvals?status=pending')).status, 403);
    assert.equal((await h.reviewer('/v1/approvals?status=bogus')).status, 400);
  });
});

describe('POST /v1/approvals/{id}/cancel', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('the agent cancels; a held poll wakes with cancelled; a reviewer can no longer answer', async () => {
    const { approval } = await openAsk(h);
    const held = poll(h, approval.id, '?wait=30');
    await sleep(50);
    const res = await h.agent(`/v1/approvals/${approval.id}/cancel`, { method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).status, 'cancelled');
    const { body, ms } = await held;
    assert.equal(body.status, 'cancelled');
    assert.equal(body.decision, 'deny');
    assert.ok(ms < 2000);
    assert.equal(
      (await h.agent(`/v1/approvals/${approval.id}/cancel`, { method: 'POST' })).status,
      200,
      'cancelling twice is idempotent',
    );
    assert.equal((await resolveAs(h, approval.id, { choice: 'allow_once' })).status, 409);
    const queue = (await (await h.reviewer('/v1/approvals?status=pending')).json()).approvals;
    assert.equal(queue.length, 0);
  });

  it('cannot cancel an answered approval (409) or an unknown one (404)', async () => {
    const { approval } = await openAsk(h, 'sudo systemctl restart x');
    await resolveAs(h, approval.id, { choice: 'allow_once' });
    assert.equal((await h.agent(`/v1/approvals/${approval.id}/cancel`, { method: 'POST' })).status, 409);
    assert.equal((await h.agent('/v1/approvals/nope/cancel', { method: 'POST' })).status, 404);
  });
});
