// toolgate mcp across sessions and failures: expiry, a changed tool between sessions (audited; refused when pinned
// until accepted), the audit chain verified, the sidecar down, and a runtime hook installed as well (asked once).
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult, Client, RequestOptions } from '@modelcontextprotocol/client';
import { main } from '../../src/cli/main.ts';
import {
  AGENT,
  REVIEWER,
  closedPort,
  removeDir,
  startGateway,
  startSidecar,
  textOf,
  until,
  type Sidecar,
} from './support/harness.ts';

const call = (
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: RequestOptions = {},
): Promise<CallToolResult> =>
  client.request({ method: 'tools/call', params: { name, arguments: args } }, options) as Promise<CallToolResult>;

async function cli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t + '\n'), err: (t) => (err += t + '\n'), env });
  return { code, out, err };
}

describe('toolgate mcp: expiry, changed tools, the audit chain', () => {
  let sidecar: Sidecar;
  before(async () => (sidecar = await startSidecar({ 'approval-timeout': '2s' })));
  after(() => removeDir(sidecar.dataDir));

  it('an approval no one answers expires: isError "expired", 0 upstream calls', async () => {
    const gateway = await startGateway({ toolgateUrl: sidecar.url, extraFlags: ['--progress-interval', '500ms'] });
    try {
      const result = await call(
        gateway.client,
        'delete_repo',
        { repo: 'acme/ignored' },
        { onprogress: () => {}, resetTimeoutOnProgress: true },
      );
      assert.equal(result.isError, true);
      assert.match(textOf(result), /expired/);
      assert.equal(gateway.upstreamCalls().length, 0);
      assert.equal(textOf(await call(gateway.client, 'echo', { text: 'still works' })), 'still works');
    } finally {
      await gateway.close();
    }
  });

  it('a tool description changed between two sessions writes tool_changed; pinned, the changed tool is refused until a reviewer accepts it', async () => {
    const changedRows = async () =>
      (await sidecar.server.toolgate.store.queryAudit({ decision: 'tool_changed', limit: 100 })).filter(
        (r) => r.tool === 'mcp__stub__slow_count',
      );
    // Session 2 of the same server, with slow_count's description altered (the first session was the expiry test's).
    const second = await startGateway({ toolgateUrl: sidecar.url, variant: 'changed' });
    try {
      const rows = await until(async () => ((await changedRows()).length === 1 ? changedRows() : undefined));
      const args = JSON.parse(rows[0]!.args);
      assert.match(args.previous_hash, /^[0-9a-f]{64}$/);
      assert.match(args.hash, /^[0-9a-f]{64}$/);
      assert.notEqual(args.previous_hash, args.hash);
      // Not pinned: the call goes through.
      assert.equal(textOf(await call(second.client, 'slow_count', { n: 1 })), 'counted to 1');
    } finally {
      await second.close();
    }
    // Session 3, pinned, the original description again: a change against the accepted (changed) one.
    const pinned = await startGateway({ toolgateUrl: sidecar.url, extraFlags: ['--pin'] });
    try {
      const refused = await call(pinned.client, 'slow_count', { n: 2 });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /changed since it was last accepted.*toolgate mcp accept --name stub slow_count/s);
      assert.equal(pinned.upstreamCalls().length, 0);
      assert.equal(
        textOf(await call(pinned.client, 'echo', { text: 'unchanged tools still run' })),
        'unchanged tools still run',
      );
      const accepted = await cli(['mcp', 'accept', '--name', 'stub', 'slow_count'], {
        TOOLGATE_URL: sidecar.url,
        TOOLGATE_REVIEWER_TOKEN: REVIEWER,
      });
      assert.equal(accepted.code, 0, accepted.err);
      assert.match(accepted.out, /^accepted mcp__stub__slow_count \([0-9a-f]{12}\)/);
      assert.equal(textOf(await call(pinned.client, 'slow_count', { n: 2 })), 'counted to 2');
      assert.equal(pinned.upstreamCalls().length, 2);
    } finally {
      await pinned.close();
    }
    assert.equal((await changedRows()).length, 2);
  });

  it("toolgate audit verify passes over the gateway's rows, and an edited row is detected", async () => {
    assert.ok((await sidecar.server.toolgate.store.queryAudit({ decision: 'result', limit: 10 })).length >= 3);
    await sidecar.close();
    const ok = await cli(['audit', 'verify', '--data-dir', sidecar.dataDir]);
    assert.equal(ok.code, 0, ok.err);
    const db = new Database(join(sidecar.dataDir, 'toolgate.db'));
    const seq = (
      db.prepare("SELECT seq FROM audit_log WHERE decision = 'tool_changed' LIMIT 1").get() as { seq: number }
    ).seq;
    db.exec(`DROP TRIGGER audit_log_no_update; UPDATE audit_log SET reason = 'nothing to see' WHERE seq = ${seq};`);
    db.close();
    const bad = await cli(['audit', 'verify', '--data-dir', sidecar.dataDir]);
    assert.equal(bad.code, 1);
    assert.match(bad.out + bad.err, new RegExp(`row seq ${seq} .*edited`));
  });
});

