// The real Claude Code, Codex CLI and Gemini CLI, wired to a real toolgate through their hooks, driven by a model
// stand-in that asks for one shell command: what runs, what is blocked, what a reviewer decides, what a down
// sidecar does — and that a protected file's contents never reach the model.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import {
  makeWorkspace,
  mcpLog,
  runAgent,
  SECRET,
  type AgentRun,
  type Runtime,
  type Wiring,
  type Workspace,
} from './support/runtimes.ts';
import { downUrl, startSidecar, type Sidecar } from './support/sidecar.ts';

const WIRINGS: [Runtime, Wiring][] = [
  ['claude-code', 'command'],
  ['claude-code', 'http'],
  ['codex', 'command'],
  ['gemini', 'command'],
];

function explain(run: AgentRun): string {
  return `exit ${run.code}\nstdout: ${run.stdout.slice(-1500)}\nstderr: ${run.stderr.slice(-1500)}`;
}

for (const [runtime, wiring] of WIRINGS) {
  describe(`${runtime} (${wiring} hook)`, () => {
    let sidecar: Sidecar;
    const workspaces: Workspace[] = [];
    const workspace = (): Workspace => {
      const ws = makeWorkspace();
      workspaces.push(ws);
      return ws;
    };
    // Asks are held for a reviewer (Codex cannot ask from a hook, so it always holds): the tests answer them.
    before(async () => (sidecar = await startSidecar(['--hook-ask', 'hold', '--hook-hold', '45s'])));
    after(async () => {
      await sidecar.close();
      for (const ws of workspaces) ws.remove();
    });

    it('runs a harmless command, and records its output as the result of the decision', async () => {
      const ws = workspace();
      const run = await runAgent(runtime, wiring, ws, sidecar.url, 'echo harmless > ran.txt && echo done');
      assert.equal(run.code, 0, explain(run));
      assert.ok(ws.ran(), `the command ran\n${explain(run)}`);
      const rows = await sidecar.audit();
      assert.ok(
        rows.some((r) => r.tool === 'bash' && r.decision === 'allow'),
        'toolgate saw the call',
      );
      assert.ok(
        rows.some((r) => r.decision === 'result'),
        `the after-tool hook recorded the output: ${JSON.stringify(rows.map((r) => r.decision))}`,
      );
    });

    it('blocks cat ~/.ssh/id_rsa, and the key never reaches the model', async () => {
      const ws = workspace();
      const run = await runAgent(runtime, wiring, ws, sidecar.url, 'cat ~/.ssh/id_rsa');
      assert.ok(!run.model.received().includes(SECRET), 'the secret reached the model');
      assert.ok(run.model.requests.length >= 2, `the model heard back about the blocked call\n${explain(run)}`);
      assert.match(run.model.requests.at(-1)!.body, /protected path/, 'the model was told why');
      const rows = await sidecar.audit();
      assert.ok(rows.some((r) => r.decision === 'deny' && r.source === 'protected_path'));
    });

    if (runtime === 'claude-code') {
      it("leaves a call toolgate has no opinion on to Claude Code's own permissions (no allow that switches them off)", async () => {
        // The user has not allowed Bash, so Claude Code would ask — and in -p mode nobody can answer, so it refuses.
        const ws = workspace();
        const run = await runAgent(runtime, wiring, ws, sidecar.url, 'echo harmless > ran.txt', {
          userAllowsShell: false,
        });
        assert.ok(!ws.ran(), `Claude Code's own permission check still applied\n${explain(run)}`);
        assert.match(run.stdout, /"permission_denials":\[\{/, 'Claude Code itself refused the call');
      });
    }

    // The http hook sets x-toolgate-agent-home from $HOME; the command hook (`toolgate hook`) sends it from its HOME.
    it("blocks a read of the agent's own home by its absolute path (x-toolgate-agent-home: $HOME)", async () => {
      const ws = workspace();
      // Not below the sidecar's home, /root, /home/* or /Users/*: protected only as the agent's home.
      const run = await runAgent(runtime, wiring, ws, sidecar.url, `cat ${ws.home}/.ssh/id_rsa`);
      assert.ok(!run.model.received().includes(SECRET), 'the secret reached the model');
      assert.match(run.model.requests.at(-1)!.body, /protected path/);
      const rows = await sidecar.audit();
      assert.ok(
        rows.some((r) => r.decision === 'deny' && r.reason.includes(`${ws.home}/.ssh`)),
        "denied as a protected place of the agent's home",
      );
    });

    if (runtime === 'gemini') {
      it('judges an MCP tool named mcp_<server>_<tool> like mcp__<server>__<tool>: rm -rf ~ through it is held, and denied', async () => {
        const ws = workspace();
        const call = { name: 'mcp_desktop-commander_execute_command', args: { command: 'rm -rf ~' } };
        const running = runAgent(runtime, wiring, ws, sidecar.url, '', { mcpCall: call });
        const approval = await sidecar.pendingApproval();
        assert.equal(approval.tool, 'mcp__desktop-commander__execute_command');
        await sidecar.reviewer(`/v1/approvals/${approval.id}/resolve`, {
          choice: 'deny_with_feedback',
          feedback: 'never delete the home',
        });
        const run = await running;
        assert.ok(!existsSync(mcpLog(ws)), `the MCP server never got the call\n${explain(run)}`);
        assert.match(run.model.received(), /never delete the home/);
        // Control: a harmless command through the same MCP tool reaches the server.
        const control = workspace();
        const ok = await runAgent(runtime, wiring, control, sidecar.url, '', {
          mcpCall: { ...call, args: { command: 'ls' } },
        });
        assert.equal(existsSync(mcpLog(control)) ? readFileSync(mcpLog(control), 'utf8') : '', 'ls\n', explain(ok));
      });
    }

    it('holds rm -r ./data for a reviewer, and runs it after allow_once', async () => {
      const ws = workspace();
      const running = runAgent(runtime, wiring, ws, sidecar.url, 'rm -r ./data');
      const approval = await sidecar.pendingApproval();
      assert.ok(ws.dataExists(), 'nothing ran before the answer');
      await sidecar.reviewer(`/v1/approvals/${approval.id}/resolve`, { choice: 'allow_once' });
      const run = await running;
      assert.equal(run.code, 0, explain(run));
      assert.ok(!ws.dataExists(), `the approved command ran\n${explain(run)}`);
    });

    it("blocks rm -r ./data after deny_with_feedback, and the model reads the reviewer's feedback", async () => {
      const ws = workspace();
      const running = runAgent(runtime, wiring, ws, sidecar.url, 'rm -r ./data');
      const approval = await sidecar.pendingApproval();
      await sidecar.reviewer(`/v1/approvals/${approval.id}/resolve`, {
        choice: 'deny_with_feedback',
        feedback: 'use make clean instead',
      });
      const run = await running;
      assert.ok(ws.dataExists(), `the denied command did not run\n${explain(run)}`);
      assert.match(run.model.received(), /use make clean instead/, 'the feedback reached the model');
    });

    it('blocks even a harmless command when the sidecar is down', async () => {
      const ws = workspace();
      const run = await runAgent(runtime, wiring, ws, await downUrl(), 'echo harmless > ran.txt');
      assert.ok(!ws.ran(), `nothing runs without toolgate's answer\n${explain(run)}`);
    });
  });
}
