// ApprovalService timing edge cases: timeouts longer than setTimeout can hold, and waiters under races.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import type { Verdict } from '../../src/engine/decide.ts';
import { ApprovalService } from '../../src/service/approvals.ts';
import { ApprovalEvents } from '../../src/service/events.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';

const DAY = 86_400_000;

function verdict(command: string): Verdict {
  return {
    decision: 'ask',
    reason: 'test ask',
    risk: 'medium',
    source: 'danger',
    findings: [],
    mode: 'default',
    needsHuman: true,
    call: {
      tool: 'bash',
      rawTool: 'bash',
      kind: 'shell',
      command,
      paths: [],
      canonicalArgs: JSON.stringify({ command }),
      agentId: 'a',
      sessionId: 's',
    },
  };
}

/** Lets the store's promise chains run between mocked timer ticks. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe('ApprovalService expiry', () => {
  it('a 60-day timeout does not expire early when setTimeout (max ~24.8 days) wakes first', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
    const store = openSqliteStore(':memory:');
    try {
      const service = new ApprovalService({
        store,
        events: new ApprovalEvents(),
        approvalTimeoutMs: 60 * DAY,
        maxPendingPerAgent: 10,
      });
      const { approval } = await service.open({
        verdict: verdict('sudo reboot'),
        decisionId: 'd1',
        args: { command: 'sudo reboot' },
        toolCallId: null,
        suggestedPattern: null,
      });
      mock.timers.tick(2 ** 31 - 1);
      await settle();
      assert.equal((await service.get(approval.id))?.status, 'pending', 'still pending after 24.8 days');
      mock.timers.tick(30 * DAY);
      await settle();
      assert.equal((await service.get(approval.id))?.status, 'pending', 'still pending after 55 days');
      mock.timers.tick(6 * DAY);
      await settle();
      assert.equal((await service.get(approval.id))?.status, 'expired', 'expired after 60 days');
      await service.stop();
    } finally {
      mock.timers.reset();
      await store.close();
    }
  });
});

describe('ApprovalService expiry schedule (one timer for all)', () => {
  it('expires approvals in time order whatever order they were scheduled in, and never an answered one', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 10_000 });
    const store = openSqliteStore(':memory:');
    const make = (timeoutMs: number) =>
      new ApprovalService({
        store,
        events: new ApprovalEvents(),
        approvalTimeoutMs: timeoutMs,
        maxPendingPerAgent: 10,
      });
    const open = async (service: ApprovalService, command: string) =>
      (
        await service.open({
          verdict: verdict(command),
          decisionId: `d-${command}`,
          args: { command },
          toolCallId: null,
          suggestedPattern: null,
        })
      ).approval.id;
    // Approvals opened under two timeouts, then one service (as after a restart) schedules them in creation order:
    // the later-opened ones expire first, so the schedule must put them ahead.
    const long = make(1_000);
    const a = await open(long, 'a');
    const c = await open(long, 'c');
    await long.stop();
    const short = make(400);
    const b = await open(short, 'b');
    const d = await open(short, 'd');
    await short.stop();
    const service = make(1_000);
    await service.start();
    try {
      await service.resolve(c, { choice: 'deny' }, 'r');
      const status = async (id: string) => (await service.get(id))?.status;
      mock.timers.tick(399);
      await settle();
      assert.deepEqual([await status(a), await status(b), await status(d)], ['pending', 'pending', 'pending']);
      mock.timers.tick(2);
      await settle();
      assert.deepEqual(
        [await status(a), await status(b), await status(c), await status(d)],
        ['pending', 'expired', 'denied', 'expired'],
      );
      mock.timers.tick(598);
      await settle();
      assert.equal(await status(a), 'pending');
      mock.timers.tick(2);
      await settle();
      assert.equal(await status(a), 'expired');
      assert.equal(await status(c), 'denied', 'an answered approval is never expired');
    } finally {
      await service.stop();
      mock.timers.reset();
      await store.close();
    }
  });
});

describe('ApprovalService waiters', () => {
  it('an answer given while a wait is starting is not missed', async () => {
    const store = openSqliteStore(':memory:');
    const service = new ApprovalService({
      store,
      events: new ApprovalEvents(),
      approvalTimeoutMs: 60_000,
      maxPendingPerAgent: 10,
    });
    try {
      for (let i = 0; i < 20; i++) {
        const { approval } = await service.open({
          verdict: verdict(`cmd ${i}`),
          decisionId: `d${i}`,
          args: {},
          toolCallId: null,
          suggestedPattern: null,
        });
        const started = Date.now();
        const [waited] = await Promise.all([
          service.wait(approval.id, 5_000),
          service.resolve(approval.id, { choice: 'deny' }, 'r'),
        ]);
        assert.equal(waited?.status, 'denied');
        assert.ok(Date.now() - started < 1000, `round ${i}: the waiter slept through the answer`);
      }
      assert.equal(service.waiting(), 0);
    } finally {
      await service.stop();
      await store.close();
    }
  });

  it('stop() answers held waiters with the current state', async () => {
    const store = openSqliteStore(':memory:');
    const service = new ApprovalService({
      store,
      events: new ApprovalEvents(),
      approvalTimeoutMs: 60_000,
      maxPendingPerAgent: 10,
    });
    const { approval } = await service.open({
      verdict: verdict('x'),
      decisionId: 'd',
      args: {},
      toolCallId: null,
      suggestedPattern: null,
    });
    const held = service.wait(approval.id, 30_000);
    await new Promise((r) => setTimeout(r, 10));
    await service.stop();
    assert.equal((await held)?.status, 'pending');
    assert.equal(service.waiting(), 0);
    await store.close();
  });
});
