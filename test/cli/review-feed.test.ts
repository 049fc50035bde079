// toolgate review: the SSE parser, and the feed that loads the queue, follows events and reconnects after a restart.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, test } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import { followApprovals, FeedAuthError, type FeedEventType } from '../../src/cli/review/approval-feed.ts';
import { SseParser } from '../../src/cli/review/sse-parser.ts';
import type { Approval } from '../../src/cli/review/state.ts';
import { REVIEWER_TOKEN, startHarness, type Harness } from '../support/harness.ts';

test('SSE: events split across chunks, CRLF and CR line ends, comments, multi-line data', () => {
  const p = new SseParser();
  assert.deepEqual(p.push(': connected\n\nevent: approval.cre'), []);
  assert.deepEqual(p.push('ated\r\nid: 1\r\ndata: {"a":\r\ndata:1}\r'), []);
  assert.deepEqual(p.push('\n\r\n: keep-alive\n\n'), [{ event: 'approval.created', data: '{"a":\n1}', id: '1' }]);
  assert.deepEqual(p.push('data: x\r\r'), [], 'a CR at the end may be half of a CRLF');
  assert.deepEqual(p.push(': next'), [{ event: 'message', data: 'x', id: '1' }]);
  assert.deepEqual(p.push('event: nothing\n\n'), [], 'no data, no event');
});

/** Serves the harness's app on a real socket, on `port` (0: a free one). */
function listen(h: Harness, port = 0): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const s = serve({ fetch: h.app.fetch, hostname: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

function closeServer(s: ServerType): Promise<void> {
  return new Promise((resolve) => {
    s.close(() => resolve());
    (s as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
}

/** Resolves when `check` passes, polling every 10 ms. */
async function eventually(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('followApprovals against a running sidecar', () => {
  let h: Harness;
  let server: ServerType;
  let port: number;
  before(async () => {
    h = await startHarness({ flags: { mode: 'strict' } });
    server = await listen(h);
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await closeServer(server);
    await h.close();
  });

  it('loads the queue at connect, follows new and answered approvals, and reconnects after the sidecar restarts', async () => {
    const first = await h.decide({ tool: 'bash', args: { command: 'rm -rf ./src' } });
    assert.equal(first.body.decision, 'ask');
    const connects: { pending: string[]; mode?: string }[] = [];
    const events: [FeedEventType, string][] = [];
    const drops: string[] = [];
    const stop = new AbortController();
    const running = followApprovals({
      url: `http://127.0.0.1:${port}`,
      token: () => REVIEWER_TOKEN,
      signal: stop.signal,
      initialDelayMs: 20,
      maxDelayMs: 100,
      onConnected: (pending: Approval[], status) =>
        connects.push({ pending: pending.map((a) => a.id), mode: status?.mode }),
      onEvent: (type, approval) => events.push([type, approval.id]),
      onDisconnected: (reason) => drops.push(reason),
    });
    await eventually(() => connects.length === 1, 'the first connect');
    assert.deepEqual(connects[0], { pending: [first.body.approval.id], mode: 'strict' });

    const second = await h.decide({ tool: 'bash', args: { command: 'git push --force' } });
    await eventually(() => events.length === 1, 'approval.created');
    assert.deepEqual(events[0], ['approval.created', second.body.approval.id]);
    await h.reviewer(`/v1/approvals/${first.body.approval.id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ choice: 'deny' }),
    });
    await eventually(() => events.length === 2, 'approval.resolved');
    assert.deepEqual(events[1], ['approval.resolved', first.body.approval.id]);

    // The sidecar goes away: the feed reports it and keeps trying.
    await closeServer(server);
    await eventually(() => drops.length >= 2, 'two failed attempts');
    // It comes back on the same port with a new approval opened meanwhile: the queue reloads.
    const third = await h.decide({ tool: 'bash', args: { command: 'sudo reboot' } });
    server = await listen(h, port);
    await eventually(() => connects.length === 2, 'the reconnect');
    assert.deepEqual(new Set(connects[1]!.pending), new Set([second.body.approval.id, third.body.approval.id]));

    stop.abort();
    await running;
  });

  it('a refused token at start is an error, not an endless retry', async () => {
    await assert.rejects(
      followApprovals({
        url: `http://127.0.0.1:${port}`,
        token: () => 'not-a-token',
        signal: new AbortController().signal,
        onConnected() {},
        onEvent() {},
        onDisconnected() {},
      }),
      (error: unknown) => error instanceof FeedAuthError && /401/.test(error.message),
    );
  });
});
