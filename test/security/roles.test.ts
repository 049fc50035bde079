// Who may do what: the route × role matrix, and the ways an agent might try to approve itself or read a reviewer token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openAsk } from '../support/approvals.ts';
import { AGENT_TOKEN, bash, REVIEWER_TOKEN, startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
let approvalId: string;
before(async () => {
  h = await startHarness();
  approvalId = (await openAsk(h, 'sudo systemctl restart nginx')).approval.id;
});
after(() => h.close());

type Access = 'agent' | 'reviewer';
/** Every authenticated route and the least role it needs (a reviewer token satisfies every role). */
const MATRIX: [string, string, Access, unknown?][] = [
  ['POST', '/v1/decide', 'agent', bash('ls')],
  ['GET', '/v1/approvals/{id}', 'agent'],
  ['POST', '/v1/approvals/{id}/cancel', 'agent'],
  [
    'POST',
    '/v1/hooks/claude-code',
    'agent',
    { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
  ],
  ['POST', '/v1/results', 'agent', { decision_id: 'nope', result: { output: 'x', is_error: false } }],
  ['GET', '/v1/results/nope', 'agent'],
  ['POST', '/v1/mcp/tools', 'agent', { server: 'roles', tools: [] }],
  ['POST', '/v1/mcp/tools/accept', 'reviewer', { server: 'roles', tool: 'none' }],
  ['GET', '/v1/approvals', 'reviewer'],
  ['POST', '/v1/approvals/{id}/resolve', 'reviewer', { choice: 'deny' }],
  ['GET', '/v1/rules', 'reviewer'],
  ['POST', '/v1/rules', 'reviewer', { effect: 'deny', pattern: 'bash(shutdown *)' }],
  ['POST', '/v1/rules/preview', 'reviewer', { effect: 'allow', pattern: 'bash(ls *)' }],
  ['GET', '/v1/rules/nope', 'reviewer'],
  ['DELETE', '/v1/rules/nope', 'reviewer'],
  ['GET', '/v1/grants', 'reviewer'],
  ['DELETE', '/v1/grants/nope', 'reviewer'],
  ['GET', '/v1/audit', 'reviewer'],
  ['GET', '/v1/status', 'reviewer'],
];

async function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return h.app.request(path.replace('{id}', approvalId), {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('the route × role matrix', () => {
  it('covers every authenticated /v1 route the app serves', () => {
    const served = new Set(
      h.app.routes
        .filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path.replace(/:id\b/, '{id}').replace(/:runtime\b/, 'claude-code')}`),
    );
    const listed = new Set(MATRIX.map(([m, p]) => `${m} ${p.replace(/\/nope$/, '/{id}')}`));
    listed.add('GET /v1/events'); // a stream: checked on its own below
    for (const route of served) assert.ok(listed.has(route), `${route} is served but has no row in the role matrix`);
  });

  // Cancel last: it ends the shared approval.
  for (const [method, path, least, body] of [...MATRIX].sort(
    (a, b) => Number(a[1].endsWith('/cancel')) - Number(b[1].endsWith('/cancel')),
  )) {
    it(`${method} ${path}: ${least === 'agent' ? 'agent and reviewer' : 'reviewer only'}`, async () => {
      const asAgent = await call(AGENT_TOKEN, method, path, body);
      if (least === 'reviewer') assert.equal(asAgent.status, 403, await asAgent.text());
      else assert.ok(![401, 403].includes(asAgent.status), `agent got ${asAgent.status}: ${await asAgent.text()}`);
      if (!path.endsWith('/cancel') && !path.endsWith('/resolve')) {
        const asReviewer = await call(REVIEWER_TOKEN, method, path, body);
        assert.ok(
          ![401, 403].includes(asReviewer.status),
          `reviewer got ${asReviewer.status}: ${await asReviewer.text()}`,
        );
      }
    });
  }

  it('GET /v1/events: 403 for an agent, a stream for a reviewer', async () => {
    assert.equal((await call(AGENT_TOKEN, 'GET', '/v1/events')).status, 403);
    const controller = new AbortController();
    const res = await h.app.request('/v1/events', {
      headers: { authorization: `Bearer ${REVIEWER_TOKEN}` },
      signal: controller.signal,
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    controller.abort();
    await res.body?.cancel().catch(() => {});
  });
});

describe('an agent cannot approve its own calls', () => {
  it('asking for a looser mode (bypass_all, auto_approve) does not turn an ask into an allow', async () => {
    for (const mode of ['bypass_all', 'auto_approve']) {
      const { body } = await h.decide(bash('sudo systemctl restart postgresql', { mode }));
      assert.equal(body.decision, 'ask', `${mode}: ${JSON.stringify(body)}`);
    }
  });

  it("interactive: false falls back to the operator's deny, not to allow", async () => {
    const { body } = await h.decide(
      bash('sudo systemctl restart postgresql', { interactive: false, session_id: 'fallback' }),
    );
    assert.equal(body.decision, 'deny');
  });

  it('fields that only a reviewer sets are refused in a decide body', async () => {
    for (const extra of [
      { resolved_by: 'reviewer' },
      { choice: 'allow_once' },
      { decision: 'allow' },
      { approved: true },
    ]) {
      const { status, body } = await h.decide(bash('sudo systemctl restart postgresql', extra));
      assert.equal(status, 400, JSON.stringify(body));
    }
  });

  it('the review page refuses an agent token at sign-in and sets no cookie', async () => {
    const res = await h.app.request('/review/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(AGENT_TOKEN)}`,
    });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('set-cookie'), null);
  });
});

describe('no endpoint returns a token', () => {
  it('GET responses of every route, decide answers and the review page never contain either token', async () => {
    const leaks: string[] = [];
    const check = async (label: string, res: Response) => {
      const text = await res.text();
      const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
      for (const token of [AGENT_TOKEN, REVIEWER_TOKEN])
        if (text.includes(token) || headers.includes(token))
          leaks.push(`${label} returns ${token === AGENT_TOKEN ? 'the agent' : 'the reviewer'} token`);
    };
    for (const r of h.app.routes) {
      if (r.method !== 'GET' || r.path === '/v1/events' || r.path === '/*') continue;
      const path = r.path.replace(':id', approvalId);
      for (const token of [AGENT_TOKEN, REVIEWER_TOKEN])
        await check(`GET ${path}`, await h.app.request(path, { headers: { authorization: `Bearer ${token}` } }));
    }
    await check(
      'decide',
      await h.agent('/v1/decide', {
        method: 'POST',
        body: JSON.stringify(bash(`echo ${REVIEWER_TOKEN.slice(0, 10)}`)),
      }),
    );
    const login = await h.app.request('/review/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(REVIEWER_TOKEN)}`,
    });
    await check('POST /review/login', login);
    const cookie = login.headers.get('set-cookie')?.split(';')[0];
    assert.ok(cookie, 'the reviewer could sign in');
    await check('GET /review (signed in)', await h.app.request('/review', { headers: { cookie } }));
    assert.deepEqual(leaks, []);
  });
});
