// Issue 23 row 9 (CLI): the reviewer commands never pick up the reviewer token from the data directory's
// tokens.json by themselves — an agent running as the same user could otherwise run them (or import their module)
// and approve its own calls. The token comes from TOOLGATE_REVIEWER_TOKEN or a prompt at the terminal.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Io } from '../../src/cli/command.ts';
import { main } from '../../src/cli/main.ts';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';

let dataDir: string;
let server: RunningServer;
let tokens: { agent: string; reviewer: string };

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'toolgate-reviewer-token-'));
  // No token variables: serve generates <data-dir>/tokens.json, as on a fresh install.
  server = await startServer(loadConfig({ 'data-dir': dataDir, port: '0', 'log-level': 'silent' }, {}), {
    out: () => {},
    err: () => {},
    env: {},
  });
  tokens = JSON.parse(readFileSync(join(dataDir, 'tokens.json'), 'utf8'));
});
after(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function pendingApproval(): Promise<string> {
  const res = await fetch(`${server.url}/v1/decide`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.agent}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      tool: 'bash',
      args: { command: `sudo systemctl restart svc-${Math.random()}` },
      agent_id: 'a',
    }),
  });
  return (await res.json()).approval.id;
}

async function statusOf(id: string): Promise<string> {
  return (
    await (
      await fetch(`${server.url}/v1/approvals/${id}`, { headers: { authorization: `Bearer ${tokens.reviewer}` } })
    ).json()
  ).status;
}

async function run(argv: string[], io: Partial<Io>): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const code = await main(argv, { out: () => {}, err: (t) => err.push(t), env: {}, ...io });
  return { code, err: err.join('\n') };
}

describe('reviewer commands and the reviewer token', () => {
  it('approvals resolve run the way an agent would (no variable, not a terminal) does not approve, even with --data-dir', async () => {
    const id = await pendingApproval();
    for (const attempt of [
      {
        argv: ['approvals', 'resolve', id, '--choice', 'allow_once', '--data-dir', dataDir],
        env: { TOOLGATE_URL: server.url },
      },
      {
        argv: ['approvals', 'resolve', id, '--choice', 'allow_once'],
        env: { TOOLGATE_URL: server.url, TOOLGATE_DATA_DIR: dataDir },
      },
    ]) {
      const { code, err } = await run(attempt.argv, { env: attempt.env });
      assert.notEqual(code, 0);
      assert.match(err, /needs the reviewer token/);
      assert.match(err, /does not read <data-dir>\/tokens\.json/);
    }
    assert.equal(await statusOf(id), 'pending', 'nobody approved it');
  });

  it("the token typed at the prompt is used; the environment variable of the reviewer's shell too", async () => {
    const typed = await pendingApproval();
    const asked: string[] = [];
    const prompted = await run(['approvals', 'resolve', typed, '--choice', 'deny'], {
      env: { TOOLGATE_URL: server.url },
      promptSecret: async (q) => (asked.push(q), tokens.reviewer),
    });
    assert.equal(prompted.code, 0, prompted.err);
    assert.match(asked[0] ?? '', /Reviewer token/);
    assert.equal(await statusOf(typed), 'denied');

    const fromEnv = await pendingApproval();
    const viaEnv = await run(['approvals', 'resolve', fromEnv, '--choice', 'deny'], {
      env: { TOOLGATE_URL: server.url, TOOLGATE_REVIEWER_TOKEN: tokens.reviewer },
    });
    assert.equal(viaEnv.code, 0, viaEnv.err);
    assert.equal(await statusOf(fromEnv), 'denied');
  });

  it('a wrong token typed at the prompt is refused by the sidecar', async () => {
    const id = await pendingApproval();
    const wrong = await run(['approvals', 'resolve', id, '--choice', 'allow_once'], {
      env: { TOOLGATE_URL: server.url },
      promptSecret: async () => tokens.agent,
    });
    assert.equal(wrong.code, 1);
    assert.equal(await statusOf(id), 'pending');
  });
});
