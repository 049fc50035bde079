// /readyz says whether toolgate can decide and record; /metrics exposes its counters per app instance; requests get an id.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/service/logger.ts';
import { AGENT_TOKEN, bash, REVIEWER_TOKEN, startHarness, type Harness } from '../support/harness.ts';

/** The value of one sample line of the Prometheus text, or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const [key, value] = line.split(' ');
    if (key === `${name}${labels}`) return Number(value);
  }
  return undefined;
}

describe('/readyz', () => {
  it('is 200 while the database takes writes and the policy loads, 503 once the database is closed', async () => {
    const h = await startHarness();
    const ok = await h.app.request('/readyz');
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { status: 'ready', checks: { database: 'ok', policy: 'ok' } });
    await h.toolgate.store.close();
    const down = await h.app.request('/readyz');
    assert.equal(down.status, 503);
    const body = (await down.json()) as any;
    assert.equal(body.status, 'not_ready');
    assert.match(body.checks.database, /closed/);
    await h.close();
  });
});

describe('/metrics', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('counts decisions by decision and source, with latency histograms and gauges', async () => {
    await h.toolgate.store.addRule({ effect: 'allow', pattern: 'bash(git *)' });
    await h.decide(bash('git status'));
    await h.decide(bash('git log'));
    await h.decide(bash('ls'));
    await h.decide(bash('cat ~/.ssh/id_rsa'));
    const asked = await h.decide(bash('rm -rf src'));
    assert.equal(asked.body.decision, 'ask');
    const res = await h.app.request('/metrics');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /text\/plain/);
    const text = await res.text();
    assert.equal(sample(text, 'toolgate_decisions_total', '{decision="allow",source="rule"}'), 2);
    assert.equal(sample(text, 'toolgate_decisions_total', '{decision="allow",source="default"}'), 1);
    assert.equal(sample(text, 'toolgate_decisions_total', '{decision="deny",source="protected_path"}'), 1);
    assert.equal(sample(text, 'toolgate_decisions_total', '{decision="ask",source="danger"}'), 1);
    assert.equal(sample(text, 'toolgate_decision_duration_seconds_count', '{decision="allow"}'), 3);
    // Buckets are cumulative and end in +Inf with the count (the decide metrics are toolgate's own, in prom-client's format).
    assert.equal(sample(text, 'toolgate_decision_duration_seconds_bucket', '{decision="allow",le="+Inf"}'), 3);
    assert.ok(sample(text, 'toolgate_decision_duration_seconds_bucket', '{decision="allow",le="1"}')! <= 3);
    assert.ok(sample(text, 'toolgate_decision_duration_seconds_sum', '{decision="allow"}')! > 0);
    assert.equal(sample(text, 'toolgate_audit_write_duration_seconds_count'), 5);
    assert.equal(sample(text, 'toolgate_pending_approvals'), 1);
    assert.equal(sample(text, 'toolgate_long_poll_waiters'), 0);
    assert.equal(sample(text, 'toolgate_rules', '{effect="allow"}'), 1);
    assert.ok(sample(text, 'toolgate_process_resident_memory_bytes')! > 0, 'process metrics too');

    // A held long-poll shows as a waiter; the answer lands in the answer-time histogram.
    const poll = h.agent(`/v1/approvals/${asked.body.approval.id}?wait=5`);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(sample(await (await h.app.request('/metrics')).text(), 'toolgate_long_poll_waiters'), 1);
    await h.reviewer(`/v1/approvals/${asked.body.approval.id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ choice: 'allow_once' }),
    });
    assert.equal((await poll).status, 200);
    const later = await (await h.app.request('/metrics')).text();
    assert.equal(sample(later, 'toolgate_approval_answer_seconds_count', '{status="approved"}'), 1);
    assert.equal(sample(later, 'toolgate_pending_approvals'), 0);
    assert.equal(sample(later, 'toolgate_long_poll_waiters'), 0);
  });

  it('keeps a registry per app, so two apps do not share counters', async () => {
    const other = await startHarness();
    await other.decide(bash('ls'));
    const mine = await (await h.app.request('/metrics')).text();
    const theirs = await (await other.app.request('/metrics')).text();
    assert.equal(sample(theirs, 'toolgate_decisions_total', '{decision="allow",source="default"}'), 1);
    assert.equal(
      sample(mine, 'toolgate_decisions_total', '{decision="allow",source="default"}'),
      1,
      'unchanged by the other app',
    );
    await other.close();
  });
});

describe('request log', () => {
  it('logs one JSON line per request with a request id, echoed in X-Request-Id', async () => {
    const h = await startHarness();
    const lines: any[] = [];
    const logger = createLogger({ level: 'info', write: (line) => lines.push(JSON.parse(line)) });
    const { app } = createApp({
      toolgate: h.toolgate,
      tokens: { agent: h.config.agentTokens, reviewer: h.config.reviewerTokens },
      logger,
    });
    const res = await app.request('/v1/rules', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${REVIEWER_TOKEN}`,
        'content-type': 'application/json',
        'x-request-id': 'trace-123',
      },
      body: JSON.stringify({ effect: 'allow', pattern: 'bash(make *)' }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-request-id'), 'trace-123');
    const generated = await app.request('/v1/decide', {
      method: 'POST',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    assert.match(generated.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/, 'an unsafe incoming id is replaced');
    await app.request('/healthz');
    const decided = await app.request('/v1/decide', {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(bash('ls')),
    });
    assert.equal(decided.status, 200);
    assert.ok(decided.headers.get('x-request-id'));
    assert.equal(lines.length, 2, 'health probes and successful decisions (each an audit row) log at debug only');
    assert.deepEqual(
      {
        req_id: lines[0].req_id,
        method: lines[0].method,
        path: lines[0].path,
        status: lines[0].status,
        caller: lines[0].caller,
        level: lines[0].level,
      },
      { req_id: 'trace-123', method: 'POST', path: '/v1/rules', status: 201, caller: 'reviewer', level: 'info' },
    );
    assert.deepEqual(
      { path: lines[1].path, status: lines[1].status, level: lines[1].level },
      { path: '/v1/decide', status: 401, level: 'info' },
      'a refused decide is logged at info',
    );
    assert.equal(typeof lines[0].ms, 'number');
    await h.close();
  });

  it("writes the agent's successful calls at debug, with the caller", async () => {
    const h = await startHarness();
    const lines: any[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) });
    const { app } = createApp({
      toolgate: h.toolgate,
      tokens: { agent: h.config.agentTokens, reviewer: h.config.reviewerTokens },
      logger,
    });
    const res = await app.request('/v1/decide', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${AGENT_TOKEN}`,
        'content-type': 'application/json',
        'x-request-id': 'trace-9',
      },
      body: JSON.stringify(bash('ls')),
    });
    assert.equal(res.status, 200);
    const line = lines.find((l) => l.msg === 'request');
    assert.deepEqual(
      { req_id: line.req_id, path: line.path, status: line.status, caller: line.caller, level: line.level },
      { req_id: 'trace-9', path: '/v1/decide', status: 200, caller: 'agent', level: 'debug' },
    );
    await h.close();
  });
});
