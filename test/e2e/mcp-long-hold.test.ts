// The MCP gateway holds an asked call for 90 s: an SDK client that resets its 60 s timeout on progress gets the
// result after the reviewer's allow_once, with "waiting for a reviewer" progress at most 15 s apart (the default
// --progress-interval of 10 s), and the upstream receives exactly one call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  removeDir,
  startGateway,
  startSidecar,
  textOf,
  until,
  type GatewaySession,
  type Sidecar,
} from '../mcp/support/harness.ts';

describe('toolgate mcp: a 90 s hold', () => {
  let sidecar: Sidecar;
  let gateway: GatewaySession;
  before(async () => {
    sidecar = await startSidecar();
    gateway = await startGateway({ toolgateUrl: sidecar.url });
  });
  after(async () => {
    await gateway?.close();
    await sidecar?.close();
    removeDir(sidecar.dataDir);
  });

  it(
    'succeeds after 90 s with progress at most 15 s apart; the upstream receives exactly 1 call',
    { timeout: 150_000 },
    async () => {
      const stamps: number[] = [];
      const started = Date.now();
      const pending = gateway.client.request(
        { method: 'tools/call', params: { name: 'delete_repo', arguments: { repo: 'acme/long' } } },
        // The SDK's default request timeout (60 s), reset by each progress notification.
        { onprogress: () => stamps.push(Date.now()), resetTimeoutOnProgress: true, timeout: 60_000 },
      ) as Promise<CallToolResult>;
      const approval = await until(async () => (await sidecar.reviewer.listApprovals('pending'))[0]);
      await new Promise((r) => setTimeout(r, 90_000 - (Date.now() - started)));
      assert.equal(gateway.upstreamCalls().length, 0);
      await sidecar.reviewer.resolve(approval.id, { choice: 'allow_once' });
      const result = await pending;
      assert.equal(textOf(result), 'deleted acme/long');
      assert.ok(Date.now() - started >= 90_000);
      assert.equal(gateway.upstreamCalls().length, 1);
      const gaps = stamps.slice(1).map((t, i) => t - stamps[i]!);
      assert.ok(stamps.length >= 8, `progress notices: ${stamps.length}`);
      assert.ok(Math.max(...gaps) <= 15_000, `largest gap ${Math.max(...gaps)} ms`);
    },
  );
});
