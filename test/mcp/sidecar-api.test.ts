// The sidecar's side of the MCP gateway, in-process: tool definition reports (tool_changed, pinning, accept),
// tool annotations on decide, MCP shell and file tools judged as their built-in kin, and hooks deferring to a gateway.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../support/harness.ts';

const H = (c: string) => c.repeat(64);
const post = (h: Harness, who: 'agent' | 'reviewer', path: string, body: unknown) =>
  h[who](path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('POST /v1/mcp/tools and /v1/mcp/tools/accept', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('first sight is remembered silently; a changed definition is reported and audited with both hashes', async () => {
    const first = await post(h, 'agent', '/v1/mcp/tools', {
      server: 'gh',
      tools: [
        { name: 'create_issue', hash: H('a') },
        { name: 'list', hash: H('b') },
      ],
    });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { changed: [], refused: [] });
    const again = await post(h, 'agent', '/v1/mcp/tools', {
      server: 'gh',
      tools: [
        { name: 'create_issue', hash: H('c') },
        { name: 'list', hash: H('b') },
      ],
    });
    assert.deepEqual(await again.json(), {
      changed: [{ name: 'create_issue', previous_hash: H('a'), hash: H('c') }],
      refused: [],
    });
    const rows = await h.toolgate.store.queryAudit({ decision: 'tool_changed' });
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.tool, 'mcp__gh__create_issue');
    assert.equal(rows[0]!.source, 'mcp');
    assert.deepEqual(JSON.parse(rows[0]!.args), {
      server: 'gh',
      tool: 'create_issue',
      previous_hash: H('a'),
      hash: H('c'),
      accepted_hash: H('a'),
      pinned: false,
    });
    // The same definition again is not a change.
    const same = await post(h, 'agent', '/v1/mcp/tools', {
      server: 'gh',
      tools: [{ name: 'create_issue', hash: H('c') }],
    });
    assert.deepEqual((await same.json()).changed, []);
  });

  it('pinned: a changed tool is refused (audited once) until a reviewer accepts it; an agent cannot accept', async () => {
    await post(h, 'agent', '/v1/mcp/tools', { server: 'pinned', pin: true, tools: [{ name: 'run', hash: H('1') }] });
    const changed = await (
      await post(h, 'agent', '/v1/mcp/tools', { server: 'pinned', pin: true, tools: [{ name: 'run', hash: H('2') }] })
    ).json();
    assert.deepEqual(changed, { changed: [{ name: 'run', previous_hash: H('1'), hash: H('2') }], refused: ['run'] });
    const still = await (
      await post(h, 'agent', '/v1/mcp/tools', { server: 'pinned', pin: true, tools: [{ name: 'run', hash: H('2') }] })
    ).json();
    assert.deepEqual(still, { changed: [], refused: ['run'] });
    assert.equal((await post(h, 'agent', '/v1/mcp/tools/accept', { server: 'pinned', tool: 'run' })).status, 403);
    const accepted = await post(h, 'reviewer', '/v1/mcp/tools/accept', { server: 'pinned', tool: 'run' });
    assert.equal(accepted.status, 200);
    assert.deepEqual(await accepted.json(), { server: 'pinned', tool: 'run', hash: H('2') });
    assert.deepEqual(
      await (
        await post(h, 'agent', '/v1/mcp/tools', { server: 'pinned', pin: true, tools: [{ name: 'run', hash: H('2') }] })
      ).json(),
      { changed: [], refused: [] },
    );
    const audit = await h.toolgate.store.queryAudit({ tool: 'mcp__pinned__run' });
    assert.deepEqual(audit.map((r) => r.decision).sort(), ['tool_accepted', 'tool_changed']);
    assert.equal((await post(h, 'reviewer', '/v1/mcp/tools/accept', { server: 'pinned', tool: 'nope' })).status, 404);
  });

  for (const [what, body, field] of [
    ['a hash that is not sha256 hex', { server: 's', tools: [{ name: 't', hash: 'xyz' }] }, 'tools.0.hash'],
    ['no server', { tools: [] }, 'server'],
    ['an unknown field', { server: 's', tools: [], extra: 1 }, ''],
  ] as const) {
    it(`400 for ${what}`, async () => {
      const res = await post(h, 'agent', '/v1/mcp/tools', body);
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      if (field) assert.ok(JSON.stringify(await res.json()).includes(field));
    });
  }
});

