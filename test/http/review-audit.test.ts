// /review/audit: the audit log as a table for a signed-in reviewer; nothing for anyone else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openAsk, resolveAs } from '../support/approvals.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { signIn, withCookie } from './review-support.ts';

describe('review audit page', () => {
  let h: Harness;
  let cookie: string;
  before(async () => {
    h = await startHarness();
    cookie = (await signIn(h)).cookie;
    const ask = await openAsk(h);
    assert.equal(
      (await resolveAs(h, ask.approval.id, { choice: 'deny_with_feedback', feedback: 'ask <Bob> first' })).status,
      200,
    );
  });
  after(() => h.close());

  it('sends a visitor without a session to the sign-in form', async () => {
    const res = await h.app.request('/review/audit');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/review');
  });

  it('lists the decision and the human answer, newest first, with who answered, escaped', async () => {
    const res = await withCookie(h, cookie, '/review/audit');
    assert.equal(res.status, 200);
    const page = await res.text();
    const denied = page.indexOf('<td class="status deny">deny</td><td>human</td>');
    const asked = page.indexOf('<td class="status ask">ask</td>');
    assert.ok(denied > 0 && asked > denied, 'the answer row comes before the ask row');
    assert.match(page, /sudo systemctl restart nginx/);
    assert.match(page, /<td>reviewer<\/td>/);
    assert.match(page, /ask &lt;Bob&gt; first/);
    assert.doesNotMatch(page, /<Bob>/);
  });

  it('filters by decision', async () => {
    const page = await (await withCookie(h, cookie, '/review/audit?decision=ask')).text();
    assert.match(page, /status ask/);
    assert.doesNotMatch(page, /<td class="status deny">/);
  });

  it('answers a bad filter with a problem, not a 5xx', async () => {
    const res = await withCookie(h, cookie, '/review/audit?decision=maybe&cursor=-4');
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type')!, /application\/problem\+json/);
  });

  it('lets the page read GET /v1/audit with the cookie', async () => {
    const res = await withCookie(h, cookie, '/v1/audit?limit=5', { headers: { 'sec-fetch-site': 'same-origin' } });
    assert.equal(res.status, 200);
  });
});
