// The body limit: oversized bodies get 413 problem+json whether their size is declared or streamed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bash, startHarness, type Harness } from '../support/harness.ts';

describe('request body limit', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const oversized = () => JSON.stringify(bash(`echo ${'x'.repeat(h.config.bodyLimitBytes)}`));

  it('answers 413 for a body whose Content-Length is over the limit', async () => {
    const body = oversized();
    const res = await h.agent('/v1/decide', {
      method: 'POST',
      body,
      headers: { 'content-length': String(Buffer.byteLength(body)) },
    });
    assert.equal(res.status, 413);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  });

  it('answers 413 for a streamed (chunked) body that grows over the limit', async () => {
    const bytes = new TextEncoder().encode(oversized());
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16 * 1024) controller.enqueue(bytes.subarray(i, i + 16 * 1024));
        controller.close();
      },
    });
    const res = await h.agent('/v1/decide', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    assert.equal(res.status, 413);
  });

  it('decides a body under the limit, declared or streamed', async () => {
    const body = JSON.stringify(bash('git status'));
    const declared = await h.agent('/v1/decide', {
      method: 'POST',
      body,
      headers: { 'content-length': String(Buffer.byteLength(body)) },
    });
    assert.equal(declared.status, 200);
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(body)), c.close()) });
    const streamed = await h.agent('/v1/decide', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    assert.equal(streamed.status, 200);
    assert.equal((await streamed.json()).decision, 'allow');
  });

  it('lets GET requests through without reading a body', async () => {
    const res = await h.agent('/healthz');
    assert.equal(res.status, 200);
  });
});
