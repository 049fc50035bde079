// Authentication: 401 without a valid token, 403 for the wrong role, named tokens in the audit log, constant-time compare.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { TokenAuthenticator } from '../../src/http/auth.ts';
import { auditRowsFor, openAsk, resolveAs } from '../support/approvals.ts';
import { AGENT_TOKEN, bash, REVIEWER_TOKEN, startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

/** Every /v1 route the app serves, with path parameters filled in. */
function v1Routes(harness: Harness): { method: string; path: string }[] {
  const seen = new Set<string>();
  const routes: { method: string; path: string }[] = [];
  for (const r of harness.app.routes) {
    if (!r.path.startsWith('/v1/') || r.method === 'ALL') continue;
    const path = r.path.replace(/:runtime\b/, 'claude-code').replace(/:[a-z_]+/gi, 'some-id');
    const key = `${r.method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ method: r.method, path });
  }
  return routes;
}

async function expectProblem(res: Response, status: number): Promise<any> {
  assert.equal(res.status, status, `${res.url || ''} ${await res.clone().text()}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await res.json();
  assert.equal(body.status, status);
  assert.equal(typeof body.detail, 'string');
  return body;
}

describe('no token or a wrong token is 401 problem+json on every /v1 route', () => {
  it('finds the routes to check (a guard against an empty table)', () => {
    const routes = v1Routes(h).map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'POST /v1/decide',
      'GET /v1/approvals',
      'POST /v1/approvals/some-id/resolve',
      'GET /v1/rules',
      'GET /v1/audit',
      'GET /v1/events',
    ])
      assert.ok(routes.includes(expected), `${expected} missing from ${routes.join(', ')}`);
  });

  const variants: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a wrong bearer token', { authorization: 'Bearer not-a-token-0123456789abcdef' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['Basic credentials', { authorization: `Basic ${Buffer.from(`x:${REVIEWER_TOKEN}`).toString('base64')}` }],
    ['the reviewer token with a suffix', { authorization: `Bearer ${REVIEWER_TOKEN}x` }],
    ['a prefix of the reviewer token', { authorization: `Bearer ${REVIEWER_TOKEN.slice(0, -1)}` }],
    ['the token in another header', { 'x-api-key': REVIEWER_TOKEN }],
  ];
  for (const [name, headers] of variants) {
    it(`with ${name}`, async () => {
      // A fresh harness: these requests are failures and must not trip the rate limiter of the shared one.
      const fresh = await startHarness();
      try {
        for (const { method, path } of v1Routes(fresh)) {
          const res = await fresh.app.request(path, {
            method,
            headers: { 'content-type': 'application/json', ...headers },
            body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
          });
          if (path.startsWith('/v1/hooks/')) {
            // Claude Code runs the tool on any non-2xx answer from an http hook: the hook route fails closed.
            assert.equal(res.status, 200, `${method} ${path} with ${name}`);
            assert.equal(res.headers.get('x-toolgate-status'), '401', `${method} ${path}`);
            assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/, `${method} ${path}`);
            assert.equal((await res.json()).hookSpecificOutput.permissionDecision, 'deny', `${method} ${path}`);
            continue;
          }
          assert.equal(res.status, 401, `${method} ${path} with ${name}: ${res.status} ${await res.clone().text()}`);
          assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, `${method} ${path}`);
          assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/, `${method} ${path}`);
        }
      } finally {
        await fresh.close();
      }
    });
  }

  it('accepts the scheme case-insensitively, as RFC 7235 says', async () => {
    const res = await h.app.request('/v1/rules', { headers: { authorization: `bearer ${REVIEWER_TOKEN}` } });
    assert.equal(res.status, 200);
  });
});

