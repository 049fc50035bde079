// toolgate mcp end to end: a real SDK client → `toolgate mcp` (a process) → the stub upstream, decided by a real sidecar.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult, Client, RequestOptions } from '@modelcontextprotocol/client';
import { z } from 'zod';
import {
  startDirect,
  startGateway,
  startSidecar,
  textOf,
  until,
  removeDir,
  type GatewaySession,
  type Sidecar,
} from './support/harness.ts';

const AS_SENT = z.looseObject({});

const call = (
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: RequestOptions = {},
): Promise<CallToolResult> =>
  client.request({ method: 'tools/call', params: { name, arguments: args } }, options) as Promise<CallToolResult>;

/** The approval the sidecar holds for a call of `tool` with these arguments, once it is there. */
async function pendingFor(sidecar: Sidecar, tool: string, args: Record<string, unknown>) {
  return until(async () =>
    (await sidecar.reviewer.listApprovals('pending')).find(
      (a) => a.tool === `mcp__stub__${tool}` && JSON.stringify(a.args) === JSON.stringify(args),
    ),
  );
}

describe('toolgate mcp: pass-through, allow, deny, ask', () => {
  let sidecar: Sidecar;
  let gateway: GatewaySession;
  let direct: Client;
  const callsTo = (args: Record<string, unknown>) =>
    gateway.upstreamCalls().filter((c) => JSON.stringify(c.args) === JSON.stringify(args)).length;

  before(async () => {
    sidecar = await startSidecar();
    [gateway, direct] = await Promise.all([
      startGateway({ toolgateUrl: sidecar.url, extraFlags: ['--progress-interval', '300ms', '--max-hold', '2s'] }),
      startDirect(),
    ]);
  });
  after(async () => {
    await Promise.all([gateway?.close(), direct?.close()]);
    await sidecar?.close();
    removeDir(sidecar.dataDir);
  });

  it("tools/list, resources, templates, prompts come back equal to the upstream's, schemas untouched", async () => {
    // Read as sent (a loose schema), so members the SDK's own schemas would drop are compared too.
    for (const [method, params] of [
      ['tools/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'stub://readme' }],
      ['prompts/list', {}],
      ['prompts/get', { name: 'greet', arguments: { who: 'Ada' } }],
    ] as const) {
      const [viaGateway, straight] = await Promise.all([
        gateway.client.request({ method, params }, AS_SENT),
        direct.request({ method, params }, AS_SENT),
      ]);
      assert.deepEqual(viaGateway, straight, method);
    }
    const raw = (await gateway.client.request({ method: 'tools/list', params: {} }, AS_SENT)) as {
      tools: Record<string, unknown>[];
    };
    assert.deepEqual(raw.tools[0]!['x-vendor-extension'], { kept: true });
    const tools = (await gateway.client.request({ method: 'tools/list', params: {} })).tools;
    assert.deepEqual(tools.find((t) => t.name === 'echo')?.inputSchema, {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    });
    assert.deepEqual(gateway.client.getServerVersion(), { name: 'stub-upstream', version: '1.2.3' });
    assert.equal(gateway.client.getInstructions(), 'A stub for tests.');
    await gateway.client.ping();
  });

  it("an allowed call returns the upstream's result unchanged, and the upstream receives it once", async () => {
    const args = { text: 'hello from the allow test' };
    const [viaGateway, straight] = await Promise.all([
      gateway.client.request({ method: 'tools/call', params: { name: 'echo', arguments: args } }, AS_SENT),
      direct.request({ method: 'tools/call', params: { name: 'echo', arguments: args } }, AS_SENT),
    ]);
    assert.deepEqual(viaGateway, straight);
    assert.equal(callsTo(args), 1);
  });

  it("an upstream's JSON-RPC error reaches the client as that error (the call ran), and is recorded as an error result", async () => {
    await assert.rejects(
      call(gateway.client, 'no_such_tool', { x: 1 }),
      (error: Error & { code?: number }) => error.code === -32602 && /unknown tool no_such_tool/.test(error.message),
    );
    assert.equal(gateway.upstreamCalls().filter((c) => c.name === 'no_such_tool').length, 1);
    await until(async () =>
      (await sidecar.server.toolgate.store.queryAudit({ tool: 'mcp__stub__no_such_tool', decision: 'result' })).find(
        (r) => r.reason.includes('(error)'),
      ),
    );
  });

  it("an allowed call relays the upstream's progress", async () => {
    const seen: { progress: number; message?: string }[] = [];
    const result = await call(gateway.client, 'slow_count', { n: 4 }, { onprogress: (p) => seen.push(p) });
    assert.equal(textOf(result), 'counted to 4');
    // The SDK dispatches a notification a microtask after reading it but a response at once: a progress notice read
    // in the same chunk as the answer is dropped (by the gateway's client or this one). On a busy machine chunks
    // merge, so the last notices may be lost; the first ones, in order, are what the relay is judged by.
    await until(() => seen.length >= 2, 2_000).catch(() => undefined);
    assert.ok(seen.length >= 2, `relayed progress: ${JSON.stringify(seen)}`);
    assert.deepEqual(
      seen.map((p) => p.message),
      ['counted 1', 'counted 2', 'counted 3', 'counted 4'].slice(0, seen.length),
    );
  });

  it('deny: an isError result with the reason, and the upstream receives nothing; the harmless call still runs', async () => {
    const { rule } = await sidecar.reviewer.rules.add({ effect: 'deny', pattern: 'mcp__stub__slow_count' });
    try {
      const denied = await call(gateway.client, 'slow_count', { n: 2 });
      assert.equal(denied.isError, true);
      assert.match(textOf(denied), /denied by rule mcp__stub__slow_count/);
      assert.equal(gateway.upstreamCalls().filter((c) => c.name === 'slow_count' && c.args.n === 2).length, 0);
      const control = await call(gateway.client, 'echo', { text: 'control' });
      assert.equal(textOf(control), 'control');
    } finally {
      await sidecar.reviewer.rules.remove(rule.id);
    }
  });

  it('a destructive tool (destructiveHint) asks; allow_once with progress runs it exactly once', async () => {
    const args = { repo: 'acme/one' };
    const stamps: number[] = [];
    const messages: string[] = [];
    const pending = call(gateway.client, 'delete_repo', args, {
      onprogress: (p) => (stamps.push(Date.now()), messages.push(p.message ?? '')),
      resetTimeoutOnProgress: true,
      timeout: 2_000,
    });
    const approval = await pendingFor(sidecar, 'delete_repo', args);
    assert.match(approval.reason, /destructive/);
    // Held past the client's 2 s timeout: the progress notices keep it alive.
    await new Promise((r) => setTimeout(r, 2_500));
    assert.equal(callsTo(args), 0);
    await sidecar.reviewer.resolve(approval.id, { choice: 'allow_once' });
    const result = await pending;
    assert.equal(textOf(result), 'deleted acme/one');
    assert.deepEqual(result.structuredContent, { deleted: 'acme/one' });
    assert.equal(callsTo(args), 1);
    assert.ok(stamps.length >= 5, `progress notices: ${stamps.length}`);
    for (let i = 1; i < stamps.length; i++)
      assert.ok(stamps[i]! - stamps[i - 1]! < 1_500, 'progress at most the interval apart (plus slack)');
    assert.match(messages[0]!, new RegExp(`^waiting for a reviewer: ${sidecar.url}/review#approval-${approval.id}$`));
  });

  it("allow_once with modified_args: the upstream receives the reviewer's arguments", async () => {
    const args = { repo: 'acme/everything' };
    const pending = call(gateway.client, 'delete_repo', args, { onprogress: () => {}, resetTimeoutOnProgress: true });
    const approval = await pendingFor(sidecar, 'delete_repo', args);
    await sidecar.reviewer.resolve(approval.id, { choice: 'allow_once', modified_args: { repo: 'acme/scratch' } });
    assert.equal(textOf(await pending), 'deleted acme/scratch');
    assert.equal(callsTo(args), 0);
    assert.equal(callsTo({ repo: 'acme/scratch' }), 1);
  });

  it('deny_with_feedback: the feedback verbatim, 0 upstream calls', async () => {
    const args = { repo: 'acme/prod' };
    const pending = call(gateway.client, 'delete_repo', args, { onprogress: () => {}, resetTimeoutOnProgress: true });
    const approval = await pendingFor(sidecar, 'delete_repo', args);
    const feedback = 'Never delete prod. Archive it with archive_repo instead.';
    await sidecar.reviewer.resolve(approval.id, { choice: 'deny_with_feedback', feedback });
    const result = await pending;
    assert.equal(result.isError, true);
    assert.ok(textOf(result).includes(feedback), textOf(result));
    assert.equal(callsTo(args), 0);
  });

  it('a client that cancels cancels the approval within 1 s; 0 upstream calls', async () => {
    const args = { repo: 'acme/cancelled' };
    const controller = new AbortController();
    const pending = call(gateway.client, 'delete_repo', args, {
      onprogress: () => {},
      resetTimeoutOnProgress: true,
      signal: controller.signal,
    });
    const approval = await pendingFor(sidecar, 'delete_repo', args);
    const cancelledAt = Date.now();
    controller.abort();
    await assert.rejects(pending);
    await until(async () => (await sidecar.reviewer.getApproval(approval.id)).status === 'cancelled', 1_000);
    assert.ok(Date.now() - cancelledAt <= 1_000);
    assert.equal(callsTo(args), 0);
  });

  it('no progress token: "awaiting approval" at --max-hold; the same call again joins the approval and runs once; other arguments open another', async () => {
    const args = { repo: 'acme/retry' };
    const started = Date.now();
    const first = await call(gateway.client, 'delete_repo', args);
    const held = Date.now() - started;
    assert.ok(held >= 1_000 && held <= 3_000, `held ${held} ms (max-hold 2 s ± 1 s)`);
    assert.equal(first.isError, true);
    const approval = await pendingFor(sidecar, 'delete_repo', args);
    assert.match(textOf(first), new RegExp(`awaiting approval ${approval.id}; call again with the same arguments`));
    // Different arguments: a new approval.
    const other = call(gateway.client, 'delete_repo', { repo: 'acme/other' });
    const otherApproval = await pendingFor(sidecar, 'delete_repo', { repo: 'acme/other' });
    assert.notEqual(otherApproval.id, approval.id);
    await sidecar.reviewer.resolve(otherApproval.id, { choice: 'deny' });
    assert.equal((await other).isError, true);
    // The reviewer approves while the agent is away; the retry then runs at once, exactly once.
    await sidecar.reviewer.resolve(approval.id, { choice: 'allow_once' });
    const retried = await call(gateway.client, 'delete_repo', args);
    assert.equal(textOf(retried), 'deleted acme/retry');
    assert.equal(callsTo(args), 1);
    assert.equal(
      (await sidecar.reviewer.listApprovals()).filter((a) => JSON.stringify(a.args) === JSON.stringify(args)).length,
      1,
      'one approval for the call and its retry',
    );
    // A third identical call is a new question (allow_once ran once).
    const third = call(gateway.client, 'delete_repo', args);
    const again = await pendingFor(sidecar, 'delete_repo', args);
    assert.notEqual(again.id, approval.id);
    await sidecar.reviewer.resolve(again.id, { choice: 'deny' });
    assert.equal((await third).isError, true);
    assert.equal(callsTo(args), 1);
  });

  it('a retry while the approval is still pending waits on the same approval', async () => {
    const args = { repo: 'acme/patient' };
    const first = await call(gateway.client, 'delete_repo', args);
    assert.equal(first.isError, true);
    const approval = await pendingFor(sidecar, 'delete_repo', args);
    const retry = call(gateway.client, 'delete_repo', args);
    await new Promise((r) => setTimeout(r, 300));
    await sidecar.reviewer.resolve(approval.id, { choice: 'allow_once' });
    assert.equal(textOf(await retry), 'deleted acme/patient');
    assert.equal(callsTo(args), 1);
  });

  it('each call writes its decision and its result to the audit chain', async () => {
    const args = { text: 'audited' };
    await call(gateway.client, 'echo', args);
    const rows = await until(async () => {
      const all = await sidecar.server.toolgate.store.queryAudit({
        tool: 'mcp__stub__echo',
        ascending: true,
        limit: 500,
      });
      const decision = all.find((r) => r.decision === 'allow' && r.args.includes('audited'));
      const result = decision && all.find((r) => r.decision === 'result' && r.decision_id === decision.decision_id);
      return decision && result ? { decision, result } : undefined;
    });
    assert.equal(rows.decision.agent_id, 'mcp:stub');
    assert.match(rows.result.reason, /tool output of 7 bytes/);
    const approved = (
      await sidecar.server.toolgate.store.queryAudit({ tool: 'mcp__stub__delete_repo', limit: 500 })
    ).filter((r) => r.decision === 'result');
    assert.ok(approved.length >= 3, 'the approved calls have results too');
  });
});
