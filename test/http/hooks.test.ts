// POST /v1/hooks/{runtime}: Claude Code's http hook body in, its hook output out; Codex and Gemini formats; ask passthrough vs hold.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

function claude(tool: string, toolInput: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: 'cc-session-1',
    transcript_path: `${TEST_HOME}/.claude/projects/p/cc-session-1.jsonl`,
    cwd: `${TEST_HOME}/work/project`,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
    ...extra,
  };
}

async function hook(h: Harness, runtime: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await h.agent(`/v1/hooks/${runtime}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('POST /v1/hooks/claude-code (PreToolUse)', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('answers ask for rm -rf ./src, and opens no approval (Claude Code prompts its own user)', async () => {
    const { status, body } = await hook(
      h,
      'claude-code',
      claude('Bash', { command: 'rm -rf ./src', description: 'clean' }),
    );
    assert.equal(status, 200);
    assert.equal(body.hookSpecificOutput.hookEventName, 'PreToolUse');
    assert.equal(body.hookSpecificOutput.permissionDecision, 'ask');
    assert.match(body.hookSpecificOutput.permissionDecisionReason, /delete|rm/i);
    const queue = await (await h.reviewer('/v1/approvals?status=pending')).json();
    assert.equal(queue.approvals.length, 0);
  });

  it('answers deny for Read of ~/.ssh/id_rsa, naming the protected path', async () => {
    const { body } = await hook(h, 'claude-code', claude('Read', { file_path: `${TEST_HOME}/.ssh/id_rsa` }));
    assert.equal(body.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(body.hookSpecificOutput.permissionDecisionReason, /\.ssh/);
  });

  // Issue 22: an allow toolgate did not choose (no rule: source default) used to answer permissionDecision allow,
  // which switched Claude Code's own permission prompt off. It now leaves the call to Claude Code ({}); an allow
  // from a rule still answers allow.
  it('leaves git status to Claude Code when no rule allows it, and answers allow when one does', async () => {
    const { body } = await hook(h, 'claude-code', claude('Bash', { command: 'git status' }));
    assert.deepEqual(body, {}, 'no permissionDecision: Claude Code applies its own permission settings');
    const rule = await h.reviewer('/v1/rules', {
      method: 'POST',
      body: JSON.stringify({ effect: 'allow', pattern: 'bash(git diff)' }),
    });
    assert.equal(rule.status, 201);
    const ruled = await hook(h, 'claude-code', claude('Bash', { command: 'git diff' }));
    assert.equal(ruled.body.hookSpecificOutput.permissionDecision, 'allow');
    assert.match(ruled.body.hookSpecificOutput.permissionDecisionReason, /git diff/);
  });

  it('records the decision in the audit log with the session and the tool call id', async () => {
    await hook(
      h,
      'claude-code',
      claude('Bash', { command: 'git log -1' }, { tool_use_id: 'toolu_audit_1', session_id: 'cc-audit' }),
    );
    const rows = await h.toolgate.store.queryAudit({ sessionId: 'cc-audit' });
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.agent_id, 'claude-code');
    assert.equal(rows[0]!.tool, 'bash');
    assert.equal(rows[0]!.decision, 'allow');
  });

  it('answers the PermissionRequest hook with decision.behavior, and no decision for an ask', async () => {
    const denied = await hook(
      h,
      'claude-code',
      claude('Read', { file_path: '~/.aws/credentials' }, { hook_event_name: 'PermissionRequest' }),
    );
    assert.equal(denied.body.hookSpecificOutput.hookEventName, 'PermissionRequest');
    assert.equal(denied.body.hookSpecificOutput.decision.behavior, 'deny');
    assert.match(denied.body.hookSpecificOutput.decision.message, /\.aws/);
    // Issue 22: with no rule toolgate has no opinion, so Claude Code's own dialog shows (no decision).
    const unmatched = await hook(
      h,
      'claude-code',
      claude('Bash', { command: 'ls -la' }, { hook_event_name: 'PermissionRequest' }),
    );
    assert.deepEqual(unmatched.body, {});
    const allowed = await hook(
      h,
      'claude-code',
      claude('Bash', { command: 'git diff' }, { hook_event_name: 'PermissionRequest' }),
    );
    assert.deepEqual(allowed.body.hookSpecificOutput.decision, { behavior: 'allow' });
    const asked = await hook(
      h,
      'claude-code',
      claude('Bash', { command: 'rm -rf ./src' }, { hook_event_name: 'PermissionRequest' }),
    );
    assert.deepEqual(asked.body, {});
  });

  it('denies a call it cannot read (fail closed, naming the field), and rejects hook events it does not answer', async () => {
    const missing = await hook(h, 'claude-code', { hook_event_name: 'PreToolUse', tool_input: {} });
    assert.equal(missing.status, 200, 'Claude Code runs the tool on a non-2xx answer, so a bad body is a deny');
    assert.equal(missing.body.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(missing.body.hookSpecificOutput.permissionDecisionReason, /400 .*tool_name/);
    // PostToolUse is answered now (issue 22, below); an event toolgate has no use for keeps its 400.
    const stop = await hook(h, 'claude-code', claude('Bash', { command: 'ls' }, { hook_event_name: 'Stop' }));
    assert.equal(stop.status, 400);
    assert.match(stop.body.detail, /PreToolUse, PermissionRequest and PostToolUse/);
    const unknown = await hook(h, 'cursor', claude('Bash', { command: 'ls' }));
    assert.equal(unknown.status, 404);
  });

  it('needs an agent token, and without one answers a deny', async () => {
    const res = await h.app.request('/v1/hooks/claude-code', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(claude('Bash', { command: 'ls' })),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-toolgate-status'), '401');
    const out = (await res.json()).hookSpecificOutput;
    assert.equal(out.permissionDecision, 'deny');
    assert.match(out.permissionDecisionReason, /401/);
  });
});

describe('POST /v1/hooks/codex and /v1/hooks/gemini', () => {
  let h: Harness;
  before(async () => (h = await startHarness({ flags: { 'hook-hold': '1s' } })));
  after(() => h.close());

  it('Codex: deny carries a non-empty reason; allow is an empty object', async () => {
    const denied = await hook(h, 'codex', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'cat ~/.ssh/id_ed25519' },
      session_id: 'cx',
      cwd: `${TEST_HOME}/w`,
    });
    assert.equal(denied.body.hookSpecificOutput.permissionDecision, 'deny');
    assert.ok(denied.body.hookSpecificOutput.permissionDecisionReason.trim().length > 0);
    const allowed = await hook(h, 'codex', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git status' },
      session_id: 'cx',
      cwd: `${TEST_HOME}/w`,
    });
    assert.deepEqual(allowed.body, {});
  });

  it("Codex: an ask waits on toolgate's queue (Codex cannot ask) and a reviewer's answer comes back", async () => {
    const pending = hook(h, 'codex', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf ./lib' },
      session_id: 'cx-hold',
      cwd: `${TEST_HOME}/w`,
    });
    let approvals: any[] = [];
    for (let i = 0; i < 50 && approvals.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      approvals = (await (await h.reviewer('/v1/approvals?status=pending')).json()).approvals.filter(
        (a: any) => a.session_id === 'cx-hold',
      );
    }
    assert.equal(approvals.length, 1);
    await h.reviewer(`/v1/approvals/${approvals[0].id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ choice: 'deny_with_feedback', feedback: 'use make clean' }),
    });
    const { body } = await pending;
    assert.equal(body.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(body.hookSpecificOutput.permissionDecisionReason, /use make clean/);
  });

  it('Codex: when nobody answers within hook_hold the call is denied, saying the approval stays pending', async () => {
    const { body } = await hook(h, 'codex', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf ./docs' },
      session_id: 'cx-timeout',
      cwd: `${TEST_HOME}/w`,
    });
    assert.equal(body.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(body.hookSpecificOutput.permissionDecisionReason, /no reviewer answered within 1s.*stays pending/);
  });

  it('Codex: apply_patch touching a protected path is denied (the patch text is read for its files)', async () => {
    const patch =
      '*** Begin Patch\n*** Add File: /home/tester/.ssh/authorized_keys\n+ssh-ed25519 AAAA attacker\n*** End Patch\n';
    const { body } = await hook(h, 'codex', {
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: patch },
      cwd: `${TEST_HOME}/w`,
    });
    assert.equal(body.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(body.hookSpecificOutput.permissionDecisionReason, /\.ssh/);
  });

  it('Gemini: BeforeTool gets {decision, reason} for run_shell_command and read_file', async () => {
    // Issue 22: no rule, nothing dangerous: no decision, so Gemini CLI applies its own policy.
    const allowed = await hook(h, 'gemini', {
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'git status' },
      session_id: 'gm',
      cwd: `${TEST_HOME}/w`,
      timestamp: new Date().toISOString(),
    });
    assert.deepEqual(allowed.body, {});
    const denied = await hook(h, 'gemini', {
      hook_event_name: 'BeforeTool',
      tool_name: 'read_file',
      tool_input: { absolute_path: `${TEST_HOME}/.ssh/id_rsa` },
      session_id: 'gm',
      cwd: `${TEST_HOME}/w`,
    });
    assert.equal(denied.body.decision, 'deny');
    const asked = await hook(h, 'gemini', {
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'rm -rf src' },
      session_id: 'gm',
      cwd: `${TEST_HOME}/w`,
    });
    assert.equal(asked.body.decision, 'ask');
  });
});

describe('hook_ask: hold (Claude Code waits for a reviewer)', () => {
  let h: Harness;
  before(async () => (h = await startHarness({ flags: { 'hook-ask': 'hold', 'hook-hold': '5s' } })));
  after(() => h.close());

  it("answers allow with the reviewer's edited command as updatedInput", async () => {
    const pending = hook(h, 'claude-code', claude('Bash', { command: 'rm -rf ./src' }, { session_id: 'cc-hold' }));
    let approvals: any[] = [];
    for (let i = 0; i < 50 && approvals.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      approvals = (await (await h.reviewer('/v1/approvals?status=pending')).json()).approvals;
    }
    assert.equal(approvals.length, 1);
    const res = await h.reviewer(`/v1/approvals/${approvals[0].id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ choice: 'allow_once', modified_args: { command: 'rm -rf ./src/tmp' } }),
    });
    assert.equal(res.status, 200);
    const { body } = await pending;
    assert.equal(body.hookSpecificOutput.permissionDecision, 'allow');
    assert.deepEqual(body.hookSpecificOutput.updatedInput, { command: 'rm -rf ./src/tmp' });
  });
});