describe('an agent token is 403 on reviewer endpoints, and nothing changes', () => {
  const reviewerOnly: [string, string, unknown?][] = [
    ['GET', '/v1/approvals?status=pending'],
    ['GET', '/v1/rules'],
    ['POST', '/v1/rules', { effect: 'allow', pattern: 'bash(*)' }],
    ['POST', '/v1/rules/preview', { effect: 'allow', pattern: 'bash(*)' }],
    ['GET', '/v1/rules/some-id'],
    ['DELETE', '/v1/rules/some-id'],
    ['GET', '/v1/grants'],
    ['DELETE', '/v1/grants/some-id'],
    ['GET', '/v1/audit'],
    ['GET', '/v1/events'],
    ['GET', '/v1/status'],
  ];
  for (const [method, path, body] of reviewerOnly) {
    it(`${method} ${path}`, async () => {
      const res = await h.agent(path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
      const problem = await expectProblem(res, 403);
      assert.match(problem.detail, /reviewer/);
    });
  }

  it('cannot resolve an approval — not even its own — and the approval stays pending', async () => {
    const ask = await openAsk(h, 'sudo systemctl restart sshd');
    for (const choice of ['allow_once', 'allow_always', 'allow_session']) {
      const { status, body } = await resolveAs(h, ask.approval.id, { choice }, 'agent');
      assert.equal(status, 403, JSON.stringify(body));
    }
    const poll = await (await h.agent(`/v1/approvals/${ask.approval.id}`)).json();
    assert.equal(poll.status, 'pending');
    const { rules } = await (await h.reviewer('/v1/rules')).json();
    assert.equal(rules.filter((r: any) => r.effect === 'allow').length, 0, 'no allow rule was created');
  });

  it('cannot add a rule: the policy does not move', async () => {
    const before = await h.toolgate.store.policyVersion();
    await expectProblem(
      await h.agent('/v1/rules', { method: 'POST', body: JSON.stringify({ effect: 'allow', pattern: 'bash(*)' }) }),
      403,
    );
    assert.equal(await h.toolgate.store.policyVersion(), before);
    const { body } = await h.decide(bash('sudo systemctl restart sshd', { session_id: 'other' }));
    assert.equal(body.decision, 'ask');
  });

  it('may decide, poll, cancel and call the hook endpoint', async () => {
    const ask = await openAsk(h, 'sudo systemctl restart cron');
    assert.equal((await h.agent(`/v1/approvals/${ask.approval.id}`)).status, 200);
    assert.equal((await h.agent(`/v1/approvals/${ask.approval.id}/cancel`, { method: 'POST' })).status, 200);
    const hook = await h.agent('/v1/hooks/claude-code', {
      method: 'POST',
      body: JSON.stringify({
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        session_id: 's1',
        cwd: '/home/tester/work',
      }),
    });
    assert.equal(hook.status, 200, await hook.clone().text());
  });

  it('a reviewer token works on agent endpoints too', async () => {
    const res = await h.reviewer('/v1/decide', { method: 'POST', body: JSON.stringify(bash('ls')) });
    assert.equal(res.status, 200);
  });
});

describe('several named tokens per role from the config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-tokens-'));
  const tokens = {
    agent: [
      { name: 'ci-bot', token: 'ci-bot-token-0123456789abcdef' },
      { name: 'laptop', token: 'laptop-token-0123456789abcdef' },
    ],
    reviewer: [
      { name: 'alice', token: 'alice-token-0123456789abcdef' },
      { name: 'bob', token: 'bob-token-0123456789abcdefgh' },
    ],
  };
  let named: Harness;
  before(async () => {
    const file = join(dir, 'toolgate.json');
    writeFileSync(file, JSON.stringify({ tokens }), { mode: 0o600 });
    named = await startHarness({
      flags: { config: file },
      env: { TOOLGATE_AGENT_TOKEN: '', TOOLGATE_REVIEWER_TOKEN: '' },
    });
  });
  after(async () => {
    await named.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const as = (token: string, path: string, init: RequestInit = {}) =>
    named.app.request(path, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });

  it('every configured token authenticates with its role; the harness defaults do not', async () => {
    for (const t of tokens.agent) {
      assert.equal(
        (await as(t.token, '/v1/decide', { method: 'POST', body: JSON.stringify(bash('ls')) })).status,
        200,
        t.name,
      );
      assert.equal((await as(t.token, '/v1/rules')).status, 403, t.name);
    }
    for (const t of tokens.reviewer) assert.equal((await as(t.token, '/v1/rules')).status, 200, t.name);
    assert.equal((await as(AGENT_TOKEN, '/v1/rules')).status, 401);
  });

  it('the audit log and the approval record which named reviewer answered', async () => {
    for (const [reviewer, command] of [
      [tokens.reviewer[0]!, 'sudo systemctl restart nginx'],
      [tokens.reviewer[1]!, 'sudo systemctl restart redis'],
    ] as const) {
      const decided = await (
        await as(tokens.agent[1]!.token, '/v1/decide', { method: 'POST', body: JSON.stringify(bash(command)) })
      ).json();
      assert.equal(decided.decision, 'ask');
      const res = await as(reviewer.token, `/v1/approvals/${decided.approval.id}/resolve`, {
        method: 'POST',
        body: JSON.stringify({ choice: 'allow_once' }),
      });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).resolved_by, reviewer.name);
      const rows = auditRowsFor(named, decided.approval.id);
      assert.equal(rows.at(-1).resolved_by, reviewer.name);
      assert.equal(rows.at(-1).source, 'human');
    }
  });

  it('the agent that cancels is named in the audit log', async () => {
    const decided = await (
      await as(tokens.agent[0]!.token, '/v1/decide', {
        method: 'POST',
        body: JSON.stringify(bash('sudo systemctl restart cron')),
      })
    ).json();
    assert.equal(
      (await as(tokens.agent[0]!.token, `/v1/approvals/${decided.approval.id}/cancel`, { method: 'POST' })).status,
      200,
    );
    assert.equal(auditRowsFor(named, decided.approval.id).at(-1).resolved_by, 'ci-bot');
  });
});

