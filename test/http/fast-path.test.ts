// The fast routes (src/http/fast-path.ts) against the app: over real sockets, the same requests get the same
// answers whichever serves them, and everything the fast path does not serve reaches the app untouched.
import assert from 'node:assert/strict';
import { createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { createApp } from '../../src/http/app.ts';
import { failedAuthLimiter } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/service/logger.ts';
import { AGENT_TOKEN, bash, REVIEWER_TOKEN, startHarness, type Harness } from '../support/harness.ts';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/** A raw HTTP request (node:http, so nothing adds or fixes headers). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: string | Buffer,
  abortAfterMs?: number,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body: parsed });
      });
    });
    req.once('error', reject);
    if (abortAfterMs !== undefined) setTimeout(() => req.destroy(), abortAfterMs);
    req.end(body);
  });
}

const json = (token: string | undefined, extra: Record<string, string | number> = {}) => ({
  'content-type': 'application/json',
  ...(token ? { authorization: `Bearer ${token}` } : {}),
  ...extra,
});

/** Ids and timings differ between two answers to the same request; everything else must not. */
function comparable(reply: Reply): unknown {
  const strip = (v: any): any => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (['decision_id', 'id', 'poll', 'created_at', 'expires_at', 'instance'].includes(k)) continue;
        out[k] = strip(x);
      }
      return out;
    }
    return v;
  };
  return {
    status: reply.status,
    type: reply.headers['content-type'],
    retryAfter: reply.headers['retry-after'],
    body: strip(reply.body) ?? reply.text,
  };
}