describe('toolgate mcp with the sidecar down: fails closed', () => {
  it('every tools/call is an isError result and the upstream receives 0 calls; tools/list still passes through', async () => {
    const gateway = await startGateway({ toolgateUrl: `http://127.0.0.1:${await closedPort()}` });
    try {
      assert.equal((await gateway.client.request({ method: 'tools/list', params: {} })).tools.length, 3);
      for (const [name, args] of [
        ['echo', { text: 'hi' }],
        ['slow_count', { n: 1 }],
        ['delete_repo', { repo: 'x' }],
      ] as const) {
        const result = await call(gateway.client, name, args);
        assert.equal(result.isError, true, name);
        assert.match(textOf(result), /toolgate could not decide, so the call is blocked/);
      }
      assert.equal(gateway.upstreamCalls().length, 0);
    } finally {
      await gateway.close();
    }
  });

  it('a wrong agent token is refused the same way', async () => {
    const sidecar = await startSidecar();
    const gateway = await startGateway({ toolgateUrl: sidecar.url, token: 'not-the-token-0123456789' });
    try {
      const result = await call(gateway.client, 'echo', { text: 'hi' });
      assert.equal(result.isError, true);
      assert.equal(gateway.upstreamCalls().length, 0);
    } finally {
      await gateway.close();
      await sidecar.close();
      removeDir(sidecar.dataDir);
    }
  });
});

describe("toolgate mcp with Claude Code's toolgate hook installed as well", () => {
  let sidecar: Sidecar;
  before(async () => (sidecar = await startSidecar()));
  after(async () => {
    await sidecar.close();
    removeDir(sidecar.dataDir);
  });
  /** What Claude Code's PreToolUse hook sends for an MCP tool (from the session's directory, where it launched the gateway). */
  const hook = (tool: string) =>
    fetch(`${sidecar.url}/v1/hooks/claude-code`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 'claude-session',
        cwd: process.cwd(),
        tool_name: tool,
        tool_input: { repo: 'acme/once' },
        tool_use_id: 'toolu_once',
      }),
    }).then((r) => r.json());

  it('a gated MCP call is asked about once (by the gateway), not twice; a server without a gateway is still asked by the hook', async () => {
    const gateway = await startGateway({ toolgateUrl: sidecar.url, extraFlags: ['--progress-interval', '300ms'] });
    try {
      await until(async () => (await sidecar.server.toolgate.store.mcpTools('stub')).length === 3);
      // A rule asks about the tool. Claude Code runs the hook first: the ask is the gateway's, so no opinion and no
      // approval here; the call goes on to the gateway.
      await sidecar.reviewer.rules.add({ effect: 'ask', pattern: 'mcp__*__delete_repo' });
      assert.deepEqual(await hook('mcp__stub__delete_repo'), {});
      assert.equal((await sidecar.reviewer.listApprovals()).length, 0);
      const pending = call(
        gateway.client,
        'delete_repo',
        { repo: 'acme/once' },
        { onprogress: () => {}, resetTimeoutOnProgress: true },
      );
      const approval = await until(async () => (await sidecar.reviewer.listApprovals('pending'))[0]);
      await sidecar.reviewer.resolve(approval.id, { choice: 'allow_once' });
      assert.equal(textOf(await pending), 'deleted acme/once');
      assert.equal((await sidecar.reviewer.listApprovals()).length, 1, 'one approval in all');
      // Control: an MCP server with no gateway in front of it is asked by the hook as before.
      assert.equal((await hook('mcp__other__delete_repo')).hookSpecificOutput?.permissionDecision, 'ask');
    } finally {
      await gateway.close();
    }
  });
});