describe('decide with MCP tool annotations, and MCP tools judged as their built-in kin', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());

  it('destructiveHint: true asks when nothing else has an opinion; the same tool without it is allowed', async () => {
    const asked = await h.decide({
      tool: 'mcp__gh__delete_repo',
      args: { repo: 'a/b' },
      tool_annotations: { destructiveHint: true },
    });
    assert.equal(asked.body.decision, 'ask');
    assert.equal(asked.body.findings[0].id, 'mcp-destructive-tool');
    const control = await h.decide({ tool: 'mcp__gh__delete_repo', args: { repo: 'a/b' } });
    assert.equal(control.body.decision, 'allow');
  });

  it('readOnlyHint never lowers the risk: a protected path is still denied, a dangerous command still asked', async () => {
    const read = await h.decide({
      tool: 'mcp__fs__read_file',
      args: { path: '/home/tester/.ssh/id_rsa' },
      tool_annotations: { readOnlyHint: true },
    });
    assert.equal(read.body.decision, 'deny');
    const shell = await h.decide({
      tool: 'mcp__desktop-commander__execute_command',
      args: { command: 'rm -rf ~' },
      tool_annotations: { readOnlyHint: true, destructiveHint: false },
    });
    assert.equal(shell.body.decision, 'ask');
    const harmless = await h.decide({
      tool: 'mcp__desktop-commander__execute_command',
      args: { command: 'git status' },
      tool_annotations: { readOnlyHint: true },
    });
    assert.equal(harmless.body.decision, 'allow');
  });

  it('an allow rule for a destructive tool is an opinion: allowed', async () => {
    await post(h, 'reviewer', '/v1/rules', { effect: 'allow', pattern: 'mcp__gh__close_issue' });
    const allowed = await h.decide({
      tool: 'mcp__gh__close_issue',
      args: { n: 1 },
      tool_annotations: { destructiveHint: true },
    });
    assert.equal(allowed.body.decision, 'allow');
  });

  it('400 for annotations that are not booleans', async () => {
    const bad = await h.decide({ tool: 'mcp__gh__x', args: {}, tool_annotations: { destructiveHint: 'yes' } });
    assert.equal(bad.status, 400);
  });
});

describe('a runtime hook for a tool a running gateway gates answers no opinion (asked once, by the gateway)', () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  const hook = (tool: string, cwd: string) =>
    post(h, 'agent', '/v1/hooks/claude-code', {
      hook_event_name: 'PreToolUse',
      session_id: 's1',
      cwd,
      tool_name: tool,
      tool_input: { repo: 'a/b' },
      tool_use_id: 'toolu_1',
    });

  it("defers for mcp__<gated server>__* from the gateway's directory or below; still decides other servers and other directories", async () => {
    await post(h, 'agent', '/v1/mcp/tools', { server: 'gh', cwd: '/work/project', tools: [] });
    await post(h, 'reviewer', '/v1/rules', { effect: 'ask', pattern: 'mcp__*__delete_repo' });
    assert.deepEqual(await (await hook('mcp__gh__delete_repo', '/work/project/sub')).json(), {});
    // Controls: another server, another project, a name that only starts alike.
    for (const [tool, cwd] of [
      ['mcp__other__delete_repo', '/work/project'],
      ['mcp__gh__delete_repo', '/work/elsewhere'],
      ['mcp__gh__delete_repo', '/work/project-2'],
    ]) {
      const out = await (await hook(tool!, cwd!)).json();
      assert.equal(out.hookSpecificOutput?.permissionDecision, 'ask', `${tool} from ${cwd}`);
    }
  });

  it('a deny stays a deny: a lease moves only the question, so registering a gateway cannot switch a rule off', async () => {
    await post(h, 'reviewer', '/v1/rules', { effect: 'deny', pattern: 'mcp__gh__drop_database' });
    const out = await (await hook('mcp__gh__drop_database', '/work/project')).json();
    assert.equal(out.hookSpecificOutput?.permissionDecision, 'deny');
    const harmless = await (await hook('mcp__gh__list_issues', '/work/project')).json();
    // No rule and no danger: the hook has no opinion (no permissionDecision) and the runtime goes on.
    assert.equal(harmless.hookSpecificOutput?.permissionDecision, undefined);
  });
});
