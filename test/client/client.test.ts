// toolgate/client from TypeScript, against a real started server (sockets): decide, decide-and-wait, abort, resolve, rules, results.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createToolgateClient, ToolgateError, type ToolgateClient } from 'toolgate/client';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';

const AGENT = 'client-agent-token-0123456789';
const REVIEWER = 'client-reviewer-token-0123456789';

describe('toolgate/client against a running server', () => {
  let server: RunningServer;
  let dataDir: string;
  let agent: ToolgateClient;
  let reviewer: ToolgateClient;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-client-'));
    server = await startServer(
      loadConfig(
        { 'data-dir': dataDir, port: '0' },
        { TOOLGATE_AGENT_TOKEN: AGENT, TOOLGATE_REVIEWER_TOKEN: REVIEWER },
      ),
      { out: () => {}, err: () => {}, env: {} },
    );
    agent = createToolgateClient({ baseUrl: server.url, token: AGENT });
    reviewer = createToolgateClient({ baseUrl: server.url, token: REVIEWER });
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (command: string, session = 's1') => ({
    tool: 'Bash',
    args: { command },
    agent_id: 'client-test',
    session_id: session,
  });

  it('decide answers with typed fields', async () => {
    const res = await agent.decide(call('git status'));
    assert.equal(res.decision, 'allow');
    assert.equal(typeof res.decision_id, 'string');
  });

  it('decideAndWait long-polls an ask until the reviewer answers, and returns the feedback', async () => {
    const settled = agent.decideAndWait(call('rm -rf ./src', 'wait-1'), { pollSeconds: 1 });
    let pending: Awaited<ReturnType<ToolgateClient['listApprovals']>> = [];
    while (pending.length === 0) {
      await new Promise((r) => setTimeout(r, 20));
      pending = (await reviewer.listApprovals('pending')).filter((a) => a.session_id === 'wait-1');
    }
    await new Promise((r) => setTimeout(r, 1200)); // at least one long-poll round runs out first
    await reviewer.resolve(pending[0]!.id, { choice: 'deny_with_feedback', feedback: 'use make clean' });
    const answer = await settled;
    assert.equal(answer.decision, 'deny');
    assert.equal(answer.source, 'human');
    assert.equal(answer.feedback, 'use make clean');
  });

  it("decideAndWait returns the reviewer's edited arguments on allow", async () => {
    const settled = agent.decideAndWait(call('rm -rf ./dist', 'wait-2'));
    let pending: Awaited<ReturnType<ToolgateClient['listApprovals']>> = [];
    while (pending.length === 0)
      pending = (await reviewer.listApprovals('pending')).filter((a) => a.session_id === 'wait-2');
    await reviewer.resolve(pending[0]!.id, { choice: 'allow_once', modified_args: { command: 'rm -rf ./dist/tmp' } });
    const answer = await settled;
    assert.equal(answer.decision, 'allow');
    assert.deepEqual(answer.modifiedArgs, { command: 'rm -rf ./dist/tmp' });
  });

  it('aborting decideAndWait rejects and cancels the approval', async () => {
    const controller = new AbortController();
    const settled = agent.decideAndWait(call('rm -rf ./out', 'abort-1'), { signal: controller.signal });
    let pending: Awaited<ReturnType<ToolgateClient['listApprovals']>> = [];
    while (pending.length === 0)
      pending = (await reviewer.listApprovals('pending')).filter((a) => a.session_id === 'abort-1');
    controller.abort(new Error('user pressed ctrl-c'));
    await assert.rejects(settled, /ctrl-c/);
    const approval = await reviewer.getApproval(pending[0]!.id);
    assert.equal(approval.status, 'cancelled');
  });

  it('rules helpers add, list and remove (reviewer), and an agent token gets a ToolgateError 403', async () => {
    const created = await reviewer.rules.add({ effect: 'deny', pattern: 'bash(terraform destroy *)' });
    assert.ok((await reviewer.rules.list()).some((r) => r.id === created.rule.id));
    assert.equal((await agent.decide(call('terraform destroy -auto-approve'))).decision, 'deny');
    await reviewer.rules.remove(created.rule.id);
    assert.ok(!(await reviewer.rules.list()).some((r) => r.id === created.rule.id));
    await assert.rejects(
      agent.rules.list(),
      (e: unknown) => e instanceof ToolgateError && e.status === 403 && /reviewer token/.test(e.message),
    );
  });

  it('submitResult offloads a 1 MiB output and getResult fetches it back', async () => {
    const { decision_id } = await agent.decide(call('cat huge.log'));
    const output = 'y'.repeat(1024 * 1024);
    const receipt = await agent.submitResult(decision_id, { output, is_error: false });
    assert.ok(receipt.offloaded);
    const stored = await agent.getResult(receipt.offloaded.id);
    assert.equal(stored.output.length, output.length);
  });

  it('hook passes a Claude Code PreToolUse body through', async () => {
    const out = await agent.hook('claude-code', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: '~/.ssh/id_rsa' },
      session_id: 'h',
      cwd: process.cwd(),
    });
    assert.equal(out.hookSpecificOutput?.permissionDecision, 'deny');
  });
});

describe('toolgate/client boundaries', () => {
  it('imports nothing from the server but the generated types', () => {
    const source = readFileSync('src/client/index.ts', 'utf8');
    const imports = [...source.matchAll(/^import (type )?.*? from '([^']+)';$/gm)].map((m) => `${m[1] ?? ''}${m[2]}`);
    assert.deepEqual(imports, ['openapi-fetch', 'type ../http/openapi-types.ts']);
  });
});
