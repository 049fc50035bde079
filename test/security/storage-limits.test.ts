// Issue 23 row 3: what an agent can make toolgate store is bounded — an audit row keeps a digest and a prefix of
// large arguments, a tool output has a largest size (413), and offloaded outputs a daily budget per token (429).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bash, startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

let dir: string;
before(() => void (dir = mkdtempSync(join(tmpdir(), 'toolgate-limits-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

function configFile(values: Record<string, unknown>): string {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(values));
  return file;
}

async function auditArgs(h: Harness, decisionId: string): Promise<any> {
  const res = await h.reviewer(`/v1/audit?decision_id=${decisionId}`);
  const body = await res.json();
  const row = (body.rows ?? body.entries ?? body.items ?? body)[0];
  return row.args;
}

describe('arguments stored per decision', () => {
  let h: Harness;
  before(
    async () =>
      (h = await startHarness({
        flags: { config: configFile({ audit_args_max_bytes: 4096, body_limit: 1024 * 1024 }) },
      })),
  );
  after(() => h.close());

  it('a 250 KB Write keeps a digest, its size and a prefix in the audit row; the agent still gets its decision', async () => {
    const content = 'const x = 1;\n'.repeat(20_000);
    const args = { file_path: `${TEST_HOME}/work/project/big.ts`, content };
    const { status, body } = await h.decide({ tool: 'write_file', args, cwd: `${TEST_HOME}/work/project` });
    assert.equal(status, 200);
    const stored = await auditArgs(h, body.decision_id);
    const json = JSON.stringify(stored);
    assert.ok(json.length < 4096 * 2, `stored ${json.length} characters`);
    assert.equal(stored.truncated.bytes, Buffer.byteLength(JSON.stringify(args)));
    assert.match(stored.truncated.sha256, /^[0-9a-f]{64}$/);
    assert.ok(
      stored.prefix.startsWith(`{"file_path":"${TEST_HOME}/work/project/big.ts","content":"const x = 1;`),
      stored.prefix.slice(0, 80),
    );
  });

  it('the digest is of the stored (masked) arguments, so a reviewer can match a copy of the call', async () => {
    const args = { file_path: `${TEST_HOME}/work/project/b.txt`, content: 'y'.repeat(10_000) };
    const { body } = await h.decide({ tool: 'write_file', args, cwd: `${TEST_HOME}/work/project` });
    const stored = await auditArgs(h, body.decision_id);
    assert.equal(stored.truncated.sha256, createHash('sha256').update(JSON.stringify(args)).digest('hex'));
  });

  it('control: small arguments are stored whole', async () => {
    const { body } = await h.decide(bash('git status'));
    assert.deepEqual(await auditArgs(h, body.decision_id), { command: 'git status' });
  });
});

describe('POST /v1/results: size per result and budget per token', () => {
  let h: Harness;
  before(
    async () =>
      (h = await startHarness({
        flags: {
          config: configFile({
            result_max_bytes: 600 * 1024,
            result_budget_bytes: 1024 * 1024,
            offload_threshold: 1024,
          }),
        },
      })),
  );
  after(() => h.close());

  async function post(output: string): Promise<Response> {
    const { body: decision } = await h.decide(bash('cat big.log'));
    return h.agent('/v1/results', {
      method: 'POST',
      body: JSON.stringify({ decision_id: decision.decision_id, result: { output, is_error: false } }),
    });
  }

  it('an output over result_max_bytes gets 413 problem+json naming the field', async () => {
    const res = await post('z'.repeat(700 * 1024));
    assert.equal(res.status, 413);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = await res.json();
    assert.match(problem.detail, /at most 614400/);
    assert.ok(
      problem.errors.some((e: string) => e.startsWith('result.output')),
      JSON.stringify(problem),
    );
  });

  it('a body far over the limit is refused before it is read', async () => {
    const res = await post('z'.repeat(2 * 1024 * 1024));
    assert.equal(res.status, 413);
  });

  it("offloaded outputs past the token's budget get 429 problem+json with Retry-After; small outputs still pass", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(`${i}`.repeat(400 * 1024))).status);
    assert.deepEqual(statuses, [201, 201, 429]);
    const refused = await post('w'.repeat(400 * 1024));
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match((await refused.json()).detail, /budget of 1048576 bytes/);
    // An output under the offload threshold is not stored on disk, so it does not count.
    assert.equal((await post('small output')).status, 201);
  });
});
