// toolgate mcp --url: the upstream over Streamable HTTP (the stub served in this process), with --header sent along.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createStubServer } from './support/stub-server.ts';
import { removeDir, startGateway, startSidecar, textOf, type Sidecar } from './support/harness.ts';

describe('toolgate mcp --url (Streamable HTTP upstream)', () => {
  let sidecar: Sidecar;
  let http: HttpServer;
  let url: string;
  const callsFile = join(mkdtempSync(join(tmpdir(), 'toolgate-mcp-http-')), 'calls.jsonl');
  const headersSeen: string[] = [];

  before(async () => {
    sidecar = await startSidecar();
    const handler = createMcpHandler(() => createStubServer({ callsFile }));
    http = createServer(
      getRequestListener((request) => {
        headersSeen.push(request.headers.get('x-upstream-key') ?? '');
        return handler.fetch(request);
      }),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  });
  after(async () => {
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await sidecar.close();
    removeDir(sidecar.dataDir);
  });

  it("lists the upstream's tools, forwards an allowed call with the configured header, and refuses a denied one", async () => {
    const gateway = await startGateway({
      toolgateUrl: sidecar.url,
      upstreamArgs: ['--url', url, '--header', 'X-Upstream-Key: sesame'],
    });
    try {
      const tools = (await gateway.client.request({ method: 'tools/list', params: {} })).tools;
      assert.deepEqual(
        tools.map((t) => t.name),
        ['echo', 'slow_count', 'delete_repo'],
      );
      const result = (await gateway.client.request({
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'over http' } },
      })) as CallToolResult;
      assert.equal(textOf(result), 'over http');
      assert.ok(headersSeen.length > 0 && headersSeen.every((h) => h === 'sesame'), JSON.stringify(headersSeen));
      await sidecar.reviewer.rules.add({ effect: 'deny', pattern: 'mcp__stub__slow_count' });
      const denied = (await gateway.client.request({
        method: 'tools/call',
        params: { name: 'slow_count', arguments: { n: 1 } },
      })) as CallToolResult;
      assert.equal(denied.isError, true);
      const calls = readFileSync(callsFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).name);
      assert.deepEqual(calls, ['echo']);
    } finally {
      await gateway.close();
    }
  });
});
