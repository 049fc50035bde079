// Issue 23 row 2: header-less connections cannot exhaust the sidecar. Timeouts close them, a flood is evicted to
// make room for clients that send their request, and a reserve keeps /healthz and the hooks answering when every
// connection is busy. A few hundred real sockets against a low configured cap.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { AGENT_TOKEN, REVIEWER_TOKEN } from '../support/harness.ts';

const dirs: string[] = [];
const servers: RunningServer[] = [];
const sockets: Socket[] = [];
after(async () => {
  for (const s of sockets) s.destroy();
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function serve(limits: Record<string, unknown>): Promise<{ running: RunningServer; port: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-conn-'));
  dirs.push(dir);
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(limits));
  const config = loadConfig(
    { 'data-dir': join(dir, 'data'), port: '0', 'log-level': 'silent', config: file },
    { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN },
  );
  const running = await startServer(config, { out: () => {}, err: () => {}, env: {} });
  servers.push(running);
  return { running, port: Number(new URL(running.url).port) };
}

/** One request on a fresh connection (no pooling): status and body. */
function call(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  token = AGENT_TOKEN,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.on('error', reject);
    req.end(data);
  });
}

/** Opens `n` sockets that send a request line and one header, then nothing. */
async function headerless(port: number, n: number): Promise<Socket[]> {
  const opened: Socket[] = [];
  for (let i = 0; i < n; i++) {
    const s = connect(port, '127.0.0.1');
    s.on('error', () => {});
    s.resume(); // read what the server sends (a 408), so a close from its side is seen
    s.setNoDelay(true);
    s.write('POST /v1/decide HTTP/1.1\r\nHost: x\r\n');
    opened.push(s);
    sockets.push(s);
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 20)); // let the server accept them
  }
  await new Promise((r) => setTimeout(r, 200));
  return opened;
}

const HOOK = {
  session_id: 's',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  cwd: '/tmp',
  transcript_path: '/tmp/t.jsonl',
  permission_mode: 'default',
};

describe('connection limits (row 2)', () => {
  it('300 header-less sockets against a cap of 100: the server holds at most the cap, and decide, the hook and /healthz answer', async () => {
    const { running, port } = await serve({
      max_connections: 100,
      max_connections_per_peer: 100,
      reserved_connections: 8,
    });
    await headerless(port, 300);
    // Wait until the server has accepted all of them (each is held, evicted or refused).
    const seen = () => running.connections.open() + running.connections.evicted() + running.connections.refused();
    for (let i = 0; i < 100 && seen() < 300; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen(), 300);
    assert.ok(running.connections.open() <= 108, `${running.connections.open()} connections open`);
    assert.ok(running.connections.evicted() >= 192, `evicted ${running.connections.evicted()}`);
    assert.equal((await call(port, 'GET', '/healthz')).status, 200);
    const hook = await call(port, 'POST', '/v1/hooks/claude-code', HOOK);
    assert.equal(hook.status, 200, hook.body);
    const decide = await call(port, 'POST', '/v1/decide', { tool: 'bash', args: { command: 'ls' } });
    assert.equal(decide.status, 200, decide.body);
    assert.equal(JSON.parse(decide.body).decision, 'allow');
  });

  it('a connection that never finishes its headers is closed after headers_timeout', async () => {
    const { port } = await serve({ headers_timeout: '1s' });
    const [s] = await headerless(port, 1);
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still open after 5 s')), 5000);
      s!.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    assert.ok(Date.now() - started < 4000, `closed after ${Date.now() - started} ms`);
  });

  it('when every connection is busy (held long-polls), the reserve serves /healthz and the hook, and refuses the rest with 503', async () => {
    const { running, port } = await serve({
      max_connections: 10,
      max_connections_per_peer: 10,
      reserved_connections: 4,
    });
    const ask = await call(port, 'POST', '/v1/decide', {
      tool: 'bash',
      args: { command: 'sudo systemctl restart nginx' },
      agent_id: 'held',
    });
    const id = JSON.parse(ask.body).approval.id as string;
    const held: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) held.push(call(port, 'GET', `/v1/approvals/${id}?wait=20`).catch(() => undefined));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(running.connections.open(), 10);
    assert.equal((await call(port, 'GET', '/healthz')).status, 200, 'health from the reserve');
    assert.equal((await call(port, 'POST', '/v1/hooks/claude-code', HOOK)).status, 200, 'the hook from the reserve');
    const refused = await call(port, 'POST', '/v1/decide', { tool: 'bash', args: { command: 'ls' } });
    assert.equal(refused.status, 503);
    assert.match(refused.body, /connection limit/);
    assert.ok(running.connections.open() <= 14);
    // Control: once the held polls end, decide is served again.
    await running.toolgate.approvals.stop(); // answers every held long-poll with the current (pending) state
    await Promise.all(held);
    await new Promise((r) => setTimeout(r, 100));
    const served = await call(port, 'POST', '/v1/decide', { tool: 'bash', args: { command: 'ls' } });
    assert.equal(served.status, 200, served.body);
  });
});
