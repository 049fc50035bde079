// Issue 23 row 19: an agent token bound to an agent id acts as that agent — `agent:<id>` rule scopes and session
// grants bind to the token, not to the id a caller declares.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REVIEWER_TOKEN, startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

const CI_TOKEN = 'ci-token-bound-to-ci-bot-0123456789';
const DEV_TOKEN = 'dev-token-not-bound-0123456789abcd';

let h: Harness;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolgate-binding-'));
  const file = join(dir, 'toolgate.json');
  writeFileSync(
    file,
    JSON.stringify({
      tokens: {
        agent: [
          { name: 'ci', token: CI_TOKEN, agent_id: 'ci-bot' },
          { name: 'dev', token: DEV_TOKEN },
        ],
        reviewer: [{ name: 'alice', token: REVIEWER_TOKEN }],
      },
    }),
    { mode: 0o600 },
  );
  // The harness's env tokens come first; this config adds the two agent tokens.
  h = await startHarness({ flags: { config: file } });
  for (const rule of [
    { effect: 'deny', pattern: 'bash(git push *)', scope: 'agent:ci-bot' },
    { effect: 'allow', pattern: 'bash(sudo systemctl restart api)', scope: 'agent:ci-bot' },
  ])
    assert.equal((await h.reviewer('/v1/rules', { method: 'POST', body: JSON.stringify(rule) })).status, 201);
});
after(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A bash decide body that declares no agent id unless told to. */
function bash(command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { tool: 'bash', args: { command }, cwd: `${TEST_HOME}/work/project`, ...extra };
}

async function decideWith(token: string, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const res = await h.app.request('/v1/decide', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('a token bound to an agent id', () => {
  it('cannot act as another agent: 403 problem+json naming agent_id', async () => {
    const { status, body } = await decideWith(CI_TOKEN, bash('git push origin main', { agent_id: 'someone-else' }));
    assert.equal(status, 403);
    assert.match(body.detail, /bound to agent "ci-bot"/);
    assert.ok(body.errors.some((e: string) => e.startsWith('agent_id')));
  });

  it('acts as its agent without declaring it: the agent-scoped deny applies', async () => {
    const { status, body } = await decideWith(CI_TOKEN, bash('git push origin main'));
    assert.equal(status, 200);
    assert.equal(body.decision, 'deny');
    assert.equal(body.source, 'rule');
  });

  it('another token cannot claim the bound id to get its allow rule, nor escape by declaring another id', async () => {
    const claimed = await decideWith(DEV_TOKEN, bash('sudo systemctl restart api', { agent_id: 'ci-bot' }));
    assert.equal(claimed.status, 403);
    assert.match(claimed.body.detail, /has a token of its own/);
    // Control: the bound token gets its own allow rule; the unbound one, as itself, is asked.
    assert.equal((await decideWith(CI_TOKEN, bash('sudo systemctl restart api'))).body.decision, 'allow');
    assert.equal(
      (await decideWith(DEV_TOKEN, bash('sudo systemctl restart api', { agent_id: 'dev' }))).body.decision,
      'ask',
    );
  });

  it("session grants: a grant for the bound agent's session is out of reach of other tokens", async () => {
    const first = await decideWith(CI_TOKEN, bash('sudo systemctl restart nginx', { session_id: 's1' }));
    assert.equal(first.body.decision, 'ask');
    const approval = await (await h.reviewer(`/v1/approvals/${first.body.approval.id}`)).json();
    assert.equal(approval.session_id, 'ci-bot/s1', 'the session is namespaced by the bound agent');
    assert.equal(
      (
        await h.reviewer(`/v1/approvals/${first.body.approval.id}/resolve`, {
          method: 'POST',
          body: JSON.stringify({ choice: 'allow_session' }),
        })
      ).status,
      200,
    );
    const again = await decideWith(CI_TOKEN, bash('sudo systemctl restart nginx', { session_id: 's1' }));
    assert.equal(again.body.decision, 'allow');
    assert.equal(again.body.source, 'session_grant');
    // Another token naming the same session, in either spelling, does not get the grant.
    const plain = await decideWith(DEV_TOKEN, bash('sudo systemctl restart nginx', { session_id: 's1' }));
    assert.equal(plain.body.decision, 'ask');
    const spelled = await decideWith(DEV_TOKEN, bash('sudo systemctl restart nginx', { session_id: 'ci-bot/s1' }));
    assert.equal(spelled.status, 403);
    assert.ok(spelled.body.errors.some((e: string) => e.startsWith('session_id')));
  });

  it('the hook of a bound token acts as its agent, whatever agent the runtime names', async () => {
    const res = await h.app.request('/v1/hooks/claude-code', {
      method: 'POST',
      headers: { authorization: `Bearer ${CI_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        session_id: 'h1',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'git push origin main' },
        agent_id: 'sub',
      }),
    });
    const out = await res.json();
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny', JSON.stringify(out));
  });
});