describe('tokens are compared in constant time', () => {
  const configured = {
    agent: [
      { name: 'a1', token: 'agent-one-0123456789abcdef' },
      { name: 'a2', token: 'agent-two-0123456789abcdef' },
    ],
    reviewer: [{ name: 'r1', token: 'reviewer-one-0123456789abcdef' }],
  };

  /** Counts timingSafeEqual calls (and their buffer lengths) while `fn` runs. */
  function compares(fn: () => void): number[] {
    const lengths: number[] = [];
    const original = crypto.timingSafeEqual;
    const spy = mock.method(crypto, 'timingSafeEqual', (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      lengths.push(a.byteLength, b.byteLength);
      return original(a, b);
    });
    syncBuiltinESMExports();
    try {
      fn();
    } finally {
      spy.mock.restore();
      syncBuiltinESMExports();
    }
    return lengths;
  }

  it('every presented token is checked against every configured one with equal-length digests, match or not', () => {
    const auth = new TokenAuthenticator(configured);
    const presented = [
      'reviewer-one-0123456789abcdef',
      'agent-two-0123456789abcdef',
      'x',
      'agent-two-0123456789abcdeg',
      'a'.repeat(5000),
    ];
    const shapes = presented.map((token) => compares(() => auth.identify(token)));
    for (const lengths of shapes) {
      assert.equal(lengths.length, 2 * 3, 'one comparison per configured token');
      assert.ok(
        lengths.every((n) => n === 32),
        'fixed-size digests, so the length of the guess says nothing',
      );
    }
    assert.equal(auth.identify('reviewer-one-0123456789abcdef')?.name, 'r1');
    assert.equal(auth.identify('agent-two-0123456789abcdef')?.name, 'a2');
    assert.equal(auth.identify('agent-two-0123456789abcdeg'), undefined);
  });

  it('a token accepted once is known by its text afterwards; a guess is never remembered, however often it is tried', () => {
    const auth = new TokenAuthenticator(configured);
    assert.equal(compares(() => auth.identify('agent-two-0123456789abcdef')).length, 2 * 3);
    const again = compares(() => assert.equal(auth.identify('agent-two-0123456789abcdef')?.name, 'a2'));
    assert.equal(again.length, 0, "an agent's later calls cost a lookup, not a hash and three comparisons");
    for (let i = 0; i < 3; i++) {
      const guess = compares(() => assert.equal(auth.identify('agent-two-0123456789abcdeg'), undefined));
      assert.equal(guess.length, 2 * 3, 'a refused token is checked in full every time');
    }
    assert.equal(auth.identify('reviewer-one-0123456789abcdef')?.role, 'reviewer');
    assert.equal(
      auth.identify('agent-two-0123456789abcdef')?.role,
      'agent',
      'each remembered token keeps its own identity',
    );
  });
});
