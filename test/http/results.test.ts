// POST /v1/results and GET /v1/results/{id}: offload of large outputs, redaction, the audit link and the errors.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bash, startHarness, type Harness } from '../support/harness.ts';

async function post(h: Harness, body: unknown): Promise<{ status: number; body: any }> {
  const res = await h.agent('/v1/results', { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('POST /v1/results', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('offloads a 1 MiB output: a truncated version inline, the whole output at the pointer, stored 0600 in the data dir', async () => {
    const { body: decision } = await h.decide(bash('cat big.log'));
    assert.equal(decision.decision, 'allow');
    const output = 'first line\n' + 'x'.repeat(1024 * 1024) + '\nlast line';
    const { status, body } = await post(h, { decision_id: decision.decision_id, result: { output, is_error: false } });
    assert.equal(status, 201);
    assert.equal(body.bytes, Buffer.byteLength(output));
    assert.ok(body.offloaded, 'offloaded');
    assert.equal(body.offloaded.url, `/v1/results/${body.offloaded.id}`);
    assert.ok(body.result.output.length < 16 * 1024, `inline ${body.result.output.length} chars`);
    assert.ok(body.result.output.startsWith('first line'));
    assert.ok(body.result.output.endsWith('last line'));
    assert.match(body.result.output, new RegExp(`the whole output is at GET /v1/results/${body.offloaded.id}`));

    const whole = await (await h.agent(body.offloaded.url)).json();
    assert.equal(whole.output, output);
    assert.equal(whole.decision_id, decision.decision_id);
    const page = await (await h.agent(`${body.offloaded.url}?offset=11&limit=5`)).json();
    assert.equal(page.output, 'xxxxx');
    assert.equal(page.total_chars, output.length);

    const files = readdirSync(join(h.dataDir, 'results'));
    assert.deepEqual(files, [`${body.offloaded.id}.json`]);
    assert.equal(statSync(join(h.dataDir, 'results', files[0]!)).mode & 0o777, 0o600);
  });

  it('keeps a small output inline and masks secrets in it', async () => {
    const { body: decision } = await h.decide(bash('env'));
    const { status, body } = await post(h, {
      decision_id: decision.decision_id,
      result: { output: 'HOME=/home/x\nGITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n', is_error: false },
    });
    assert.equal(status, 201);
    assert.equal(body.offloaded, null);
    assert.equal(body.redacted, true);
    assert.doesNotMatch(body.result.output, /ghp_abcdefghij/);
    assert.match(body.result.output, /HOME=\/home\/x/);
  });

  it('links the result to its decision in the audit log', async () => {
    const { body: decision } = await h.decide(bash('ls -la'));
    await post(h, { decision_id: decision.decision_id, result: { output: 'total 0', is_error: true } });
    const rows = await h.toolgate.store.queryAudit({ decisionId: decision.decision_id, ascending: true });
    assert.deepEqual(
      rows.map((r) => r.decision),
      ['allow', 'result'],
    );
    assert.equal(rows[1]!.source, 'result');
    assert.equal(rows[1]!.tool, 'bash');
    assert.match(rows[1]!.reason, /tool output of 7 bytes \(error\)/);
  });

  it('answers 404 for an unknown decision, 409 for a second result and for a denied call', async () => {
    assert.equal((await post(h, { decision_id: 'nope', result: { output: '', is_error: false } })).status, 404);
    const { body: decision } = await h.decide(bash('pwd'));
    assert.equal(
      (await post(h, { decision_id: decision.decision_id, result: { output: '/x', is_error: false } })).status,
      201,
    );
    const again = await post(h, { decision_id: decision.decision_id, result: { output: '/x', is_error: false } });
    assert.equal(again.status, 409);
    assert.match(again.body.detail, /already has a result/);
    const { body: denied } = await h.decide({ tool: 'Read', args: { file_path: '/home/tester/.ssh/id_rsa' } });
    assert.equal(
      (await post(h, { decision_id: denied.decision_id, result: { output: 'key', is_error: false } })).status,
      409,
    );
  });

  it('rejects a malformed body with path: message', async () => {
    const { status, body } = await post(h, { decision_id: 'x', result: { output: 42 } });
    assert.equal(status, 400);
    assert.ok(
      body.errors.includes('result.output: Invalid input: expected string, received number'),
      body.errors.join('; '),
    );
    assert.ok(body.errors.some((e: string) => e.startsWith('result.is_error:')));
  });

  it('GET answers 404 for unknown ids and never reads outside the results directory', async () => {
    assert.equal((await h.agent('/v1/results/00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await h.agent('/v1/results/..%2F..%2Ftokens')).status, 404);
    assert.equal((await h.agent('/v1/results/..%2Ftoolgate')).status, 404);
  });
});

describe('offload threshold', () => {
  let h: Harness;
  before(async () => (h = await startHarness({ flags: { 'offload-threshold': '100' } })));
  after(() => h.close());

  it('follows --offload-threshold', async () => {
    const { body: decision } = await h.decide(bash('ls'));
    const { body } = await post(h, {
      decision_id: decision.decision_id,
      result: { output: 'é'.repeat(80), is_error: false },
    });
    assert.equal(body.bytes, 160);
    assert.ok(body.offloaded);
    assert.doesNotMatch(body.result.output, /\uFFFD/, 'no split UTF-8 characters in the preview');
  });
});
