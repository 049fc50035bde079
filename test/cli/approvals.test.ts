// toolgate approvals list|show|resolve against a real server on a loopback socket.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Io } from '../../src/cli/command.ts';
import { main } from '../../src/cli/main.ts';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { AGENT_TOKEN, REVIEWER_TOKEN } from '../support/harness.ts';

/** Runs `toolgate approvals …` with captured output. */
async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => (out += t + '\n'), err: (t) => (err += t + '\n'), env };
  const code = await main(['approvals', ...argv], io);
  return { code, out, err };
}

describe('toolgate approvals', () => {
  let server: RunningServer;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const silent: Io = { out: () => {}, err: () => {}, env: {} };

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-cli-'));
    const config = loadConfig(
      { 'data-dir': dataDir, port: '0', 'log-level': 'silent' },
      { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN },
    );
    server = await startServer(config, silent);
    env = { TOOLGATE_URL: server.url, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN };
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function ask(command: string): Promise<string> {
    const res = await fetch(`${server.url}/v1/decide`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'bash', args: { command }, agent_id: 'cli-agent', session_id: 's', cwd: '/tmp' }),
    });
    const body = await res.json();
    assert.equal(body.decision, 'ask');
    return body.approval.id;
  }

  it('list says when the queue is empty', async () => {
    const { code, out } = await run(['list'], env);
    assert.equal(code, 0);
    assert.match(out, /no pending approvals/);
  });

  it('list shows pending approvals with id, risk, the command and the agent; --json gives one object per line', async () => {
    const id = await ask('sudo systemctl restart nginx');
    const { code, out } = await run(['list'], env);
    assert.equal(code, 0);
    assert.ok(out.includes(id));
    assert.match(out, /pending\s+medium\s+bash: sudo systemctl restart nginx/);
    assert.match(out, /\[agent cli-agent\]/);
    const json = await run(['list', '--json'], env);
    const rows = json.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      rows.map((r) => r.id),
      [id],
    );
  });

  it('show prints the approval as JSON', async () => {
    const id = await ask('sudo systemctl restart redis');
    const { code, out } = await run(['show', id], env);
    assert.equal(code, 0);
    const approval = JSON.parse(out);
    assert.equal(approval.id, id);
    assert.equal(approval.status, 'pending');
    assert.equal(approval.suggested_pattern, 'bash(sudo systemctl restart redis *)');
  });

  it('resolve answers; an agent polling sees it; a second different answer fails with the 409 detail', async () => {
    const id = await ask('sudo systemctl restart postgresql');
    const polled = fetch(`${server.url}/v1/approvals/${id}?wait=30`, {
      headers: { authorization: `Bearer ${AGENT_TOKEN}` },
    }).then((r) => r.json());
    const { code, out } = await run(
      ['resolve', id, '--choice', 'deny_with_feedback', '--feedback', 'not during the backup'],
      env,
    );
    assert.equal(code, 0, out);
    assert.match(out, new RegExp(`${id} denied \\(deny_with_feedback\\)`));
    const seen = await polled;
    assert.equal(seen.status, 'denied');
    assert.equal(seen.feedback, 'not during the backup');

    const again = await run(['resolve', id, '--choice', 'allow_once'], env);
    assert.equal(again.code, 1);
    assert.match(again.err, /409 .*already denied/);
  });

  it('resolve --choice allow_always --rule saves the typed rule', async () => {
    const id = await ask('sudo systemctl restart cron');
    const { code, out } = await run(
      ['resolve', id, '--choice', 'allow_always', '--rule', 'bash(sudo systemctl restart cron)'],
      env,
    );
    assert.equal(code, 0, out);
    assert.match(out, /rule bash\(sudo systemctl restart cron\)/);
    const rules = await (
      await fetch(`${server.url}/v1/rules`, { headers: { authorization: `Bearer ${REVIEWER_TOKEN}` } })
    ).json();
    assert.ok(rules.rules.some((r: { pattern: string }) => r.pattern === 'bash(sudo systemctl restart cron)'));
  });

  it('usage errors exit 2; a missing feedback is the server 400 detail; an agent token is refused', async () => {
    const badChoice = await run(['resolve', 'x', '--choice', 'maybe'], env);
    assert.equal(badChoice.code, 2);
    assert.match(badChoice.err, /--choice must be one of/);
    const noId = await run(['resolve'], env);
    assert.equal(noId.code, 2);
    assert.match(noId.err, /takes an approval id/);
    const id = await ask('sudo systemctl restart sshd');
    const noFeedback = await run(['resolve', id, '--choice', 'deny_with_feedback'], env);
    assert.equal(noFeedback.code, 1);
    assert.match(noFeedback.err, /400 .*feedback/);
    const asAgent = await run(['resolve', id, '--choice', 'allow_once'], {
      TOOLGATE_URL: server.url,
      TOOLGATE_REVIEWER_TOKEN: AGENT_TOKEN,
    });
    assert.equal(asAgent.code, 1);
    assert.match(asAgent.err, /403/);
  });

  it('says when the sidecar cannot be reached', async () => {
    const { code, err } = await run(['list'], {
      TOOLGATE_URL: 'http://127.0.0.1:9',
      TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN,
    });
    assert.equal(code, 1);
    assert.match(err, /cannot reach toolgate at http:\/\/127\.0\.0\.1:9/);
  });
});