describe('fast routes', () => {
  let h: Harness;
  let fast: Server;
  let plain: Server;
  let fastPort: number;
  let plainPort: number;
  /** Requests the app saw behind the fast server (the ones the fast path left to it). */
  let appCalls = 0;
  const lines: any[] = [];

  const listen = (listener: RequestListener) =>
    new Promise<Server>((resolve) => {
      const server = createServer(listener);
      server.listen(0, '127.0.0.1', () => resolve(server));
    });

  before(async () => {
    h = await startHarness();
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) });
    const built = createApp({
      toolgate: h.toolgate,
      tokens: { agent: h.config.agentTokens, reviewer: h.config.reviewerTokens },
      logger,
      authGuard: failedAuthLimiter(h.toolgate.store),
    });
    const appListener = getRequestListener(built.app.fetch);
    fast = await listen(
      built.withFastPaths((req, res) => {
        appCalls++;
        return appListener(req, res);
      }),
    );
    // The same toolgate behind the app alone: the reference answers.
    const reference = createApp({
      toolgate: h.toolgate,
      tokens: { agent: h.config.agentTokens, reviewer: h.config.reviewerTokens },
      authGuard: failedAuthLimiter(h.toolgate.store),
    });
    plain = await listen(getRequestListener(reference.app.fetch));
    fastPort = (fast.address() as AddressInfo).port;
    plainPort = (plain.address() as AddressInfo).port;
  });
  after(async () => {
    fast.closeAllConnections();
    plain.closeAllConnections();
    await Promise.all([new Promise((r) => fast.close(r)), new Promise((r) => plain.close(r))]);
    await h.close();
  });

  /** Sends the same request to both servers; returns both replies and whether the app behind the fast one saw it. */
  async function both(method: string, path: string, headers: Record<string, string | number>, body?: string | Buffer) {
    const before = appCalls;
    const viaFast = await send(fastPort, method, path, headers, body);
    const reachedApp = appCalls > before;
    const viaApp = await send(plainPort, method, path, headers, body);
    return { viaFast, viaApp, reachedApp };
  }

  const nested = (depth: number) => `{"tool":"bash","args":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
  const decideCases: [
    name: string,
    headers: Record<string, string | number>,
    body: string | Buffer,
    served: boolean,
  ][] = [
    ['an allowed command', json(AGENT_TOKEN), JSON.stringify(bash('git status')), true],
    ['a reviewer token deciding', json(REVIEWER_TOKEN), JSON.stringify(bash('ls -la')), true],
    [
      'a protected read (deny)',
      json(AGENT_TOKEN),
      JSON.stringify({ tool: 'Read', args: { file_path: '~/.ssh/id_rsa' } }),
      true,
    ],
    [
      'a dangerous command without a human (fallback deny)',
      json(AGENT_TOKEN),
      JSON.stringify(bash('rm -rf ~/projects', { interactive: false })),
      true,
    ],
    [
      'a dangerous command with a human (ask, approval opened)',
      json(AGENT_TOKEN),
      JSON.stringify(bash('rm -rf ./build-fast-path')),
      true,
    ],
    [
      'a body starting with a UTF-8 byte-order mark',
      json(AGENT_TOKEN),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(bash('pwd')))]),
      true,
    ],
    [
      'application/*+json',
      json(AGENT_TOKEN, { 'content-type': 'application/vnd.toolgate+json' }),
      JSON.stringify(bash('pwd')),
      true,
    ],
    ['malformed JSON', json(AGENT_TOKEN), '{"tool": "bash", ', true],
    ['a missing tool', json(AGENT_TOKEN), JSON.stringify({ args: {} }), true],
    ['a NUL byte in an argument', json(AGENT_TOKEN), JSON.stringify(bash('ls\u0000 -la')), true],
    ['JSON nested deeper than 64 levels', json(AGENT_TOKEN), nested(70), true],
    ['JSON nested 60 levels (allowed depth, bad shape)', json(AGENT_TOKEN), nested(60), true],
    ['no token', json(undefined), JSON.stringify(bash('ls')), false],
    ['a wrong token', json('not-a-token'), JSON.stringify(bash('ls')), false],
    ['a text/plain body', json(AGENT_TOKEN, { 'content-type': 'text/plain' }), JSON.stringify(bash('ls')), false],
  ];

  for (const [name, headers, body, served] of decideCases) {
    it(`POST /v1/decide, ${name}: the same answer from both, ${served ? 'served fast' : 'left to the app'}`, async () => {
      const { viaFast, viaApp, reachedApp } = await both('POST', '/v1/decide', headers, body);
      assert.deepEqual(comparable(viaFast), comparable(viaApp));
      assert.equal(reachedApp, !served);
      assert.ok(viaFast.headers['x-request-id'], 'every answer carries a request id');
    });
  }

  it("a repeated call (its verdict cached, its answer's JSON kept with it) gets the app's answer with a new decision id each time", async () => {
    // A finding and a reason with characters JSON escapes: the kept text must be what JSON.stringify makes. From the
    // third repeat on, the fast path reuses the body it parsed (frozen): an ask that opens (and then joins) an
    // approval and a Write the session remembers pass those arguments on, and must answer as the app does.
    const write = { tool: 'Write', args: { file_path: './scripts/repeat.sh', content: 'echo hi\n' } };
    for (const [call, decision] of [
      [bash('git status'), 'allow'],
      [bash('cat ~/.ssh/id_rsa "q\\"uote"'), 'deny'],
      [bash('rm -rf ./build-repeat "é\u2028"', { interactive: false }), 'deny'],
      [bash('rm -rf ./build-repeat-ask', { session_id: 'repeat-ask' }), 'ask'],
      [{ ...bash(''), ...write, session_id: 'repeat-write' }, 'allow'],
    ] as const) {
      const ids = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const { viaFast, viaApp } = await both('POST', '/v1/decide', json(AGENT_TOKEN), JSON.stringify(call));
        assert.equal(viaFast.body.decision, decision, JSON.stringify(call));
        if (decision === 'ask') assert.ok(viaFast.body.approval?.id, 'the ask opened (or joined) an approval');
        assert.deepEqual(comparable(viaFast), comparable(viaApp));
        assert.equal(viaFast.text, JSON.stringify(viaFast.body), 'the text is JSON.stringify of the answer');
        assert.equal(Number(viaFast.headers['content-length']), Buffer.byteLength(viaFast.text));
        assert.match(viaFast.body.decision_id, /^[0-9a-f-]{36}$/);
        ids.add(viaFast.body.decision_id);
      }
      assert.equal(ids.size, 4, 'every answer has its own decision id');
    }
  });

  it('a repeated body is parsed once, never decided once: a rule added after its repeats applies to the same bytes', async () => {
    const text = JSON.stringify(bash('git log --oneline -n 3', { session_id: 'repeat-then-rule' }));
    for (let i = 0; i < 3; i++) {
      const { viaFast } = await both('POST', '/v1/decide', json(AGENT_TOKEN), text);
      assert.equal(viaFast.body.decision, 'allow', 'control: allowed while no rule names it');
    }
    const added = await h.reviewer('/v1/rules', {
      method: 'POST',
      body: JSON.stringify({ effect: 'deny', pattern: 'bash(git log *)' }),
    });
    assert.equal(added.status, 201);
    try {
      const { viaFast, viaApp } = await both('POST', '/v1/decide', json(AGENT_TOKEN), text);
      assert.deepEqual(comparable(viaFast), comparable(viaApp));
      assert.equal(viaFast.body.decision, 'deny', 'the same bytes meet the new rule');
      // Another caller's text that differs in one argument is its own call.
      const other = await send(fastPort, 'POST', '/v1/decide', json(AGENT_TOKEN), text.replace('-n 3', '-n 4'));
      assert.equal(other.body.decision, 'deny');
      const harmless = await send(fastPort, 'POST', '/v1/decide', json(AGENT_TOKEN), text.replace('log', 'status'));
      assert.equal(harmless.body.decision, 'allow', 'control: a call the rule does not name is still allowed');
    } finally {
      const id = (await added.json()).rule.id;
      assert.equal((await h.reviewer(`/v1/rules/${id}`, { method: 'DELETE' })).status, 204);
    }
  });

  it("a body over the limit is the app's 413, and a chunked body is read by the app", async () => {
    const big = JSON.stringify(bash('x'.repeat(h.config.bodyLimitBytes + 10)));
    const { viaFast, viaApp, reachedApp } = await both('POST', '/v1/decide', json(AGENT_TOKEN), big);
    assert.equal(viaFast.status, 413);
    assert.deepEqual(comparable(viaFast), comparable(viaApp));
    assert.ok(reachedApp);
    const before = appCalls;
    const chunked = await send(
      fastPort,
      'POST',
      '/v1/decide',
      json(AGENT_TOKEN, { 'transfer-encoding': 'chunked' }),
      JSON.stringify(bash('git status')),
    );
    assert.equal(chunked.status, 200);
    assert.equal(chunked.body.decision, 'allow');
    assert.equal(appCalls, before + 1);
  });

  it('?explain=true goes to the app and still explains', async () => {
    const before = appCalls;
    const reply = await send(
      fastPort,
      'POST',
      '/v1/decide?explain=true',
      json(AGENT_TOKEN),
      JSON.stringify(bash('git status')),
    );
    assert.equal(reply.status, 200);
    assert.ok(Array.isArray(reply.body.trace) && reply.body.trace.length > 0);
    assert.equal(appCalls, before + 1);
  });

  it("echoes a plain X-Request-Id, replaces an unsafe one, and logs the agent's call at debug", async () => {
    const mine = await send(
      fastPort,
      'POST',
      '/v1/decide',
      json(AGENT_TOKEN, { 'x-request-id': 'trace-fast-1' }),
      JSON.stringify(bash('git log')),
    );
    assert.equal(mine.headers['x-request-id'], 'trace-fast-1');
    const unsafe = await send(
      fastPort,
      'POST',
      '/v1/decide',
      json(AGENT_TOKEN, { 'x-request-id': 'bad id' }),
      JSON.stringify(bash('git log')),
    );
    assert.match(String(unsafe.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const line = lines.find((l) => l.req_id === 'trace-fast-1');
    assert.deepEqual(
      { path: line.path, status: line.status, caller: line.caller, level: line.level, msg: line.msg },
      { path: '/v1/decide', status: 200, caller: 'agent', level: 'debug', msg: 'request' },
    );
  });

  it("decide-and-wait through the fast path returns the reviewer's answer", async () => {
    const waiting = send(
      fastPort,
      'POST',
      '/v1/decide',
      json(AGENT_TOKEN),
      JSON.stringify(bash('rm -rf ./wait-fast', { wait: 20 })),
    );
    let id: string | undefined;
    for (let i = 0; i < 200 && !id; i++) {
      const list = await send(fastPort, 'GET', '/v1/approvals?status=pending', json(REVIEWER_TOKEN));
      id = list.body.approvals.find((a: any) => a.args.command === 'rm -rf ./wait-fast')?.id;
      if (!id) await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(id);
    const resolved = await send(
      fastPort,
      'POST',
      `/v1/approvals/${id}/resolve`,
      json(REVIEWER_TOKEN),
      JSON.stringify({ choice: 'deny_with_feedback', feedback: 'use git clean' }),
    );
    assert.equal(resolved.status, 200);
    const answer = await waiting;
    assert.equal(answer.status, 200);
    assert.deepEqual(
      { decision: answer.body.decision, source: answer.body.source, feedback: answer.body.feedback },
      { decision: 'deny', source: 'human', feedback: 'use git clean' },
    );
  });

  it('GET /v1/approvals/{id}: the same answers from both for a pending, an unknown id, a bad wait and Prefer', async () => {
    const asked = await send(
      fastPort,
      'POST',
      '/v1/decide',
      json(AGENT_TOKEN),
      JSON.stringify(bash('rm -rf ./poll-fast')),
    );
    const id = asked.body.approval.id;
    for (const [path, headers, served] of [
      [`/v1/approvals/${id}`, json(AGENT_TOKEN), true],
      [`/v1/approvals/${id}?wait=0`, json(AGENT_TOKEN), true],
      [`/v1/approvals/${id}?wait=0.05`, json(REVIEWER_TOKEN), true],
      [`/v1/approvals/${id}?wait=-1`, json(AGENT_TOKEN), true],
      [`/v1/approvals/${id}?wait=soon`, json(AGENT_TOKEN), true],
      [`/v1/approvals/${id}?wait=%E0%A4%A`, json(AGENT_TOKEN), true],
      [`/v1/approvals/${id}?wait=%30`, json(AGENT_TOKEN), true],
      [`/v1/approvals/${id}?wait=+1`, json(AGENT_TOKEN), true],
      ['/v1/approvals/no-such-approval?wait=0', json(AGENT_TOKEN), true],
      [`/v1/approvals/${id}`, json(AGENT_TOKEN, { prefer: 'wait=0' }), true],
      [`/v1/approvals/${id}?wait=0&x=1`, json(AGENT_TOKEN), false],
      [`/v1/approvals/${id}`, json('wrong'), false],
    ] as const) {
      const { viaFast, viaApp, reachedApp } = await both('GET', path, headers);
      assert.deepEqual(comparable(viaFast), comparable(viaApp), path);
      assert.equal(viaFast.headers['preference-applied'], viaApp.headers['preference-applied'], path);
      assert.equal(reachedApp, !served, `${path} ${served ? 'served fast' : 'left to the app'}`);
    }
  });

  it('a held long-poll wakes when the reviewer answers, and a caller that hangs up frees its waiter', async () => {
    const asked = await send(
      fastPort,
      'POST',
      '/v1/decide',
      json(AGENT_TOKEN),
      JSON.stringify(bash('rm -rf ./held-fast')),
    );
    const id = asked.body.approval.id;
    const held = send(fastPort, 'GET', `/v1/approvals/${id}?wait=30`, json(AGENT_TOKEN));
    const gone = send(fastPort, 'GET', `/v1/approvals/${id}?wait=30`, json(AGENT_TOKEN), undefined, 100).catch(
      (e: Error) => e,
    );
    for (let i = 0; i < 200 && h.toolgate.approvals.waiting() < 2; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(h.toolgate.approvals.waiting(), 2);
    assert.ok((await gone) instanceof Error, 'the hung-up request never got an answer');
    for (let i = 0; i < 200 && h.toolgate.approvals.waiting() > 1; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(h.toolgate.approvals.waiting(), 1, 'the hung-up waiter is gone');
    const started = Date.now();
    await send(
      fastPort,
      'POST',
      `/v1/approvals/${id}/resolve`,
      json(REVIEWER_TOKEN),
      JSON.stringify({ choice: 'allow_once' }),
    );
    const answer = await held;
    assert.equal(answer.body.status, 'approved');
    assert.ok(Date.now() - started < 1000);
    assert.equal(h.toolgate.approvals.waiting(), 0);
  });

  for (const [path, port] of [
    ['the fast path', () => fastPort],
    ['the app', () => plainPort],
  ] as const) {
    it(`a decide-and-wait whose caller hangs up stops waiting, through ${path}`, async () => {
      const gone = await send(
        port(),
        'POST',
        '/v1/decide',
        json(AGENT_TOKEN),
        JSON.stringify(bash(`rm -rf ./hangup-${port()}`, { wait: 30 })),
        150,
      ).catch((e: Error) => e);
      assert.ok(gone instanceof Error, 'the hung-up request never got an answer');
      for (let i = 0; i < 200 && h.toolgate.approvals.waiting() > 0; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(h.toolgate.approvals.waiting(), 0, 'its waiter is gone, not held for 30 s');
    });
  }

  // Changed by issue 23 row 5: a valid token from a blocked address used to get the app's 429, which let a local
  // process lock every agent out with bad tokens. Valid tokens are served (here, by the fast path); bad ones get 429.
  it("an address blocked for failed authentications: a valid token is still served, a bad one gets the app's 429", async () => {
    for (let i = 0; i < 30; i++) await send(fastPort, 'POST', '/v1/decide', json('wrong-token'), '{}');
    const before = appCalls;
    const reply = await send(fastPort, 'POST', '/v1/decide', json(AGENT_TOKEN), JSON.stringify(bash('ls')));
    assert.equal(reply.status, 200);
    assert.equal(appCalls, before, 'served by the fast path');
    const bad = await send(fastPort, 'POST', '/v1/decide', json('wrong-token'), '{}');
    assert.equal(bad.status, 429);
    assert.equal(bad.headers['content-type'], 'application/problem+json');
    assert.equal(appCalls, before + 1);
  });
});
