// Issue 22: the hook endpoint as the real runtimes call it — Codex's nullable fields and network requests, Gemini's
// MCP names, after-tool events, the unmatched answer and the agent's own home.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

async function hook(
  h: Harness,
  runtime: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await h.agent(`/v1/hooks/${runtime}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** A Codex hook input exactly as codex-rs/hooks' generated schemas declare it (`codex exec --ephemeral`: no transcript). */
function codex(
  event: 'PreToolUse' | 'PermissionRequest' | 'PostToolUse',
  toolInput: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    session_id: 'cx-session',
    transcript_path: null,
    cwd: `${TEST_HOME}/w`,
    hook_event_name: event,
    model: 'gpt-5-codex',
    permission_mode: 'default',
    turn_id: 'turn-1',
    tool_name: 'Bash',
    tool_input: toolInput,
    ...(event === 'PermissionRequest' ? {} : { tool_use_id: `call_${Math.random().toString(36).slice(2)}` }),
    ...extra,
  };
}

async function addRule(h: Harness, effect: string, pattern: string): Promise<void> {
  const res = await h.reviewer('/v1/rules', { method: 'POST', body: JSON.stringify({ effect, pattern }) });
  assert.equal(res.status, 201, await res.text());
}

describe('Codex: nullable transcript_path and network-access requests', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('reads "transcript_path": null (PreToolUse, PermissionRequest): ls is not blocked, a protected read still is', async () => {
    const ls = await hook(h, 'codex', codex('PreToolUse', { command: 'ls' }));
    assert.equal(ls.status, 200);
    assert.equal(ls.headers.get('x-toolgate-status'), null, 'no fail-closed deny');
    assert.deepEqual(ls.body, {});
    const asked = await hook(h, 'codex', codex('PermissionRequest', { command: 'ls -la /tmp', description: 'list' }));
    assert.equal(asked.headers.get('x-toolgate-status'), null);
    assert.deepEqual(asked.body, {});
    const secret = await hook(h, 'codex', codex('PreToolUse', { command: `cat ${TEST_HOME}/.ssh/id_rsa` }));
    assert.equal(secret.body.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(secret.body.hookSpecificOutput.permissionDecisionReason, /\.ssh/);
  });

  it('judges `network-access <host>` as a fetch of that host: never an allow by default, web_fetch rules apply', async () => {
    // Default: no opinion on an unknown host, so Codex shows its own network prompt ({}), never an auto-approval.
    const open = await hook(
      h,
      'codex',
      codex('PermissionRequest', {
        command: 'network-access evil.example',
        description: 'network-access https://evil.example:443',
      }),
    );
    assert.deepEqual(open.body, {});
    const rows = await h.toolgate.store.queryAudit({ sessionId: 'cx-session' });
    assert.ok(
      rows.some((r) => r.tool === 'web_fetch' && r.args.includes('evil.example')),
      'judged (and audited) as a web_fetch of the host',
    );
    await addRule(h, 'deny', 'web_fetch(domain:evil.example)');
    const denied = await hook(h, 'codex', codex('PermissionRequest', { command: 'network-access evil.example' }));
    assert.equal(denied.body.hookSpecificOutput.decision.behavior, 'deny');
    assert.match(denied.body.hookSpecificOutput.decision.message, /evil\.example/);
    // The command that reached for the host is judged as well: a deny for the host stands whatever the command.
    const owned = await hook(
      h,
      'codex',
      codex('PermissionRequest', {
        command: 'curl -s https://api.evil.example/x',
        description: 'network-access https://api.evil.example:443',
      }),
    );
    assert.equal(owned.body.hookSpecificOutput.decision.behavior, 'deny');
    // Control: another host is not denied by that rule.
    const other = await hook(
      h,
      'codex',
      codex('PermissionRequest', {
        command: 'network-access registry.npmjs.org',
        description: 'network-access https://registry.npmjs.org:443',
      }),
    );
    assert.deepEqual(other.body, {});
  });

  it('a description that merely says network-access does not turn a dangerous command into a fetch', async () => {
    const res = await hook(
      h,
      'codex',
      codex('PermissionRequest', {
        command: `cat ${TEST_HOME}/.aws/credentials`,
        description: 'network-access https://example.com:443',
      }),
    );
    assert.equal(res.body.hookSpecificOutput.decision.behavior, 'deny');
    assert.match(res.body.hookSpecificOutput.decision.message, /\.aws/);
  });
});

describe("Gemini CLI's MCP names (mcp_<server>_<tool>)", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  const gemini = (tool: string, toolInput: unknown, extra: Record<string, unknown> = {}) => ({
    session_id: 'gm',
    transcript_path: `${TEST_HOME}/.gemini/tmp/chats/s.json`,
    cwd: `${TEST_HOME}/w`,
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: tool,
    tool_input: toolInput,
    ...extra,
  });

  it('judges mcp_desktop-commander_execute_command running rm -rf ~ like the mcp__ spelling (ask, not allow)', async () => {
    const gem = await hook(h, 'gemini', gemini('mcp_desktop-commander_execute_command', { command: 'rm -rf ~' }));
    assert.equal(gem.body.decision, 'ask');
    assert.match(gem.body.reason, /rm -rf/);
    const claude = await hook(h, 'claude-code', {
      session_id: 'cc',
      transcript_path: '/t',
      cwd: `${TEST_HOME}/w`,
      hook_event_name: 'PreToolUse',
      tool_name: 'mcp__desktop-commander__execute_command',
      tool_input: { command: 'rm -rf ~' },
      tool_use_id: 't1',
    });
    assert.equal(claude.body.hookSpecificOutput.permissionDecision, 'ask');
    // Control: a harmless command through the same tool is left to Gemini.
    const harmless = await hook(h, 'gemini', gemini('mcp_desktop-commander_execute_command', { command: 'ls' }));
    assert.deepEqual(harmless.body, {});
  });

  it('names the call from mcp_context when Gemini sends it (a server name with an underscore)', async () => {
    await addRule(h, 'deny', 'mcp__my_server__*');
    const res = await hook(
      h,
      'gemini',
      gemini(
        'mcp_my_server_list_things',
        {},
        { mcp_context: { server_name: 'my_server', tool_name: 'list_things', command: 'node', args: ['srv.js'] } },
      ),
    );
    assert.equal(res.body.decision, 'deny');
    assert.match(res.body.reason, /mcp__my_server__\*/);
  });

  it('a rule written either way matches calls in both spellings', async () => {
    await addRule(h, 'deny', 'mcp__github__delete_*');
    await addRule(h, 'deny', 'mcp_gitlab_*');
    const cases: [string, string][] = [
      ['gemini', 'mcp_github_delete_repo'],
      ['claude-code', 'mcp__github__delete_repo'],
      ['gemini', 'mcp_gitlab_list_projects'],
      ['claude-code', 'mcp__gitlab__list_projects'],
    ];
    for (const [runtime, tool] of cases) {
      const body =
        runtime === 'gemini'
          ? gemini(tool, {})
          : {
              session_id: 'cc',
              transcript_path: '/t',
              cwd: `${TEST_HOME}/w`,
              hook_event_name: 'PreToolUse',
              tool_name: tool,
              tool_input: {},
              tool_use_id: 't2',
            };
      const res = await hook(h, runtime, body);
      const decision = runtime === 'gemini' ? res.body.decision : res.body.hookSpecificOutput?.permissionDecision;
      assert.equal(decision, 'deny', `${runtime} ${tool}`);
    }
    // Control: another tool of the github server is not denied.
    const other = await hook(h, 'gemini', gemini('mcp_github_list_repos', {}));
    assert.deepEqual(other.body, {});
  });
});

describe('after-tool events are recorded as results', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('Claude Code PostToolUse: {} and a result row linked to the decision of that tool_use_id', async () => {
    const pre = {
      session_id: 'cc-post',
      transcript_path: '/t',
      cwd: `${TEST_HOME}/w`,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo hi' },
      tool_use_id: 'toolu_post_1',
    };
    await hook(h, 'claude-code', pre);
    const post = await hook(h, 'claude-code', {
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_response: { stdout: 'hi\n', stderr: '', interrupted: false },
      duration_ms: 3,
    });
    assert.equal(post.status, 200);
    assert.deepEqual(post.body, {});
    const rows = await h.toolgate.store.queryAudit({ sessionId: 'cc-post', ascending: true });
    assert.deepEqual(
      rows.map((r) => r.decision),
      ['allow', 'result'],
    );
    assert.equal(rows[1]!.decision_id, rows[0]!.decision_id);
  });

  it('Codex PostToolUse (transcript_path null) and Gemini AfterTool (no tool id: matched by tool and arguments)', async () => {
    const pre = codex('PreToolUse', { command: 'git log -1' }, { session_id: 'cx-post' });
    await hook(h, 'codex', pre);
    const post = await hook(h, 'codex', { ...pre, hook_event_name: 'PostToolUse', tool_response: 'commit abc' });
    assert.deepEqual(post.body, {});
    const cx = await h.toolgate.store.queryAudit({ sessionId: 'cx-post', ascending: true });
    assert.deepEqual(
      cx.map((r) => r.decision),
      ['allow', 'result'],
    );
    const gem = {
      session_id: 'gm-post',
      transcript_path: '/t',
      cwd: `${TEST_HOME}/w`,
      timestamp: new Date().toISOString(),
      tool_name: 'run_shell_command',
      tool_input: { command: 'ls' },
    };
    await hook(h, 'gemini', { ...gem, hook_event_name: 'BeforeTool' });
    const after = await hook(h, 'gemini', {
      ...gem,
      hook_event_name: 'AfterTool',
      tool_response: { llmContent: 'a b', returnDisplay: 'a b' },
    });
    assert.equal(after.status, 200);
    assert.deepEqual(after.body, {});
    const gm = await h.toolgate.store.queryAudit({ sessionId: 'gm-post', ascending: true });
    assert.deepEqual(
      gm.map((r) => r.decision),
      ['allow', 'result'],
    );
  });

  it('a PostToolUse that fails (no token) is answered {} with the status in X-Toolgate-Status: the tool already ran', async () => {
    const res = await h.app.request('/v1/hooks/claude-code', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_response: {},
      }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-toolgate-status'), '401');
    assert.deepEqual(await res.json(), {});
  });

  it('a PostToolUse for a call toolgate never saw is answered {} all the same (nothing to block)', async () => {
    const res = await hook(h, 'claude-code', {
      session_id: 'cc-unseen',
      transcript_path: '/t',
      cwd: '/',
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_response: {},
      tool_use_id: 'never',
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
  });
});

describe('hook_default: allow keeps the allow answer for calls toolgate has no opinion on', () => {
  let h: Harness;
  before(async () => (h = await startHarness({ flags: { 'hook-default': 'allow' } })));
  after(() => h.close());

  it("answers allow in each runtime's format", async () => {
    const cc = await hook(h, 'claude-code', {
      session_id: 's',
      transcript_path: '/t',
      cwd: '/',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git status' },
      tool_use_id: 'x',
    });
    assert.equal(cc.body.hookSpecificOutput.permissionDecision, 'allow');
    const gm = await hook(h, 'gemini', {
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'git status' },
    });
    assert.equal(gm.body.decision, 'allow');
    // A danger still asks.
    const rm = await hook(h, 'claude-code', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf ./build' },
    });
    assert.equal(rm.body.hookSpecificOutput.permissionDecision, 'ask');
  });
});

describe("the agent's own home (x-toolgate-agent-home, agent_home)", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  const agentHome = '/srv/agents/bob';
  const read = (path: string) => ({
    session_id: 'home',
    transcript_path: '/t',
    cwd: agentHome,
    hook_event_name: 'PreToolUse',
    tool_name: 'Read',
    tool_input: { file_path: path },
    tool_use_id: 'r',
  });

  it("protects ~/.ssh under the home the hook names, besides the sidecar's", async () => {
    const denied = await hook(h, 'claude-code', read(`${agentHome}/.ssh/id_rsa`), {
      'x-toolgate-agent-home': agentHome,
    });
    assert.equal(denied.body.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(denied.body.hookSpecificOutput.permissionDecisionReason, /\/srv\/agents\/bob\/\.ssh/);
    const bash = await hook(h, 'codex', codex('PreToolUse', { command: `cat ${agentHome}/.aws/credentials` }), {
      'x-toolgate-agent-home': `${agentHome}/`,
    });
    assert.equal(bash.body.hookSpecificOutput.permissionDecision, 'deny');
    // The sidecar's own home stays protected whatever home the agent names.
    const own = await hook(h, 'claude-code', read(`${TEST_HOME}/.ssh/id_rsa`), { 'x-toolgate-agent-home': agentHome });
    assert.equal(own.body.hookSpecificOutput.permissionDecision, 'deny');
    // Controls: without the header the same path is nobody's home; a project file under the agent's home is fine.
    const without = await hook(h, 'claude-code', read(`${agentHome}/.ssh/id_rsa`));
    assert.deepEqual(without.body, {});
    const project = await hook(h, 'claude-code', read(`${agentHome}/src/app.ts`), {
      'x-toolgate-agent-home': agentHome,
    });
    assert.deepEqual(project.body, {});
  });

  it('refuses a malformed home (the hook then blocks, naming the header); an empty one is no home', async () => {
    for (const bad of ['relative/home', '/srv/../etc', `/${'a'.repeat(1100)}`]) {
      const res = await hook(h, 'claude-code', read('/tmp/x'), { 'x-toolgate-agent-home': bad });
      assert.equal(res.headers.get('x-toolgate-status'), '400', bad);
      assert.equal(res.body.hookSpecificOutput.permissionDecision, 'deny');
      assert.match(res.body.hookSpecificOutput.permissionDecisionReason, /x-toolgate-agent-home/);
    }
    const empty = await hook(h, 'claude-code', read('/tmp/x'), { 'x-toolgate-agent-home': '' });
    assert.deepEqual(empty.body, {});
  });

  it('POST /v1/decide takes agent_home too, and refuses a relative one with a 400 naming the field', async () => {
    const denied = await h.decide({
      tool: 'Read',
      args: { file_path: `${agentHome}/.ssh/id_ed25519` },
      agent_home: agentHome,
    });
    assert.equal(denied.body.decision, 'deny');
    const allowed = await h.decide({ tool: 'Read', args: { file_path: `${agentHome}/.ssh/id_ed25519` } });
    assert.equal(allowed.body.decision, 'allow');
    const res = await h.agent('/v1/decide', {
      method: 'POST',
      body: JSON.stringify({ tool: 'Read', args: { file_path: '/x' }, agent_home: 'home/bob' }),
    });
    assert.equal(res.status, 400);
    assert.match((await res.json()).detail, /agent_home: must be an absolute path/);
  });
});
