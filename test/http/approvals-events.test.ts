// GET /v1/events: reviewers see approvals appear and get answered, live, as server-sent events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../support/harness.ts';
import { openAsk, resolveAs } from '../support/approvals.ts';

/** One parsed server-sent event. */
interface SseEvent {
  event: string;
  data: any;
  id?: string;
}

/** Reads an SSE body incrementally and hands out events one by one. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    text: () => buffer,
    async next(timeoutMs = 2000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const blocks = buffer.split('\n\n');
        for (let i = 0; i < blocks.length - 1; i++) {
          const lines = blocks[i]!.split('\n').filter((l) => !l.startsWith(':') && l.length > 0);
          if (lines.length === 0) continue;
          buffer = blocks.slice(i + 1).join('\n\n');
          const field = (name: string) =>
            lines
              .filter((l) => l.startsWith(`${name}:`))
              .map((l) => l.slice(name.length + 1).replace(/^ /, ''))
              .join('\n');
          return { event: field('event'), data: JSON.parse(field('data')), id: field('id') || undefined };
        }
        // Only comments so far: drop the complete ones.
        buffer = blocks[blocks.length - 1]!;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no event within ${timeoutMs} ms; buffer: ${JSON.stringify(buffer)}`);
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
        if (chunk === null) continue;
        if (chunk.done) throw new Error('the stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('GET /v1/events', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('needs a reviewer token', async () => {
    assert.equal((await h.agent('/v1/events')).status, 403);
    assert.equal((await h.app.request('/v1/events')).status, 401);
  });

  it('announces approval.created and approval.resolved with the approval as JSON', async () => {
    const controller = new AbortController();
    const res = await h.reviewer('/v1/events', { signal: controller.signal });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = sseReader(res.body!);
    const { approval } = await openAsk(h, 'sudo systemctl restart nginx');
    const created = await events.next();
    assert.equal(created.event, 'approval.created');
    assert.equal(created.data.id, approval.id);
    assert.equal(created.data.status, 'pending');
    assert.deepEqual(created.data.args, { command: 'sudo systemctl restart nginx' });
    assert.ok(created.data.risk);

    await resolveAs(h, approval.id, { choice: 'deny_with_feedback', feedback: 'no' });
    const resolved = await events.next();
    assert.equal(resolved.event, 'approval.resolved');
    assert.equal(resolved.data.id, approval.id);
    assert.equal(resolved.data.status, 'denied');
    assert.equal(resolved.data.feedback, 'no');

    const dup = await openAsk(h, 'sudo systemctl restart apache2');
    await openAsk(h, 'sudo systemctl restart apache2');
    await h.agent(`/v1/approvals/${dup.approval.id}/cancel`, { method: 'POST' });
    const next = await events.next();
    assert.equal(next.event, 'approval.created');
    const after = await events.next();
    assert.equal(after.event, 'approval.cancelled', 'a deduplicated ask is not announced twice');
    controller.abort();
    await events.cancel().catch(() => undefined);
  });

  it('unsubscribes when the reviewer disconnects', async () => {
    const before = h.toolgate.events.listenerCount();
    const controller = new AbortController();
    const res = await h.reviewer('/v1/events', { signal: controller.signal });
    const events = sseReader(res.body!);
    await openAsk(h, 'sudo systemctl restart cron');
    await events.next();
    assert.equal(h.toolgate.events.listenerCount(), before + 1);
    controller.abort();
    await events.cancel().catch(() => undefined);
    for (let i = 0; i < 50 && h.toolgate.events.listenerCount() > before; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal(h.toolgate.events.listenerCount(), before);
  });
});

describe('GET /v1/events expiry', () => {
  let h: Harness;
  before(async () => (h = await startHarness({ flags: { 'approval-timeout': '300ms' } })));
  after(() => h.close());

  it('announces approval.expired', async () => {
    const controller = new AbortController();
    const res = await h.reviewer('/v1/events', { signal: controller.signal });
    const events = sseReader(res.body!);
    const { approval } = await openAsk(h);
    assert.equal((await events.next()).event, 'approval.created');
    const expired = await events.next(3000);
    assert.equal(expired.event, 'approval.expired');
    assert.equal(expired.data.id, approval.id);
    assert.equal(expired.data.status, 'expired');
    controller.abort();
    await events.cancel().catch(() => undefined);
  });
});
