// The review page's cookie session: how it is issued, where it counts, and the CSRF and Origin rules on it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openAsk } from '../support/approvals.ts';
import { AGENT_TOKEN, bash, REVIEWER_TOKEN, startHarness, type Harness } from '../support/harness.ts';

// app.request() serves http://localhost: that is the page's own origin here.
const SELF = 'http://localhost';
const EVIL = 'https://evil.example';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

interface Session {
  cookie: string;
  csrf: string;
  setCookie: string;
}

async function login(token = REVIEWER_TOKEN, headers: Record<string, string> = {}): Promise<Response> {
  return h.app.request('/review/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: `token=${encodeURIComponent(token)}`,
  });
}

/** Signs in and reads the CSRF token the page embeds. */
async function signIn(): Promise<Session> {
  const res = await login();
  assert.equal(res.status, 303);
  const setCookie = res.headers.get('set-cookie')!;
  const cookie = setCookie.split(';')[0]!;
  const page = await (await h.app.request('/review', { headers: { cookie } })).text();
  const csrf =
    /name="csrf-token" content="([^"]+)"|data-csrf="([^"]+)"|"csrf(?:Token)?"\s*:\s*"([^"]+)"|name="csrf" value="([^"]+)"/.exec(
      page,
    );
  assert.ok(csrf, 'the signed-in page carries its CSRF token');
  return { cookie, csrf: (csrf[1] ?? csrf[2] ?? csrf[3] ?? csrf[4])!, setCookie };
}

function withCookie(
  session: Session,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Response> {
  const headers: Record<string, string> = { cookie: session.cookie, ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return Promise.resolve(
    h.app.request(path, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
}

describe('signing in', () => {
  it('a reviewer token sets an HttpOnly, SameSite=Strict session cookie (no Secure over plain http)', async () => {
    const { setCookie } = await signIn();
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /SameSite=Strict/i);
    assert.match(setCookie, /Path=\//i);
    assert.doesNotMatch(setCookie, /;\s*Secure/i);
  });

  it('the cookie is Secure when served over TLS (through a proxy that says so)', async () => {
    const res = await login(REVIEWER_TOKEN, { 'x-forwarded-proto': 'https', origin: 'https://localhost' });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('set-cookie') ?? '', /;\s*Secure/i);
  });

  it('an agent token, a wrong token or a cross-origin form gets no cookie', async () => {
    for (const [res, status] of [
      [await login(AGENT_TOKEN), 403],
      [await login('wrong-0123456789abcdef'), 401],
      [await login(REVIEWER_TOKEN, { origin: EVIL }), 403],
      [await login(REVIEWER_TOKEN, { 'sec-fetch-site': 'cross-site' }), 403],
    ] as const) {
      assert.equal(res.status, status);
      assert.equal(res.headers.get('set-cookie'), null);
    }
  });
});

describe('where the cookie counts', () => {
  let session: Session;
  let approvalId: string;
  before(async () => {
    session = await signIn();
    approvalId = (await openAsk(h, 'sudo systemctl restart nginx')).approval.id;
  });

  it("on the page's own reads: the queue, one approval, the audit log", async () => {
    for (const path of ['/v1/approvals?status=pending', `/v1/approvals/${approvalId}`, '/v1/audit']) {
      assert.equal((await withCookie(session, path)).status, 200, path);
      assert.equal(
        (await withCookie(session, path, { headers: { 'sec-fetch-site': 'same-origin' } })).status,
        200,
        path,
      );
    }
  });

  it('nowhere else: rules, grants, decide, cancel and status need a bearer token even with CSRF token and Origin', async () => {
    const headers = { origin: SELF, 'x-csrf-token': session.csrf };
    const calls: [string, string, unknown?][] = [
      ['GET', '/v1/rules'],
      ['POST', '/v1/rules', { effect: 'allow', pattern: 'bash(*)' }],
      ['GET', '/v1/grants'],
      ['POST', '/v1/decide', bash('ls')],
      ['POST', `/v1/approvals/${approvalId}/cancel`],
      ['GET', '/v1/status'],
    ];
    for (const [method, path, body] of calls) {
      const res = await withCookie(session, path, { method, headers, body });
      assert.equal(res.status, 401, `${method} ${path}: ${res.status}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    }
    assert.equal((await h.reviewer('/v1/rules')).status, 200, 'no rule was added');
    assert.equal((await (await h.reviewer('/v1/rules')).json()).rules.length, 0);
  });

  it('a cross-origin read carrying the cookie is refused', async () => {
    for (const headers of <Record<string, string>[]>[
      { origin: EVIL },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://localhost:8080' },
    ]) {
      const res = await withCookie(session, '/v1/approvals?status=pending', { headers });
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    }
  });

  it('resolving by cookie needs the CSRF token and a same-origin Origin; each missing piece is 403 and nothing changes', async () => {
    const attempts: [string, Record<string, string>][] = [
      ['no CSRF token, no Origin', {}],
      ['same Origin, no CSRF token', { origin: SELF }],
      ['CSRF token, no Origin', { 'x-csrf-token': session.csrf }],
      ['CSRF token, foreign Origin', { 'x-csrf-token': session.csrf, origin: EVIL }],
      [
        'CSRF token, same Origin, but a cross-site fetch',
        { 'x-csrf-token': session.csrf, origin: SELF, 'sec-fetch-site': 'cross-site' },
      ],
      ['a wrong CSRF token', { 'x-csrf-token': `${session.csrf.slice(0, -2)}xx`, origin: SELF }],
      ['the CSRF token in lower/upper case games', { 'x-csrf-token': session.csrf.toUpperCase(), origin: SELF }],
    ];
    for (const [label, headers] of attempts) {
      const res = await withCookie(session, `/v1/approvals/${approvalId}/resolve`, {
        method: 'POST',
        headers,
        body: { choice: 'allow_once' },
      });
      assert.equal(res.status, 403, `${label}: ${res.status} ${await res.clone().text()}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, label);
    }
    assert.equal((await (await h.reviewer(`/v1/approvals/${approvalId}`)).json()).status, 'pending');
  });

  it("another session's CSRF token does not work", async () => {
    const other = await signIn();
    const res = await withCookie(session, `/v1/approvals/${approvalId}/resolve`, {
      method: 'POST',
      headers: { origin: SELF, 'x-csrf-token': other.csrf },
      body: { choice: 'allow_once' },
    });
    assert.equal(res.status, 403);
  });

  it("with the CSRF token and the same Origin the page resolves, recorded under the reviewer token's name", async () => {
    const res = await withCookie(session, `/v1/approvals/${approvalId}/resolve`, {
      method: 'POST',
      headers: { origin: SELF, 'x-csrf-token': session.csrf, 'sec-fetch-site': 'same-origin' },
      body: { choice: 'deny' },
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal((await res.json()).resolved_by, 'reviewer');
  });

  it('a made-up or stale cookie is just no credentials (401)', async () => {
    const res = await h.app.request('/v1/approvals', { headers: { cookie: 'toolgate_review=forged-session-id' } });
    assert.equal(res.status, 401);
  });

  it('a wrong bearer token does not fall back to the cookie', async () => {
    const res = await withCookie(session, '/v1/approvals', {
      headers: { authorization: 'Bearer wrong-0123456789abcdef' },
    });
    assert.equal(res.status, 401);
  });

  it('bearer tokens keep working for curl, whatever the Origin', async () => {
    const res = await h.app.request('/v1/approvals', {
      headers: { authorization: `Bearer ${REVIEWER_TOKEN}`, origin: EVIL },
    });
    assert.equal(res.status, 200);
  });
});

describe('signing out', () => {
  it('clears the cookie and ends the session; a cross-origin sign-out is refused', async () => {
    const session = await signIn();
    const foreign = await h.app.request('/review/logout', {
      method: 'POST',
      headers: { cookie: session.cookie, origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${encodeURIComponent(session.csrf)}`,
    });
    assert.equal(foreign.status, 403);
    assert.equal((await withCookie(session, '/v1/approvals')).status, 200, 'still signed in');
    const res = await h.app.request('/review/logout', {
      method: 'POST',
      headers: { cookie: session.cookie, origin: SELF, 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${encodeURIComponent(session.csrf)}`,
    });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('set-cookie') ?? '', /toolgate_review=;.*Max-Age=0/i);
    assert.equal((await withCookie(session, '/v1/approvals')).status, 401, 'the old cookie is dead');
  });
});
