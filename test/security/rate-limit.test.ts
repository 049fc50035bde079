// Rate limits: failed authentications per client address (429 for a while), and the per-agent cap on pending asks.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServer } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { clientAddress, failedAuthLimiter, type FailedAuthLimiter } from '../../src/http/rate-limit.ts';
import { AGENT_TOKEN, bash, REVIEWER_TOKEN, startHarness, type Harness } from '../support/harness.ts';

/** What @hono/node-server hands the app: the incoming request's socket, here with a chosen peer address. */
function from(address: string): { incoming: { socket: { remoteAddress: string } } } {
  return { incoming: { socket: { remoteAddress: address } } };
}

function request(h: Harness, token: string, address: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    h.app.request('/v1/rules', { headers: { authorization: `Bearer ${token}`, ...headers } }, from(address)),
  );
}

describe('failed authentications per client address', () => {
  const harnesses: Harness[] = [];
  after(async () => {
    for (const h of harnesses) await h.close();
  });

  async function limited(options: Parameters<typeof failedAuthLimiter>[1]) {
    let clock = 1_000_000;
    let limiter!: FailedAuthLimiter;
    const h = await startHarness({
      authGuard: (toolgate) => (limiter = failedAuthLimiter(toolgate.store, { now: () => clock, ...options })),
    });
    harnesses.push(h);
    return { h, limiter, advance: (ms: number) => (clock += ms) };
  }

  it('a flood of bad tokens from one address gets 429 problem+json with Retry-After, then recovers', async () => {
    const { h, limiter, advance } = await limited({ maxFailures: 10, windowMs: 60_000, blockMs: 30_000 });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await request(h, `guess-${i}-0123456789abcdef`, '10.0.0.7')).status);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), Array(15).fill(429));
    const blocked = await request(h, 'guess-x-0123456789abcdef', '10.0.0.7');
    assert.match(blocked.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(blocked.headers.get('retry-after'), '30');
    assert.match((await blocked.json()).detail, /too many failed authentications/);
    assert.equal(await limiter.blocked(), 1);

    // Changed by issue 23 row 5: the right token used to wait out the block too (against a guessing oracle), which
    // let any local process lock every agent and the reviewer out with bad tokens. Valid credentials are a separate
    // bucket now: they are served while the address's failures stay blocked.
    assert.equal((await request(h, REVIEWER_TOKEN, '10.0.0.7')).status, 200);
    assert.equal(
      (await request(h, AGENT_TOKEN, '10.0.0.7')).status,
      403,
      'the agent token gets the role check (reviewer endpoint), not the block',
    );
    assert.equal(
      (await request(h, 'guess-y-0123456789abcdef', '10.0.0.7')).status,
      429,
      'a bad token is still blocked',
    );
    // Another address is not affected.
    assert.equal((await request(h, 'guess-z-0123456789abcdef', '10.0.0.8')).status, 401);
    advance(30_001);
    assert.equal(await limiter.blocked(), 0);
    advance(30_000); // a fresh window: the next failure is counted from one again
    assert.equal((await request(h, 'guess-w-0123456789abcdef', '10.0.0.7')).status, 401);
  });

  it('failures spread over windows are not a flood', async () => {
    const { h, advance } = await limited({ maxFailures: 5, windowMs: 10_000 });
    for (let i = 0; i < 20; i++) {
      assert.equal((await request(h, 'wrong-0123456789abcdef', '10.0.0.9')).status, 401, `attempt ${i}`);
      if (i % 4 === 3) advance(10_001);
    }
  });

  it('a forged X-Forwarded-For does not give an attacker a fresh address per guess', async () => {
    const { h } = await limited({ maxFailures: 5 });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push(
        (await request(h, 'wrong-0123456789abcdef', '10.0.0.10', { 'x-forwarded-for': `203.0.113.${i}` })).status,
      );
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it('behind a trusted proxy, X-Forwarded-For names the client', async () => {
    const { h } = await limited({ maxFailures: 3, trustForwardedFor: true });
    for (let i = 0; i < 3; i++)
      await request(h, 'wrong-0123456789abcdef', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1, 127.0.0.1' });
    // (Probed with a bad token: since issue 23 row 5 a valid one is served even from a blocked address.)
    assert.equal(
      (await request(h, 'wrong-0123456789abcdef', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).status,
      429,
    );
    assert.equal(
      (await request(h, 'wrong-0123456789abcdef', '127.0.0.1', { 'x-forwarded-for': '198.51.100.2' })).status,
      401,
    );
  });

  it('IPv4-mapped addresses are the IPv4 address, and an IPv6 /64 is one client', async () => {
    const { h } = await limited({ maxFailures: 4 });
    await request(h, 'wrong-0123456789abcdef', '::ffff:192.0.2.5');
    await request(h, 'wrong-0123456789abcdef', '192.0.2.5');
    await request(h, 'wrong-0123456789abcdef', '2001:db8:1:2::1');
    await request(h, 'wrong-0123456789abcdef', '2001:db8:1:2:ffff::9');
    // (Probed with a bad token: since issue 23 row 5 a valid one is served even from a blocked address.)
    assert.equal((await request(h, 'wrong-0123456789abcdef', '192.0.2.5')).status, 401, 'two failures only');
    await request(h, 'wrong-0123456789abcdef', '2001:db8:1:2:abcd::1');
    await request(h, 'wrong-0123456789abcdef', '2001:db8:1:2:abcd::2');
    assert.equal((await request(h, 'wrong-0123456789abcdef', '2001:db8:1:2::77')).status, 429);
    assert.equal((await request(h, 'wrong-0123456789abcdef', '2001:db8:1:3::1')).status, 401, 'another /64');
  });

  it('a spray of addresses cannot grow its memory without bound', async () => {
    const { h, limiter } = await limited({ maxFailures: 2, maxTracked: 100 });
    let most = 0;
    for (let i = 0; i < 1000; i++) {
      await request(h, 'wrong-0123456789abcdef', `10.1.${i >> 8}.${i & 255}`);
      most = Math.max(most, await limiter.tracked());
    }
    assert.ok(most <= 100, `tracked ${most} addresses`);
    assert.equal(await limiter.blocked(), 0, 'each address failed once, under the limit');
    assert.equal((await request(h, REVIEWER_TOKEN, '10.1.0.0')).status, 200);
  });

  it('a valid token costs no query of the failure ledger, even from a blocked address; a bad one costs one', async () => {
    const queries: string[] = [];
    let limiter!: FailedAuthLimiter;
    const h = await startHarness({
      authGuard: (toolgate) => {
        // The store as the limiter sees it, with every ledger call written down.
        const counted = new Proxy(toolgate.store, {
          get(target, key, receiver) {
            const value = Reflect.get(target, key, receiver);
            if (typeof key !== 'string' || !/AuthFailure|authBlocked/.test(key)) return value;
            return (...args: unknown[]) => {
              queries.push(key);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
        return (limiter = failedAuthLimiter(counted, { maxFailures: 3 }));
      },
    });
    harnesses.push(h);
    for (let i = 0; i < 4; i++) await request(h, 'wrong-0123456789abcdef', '10.2.0.1');
    assert.equal(await limiter.blocks('10.2.0.1', undefined), true);
    queries.length = 0;
    for (let i = 0; i < 20; i++) assert.equal((await request(h, REVIEWER_TOKEN, '10.2.0.1')).status, 200);
    assert.equal((await h.decide(bash('ls'))).status, 200);
    assert.deepEqual(queries, [], 'valid credentials never reach the ledger');
    assert.equal((await request(h, 'wrong-0123456789abcdef', '10.2.0.1')).status, 429);
    assert.deepEqual(queries, ['recordAuthFailure'], 'control: a bad token is one statement');
  });

  it('a database that cannot count failures answers 503 problem+json for a bad token, never a 500; a valid token is served', async () => {
    const h = await startHarness({
      authGuard: (toolgate) =>
        failedAuthLimiter({
          ...toolgate.store,
          recordAuthFailure: () => Promise.reject(new Error('connection refused')),
        }),
    });
    harnesses.push(h);
    const refused = await request(h, 'wrong-0123456789abcdef', '10.3.0.1');
    assert.equal(refused.status, 503);
    assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.match((await refused.json()).detail, /cannot be counted/);
    assert.equal((await request(h, REVIEWER_TOKEN, '10.3.0.1')).status, 200);
  });

  it('clientAddress reads the socket, never a header it was not told to trust', async () => {
    const h = await startHarness();
    harnesses.push(h);
    let seen = '';
    h.app.get('/peek', (c) => {
      seen = clientAddress(c);
      return c.text('ok');
    });
    await h.app.request(
      '/peek',
      { headers: { 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '1.2.3.4' } },
      from('10.9.8.7'),
    );
    assert.equal(seen, '10.9.8.7');
    await h.app.request('/peek');
    assert.equal(seen, 'unknown', 'no socket (in-process): one shared key, never a crash');
  });

  it('serve wires the limiter to the real socket address', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-serve-'));
    const config = loadConfig(
      { 'data-dir': dataDir, port: '0', 'log-level': 'silent' },
      { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN },
    );
    const running = await startServer(config, { out: () => {}, err: () => {}, env: {} } as never);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 35; i++)
        statuses.push(
          (await fetch(`${running.url}/v1/rules`, { headers: { authorization: `Bearer wrong-${i}-0123456789abcdef` } }))
            .status,
        );
      assert.equal(statuses.filter((s) => s === 401).length, 30, statuses.join(','));
      assert.equal(statuses.at(-1), 429);
      assert.equal((await fetch(`${running.url}/healthz`)).status, 200, 'unauthenticated health stays up');
      // Issue 23 row 5: the flood does not lock out valid tokens from the same (loopback) address — the agent's
      // decide (served by the fast path) and the reviewer's API — while bad tokens stay blocked.
      const decide = await fetch(`${running.url}/v1/decide`, {
        method: 'POST',
        headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'bash', args: { command: 'ls' } }),
      });
      assert.equal(decide.status, 200);
      assert.equal(
        (await fetch(`${running.url}/v1/rules`, { headers: { authorization: `Bearer ${REVIEWER_TOKEN}` } })).status,
        200,
      );
      assert.equal(
        (
          await fetch(`${running.url}/v1/decide`, {
            method: 'POST',
            headers: { authorization: 'Bearer wrong-again-0123456789abcdef', 'content-type': 'application/json' },
            body: '{"tool":"bash","args":{"command":"ls"}}',
          })
        ).status,
        429,
      );
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a flood of asks from one agent', () => {
  it('is capped with 429 problem+json and Retry-After; other agents still ask; answering frees a slot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-cap-'));
    const file = join(dir, 'toolgate.json');
    writeFileSync(file, JSON.stringify({ max_pending_per_agent: 5 }));
    const h = await startHarness({ flags: { config: file } });
    try {
      const statuses: number[] = [];
      let first: any;
      for (let i = 0; i < 12; i++) {
        const res = await h.agent('/v1/decide', {
          method: 'POST',
          body: JSON.stringify(bash(`sudo systemctl restart svc-${i}`, { agent_id: 'runaway' })),
        });
        statuses.push(res.status);
        const body = await res.json();
        if (i === 0) first = body;
        if (res.status === 429) {
          assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
          assert.ok(Number(res.headers.get('retry-after')) > 0);
          assert.match(body.detail, /runaway already has 5 pending approvals/);
        }
      }
      assert.deepEqual(statuses, [...Array(5).fill(200), ...Array(7).fill(429)]);
      // The reviewer's queue holds five, not twelve.
      const queue = (await (await h.reviewer('/v1/approvals?status=pending')).json()).approvals;
      assert.equal(queue.filter((a: any) => a.agent_id === 'runaway').length, 5);
      // Someone else is not starved.
      const other = await h.decide(bash('sudo systemctl restart svc-0', { agent_id: 'polite' }));
      assert.equal(other.status, 200);
      assert.equal(other.body.decision, 'ask');
      // Answer one: the runaway may ask once more.
      assert.equal(
        (
          await h.reviewer(`/v1/approvals/${first.approval.id}/resolve`, {
            method: 'POST',
            body: JSON.stringify({ choice: 'deny' }),
          })
        ).status,
        200,
      );
      assert.equal((await h.decide(bash('sudo systemctl restart svc-99', { agent_id: 'runaway' }))).status, 200);
      assert.equal((await h.decide(bash('sudo systemctl restart svc-100', { agent_id: 'runaway' }))).status, 429);
      // Asking again for something already pending is the same approval, not a new one: no 429 for a retry.
      assert.equal((await h.decide(bash('sudo systemctl restart svc-1', { agent_id: 'runaway' }))).status, 200);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
