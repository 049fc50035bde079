// A real sidecar process killed with SIGKILL: its pending approvals, their answers and their expiry survive the restart.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AGENT, freePort, REVIEWER, startSidecarProcess } from './support/sidecar-process.ts';

const TIMEOUT_S = 12;

/** SIGKILL and wait for the process to be gone. */
function kill9(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

describe('approvals survive kill -9 of the sidecar', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-e2e-'));
  const children: ChildProcess[] = [];
  after(async () => {
    for (const c of children) await kill9(c);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a pending approval answered after the restart reaches an agent polling after the restart; the other one expires on time', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const call = (token: string, path: string, init: RequestInit = {}) =>
      fetch(base + path, {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(init.headers as Record<string, string>),
        },
      });
    const decide = async (command: string) => {
      const res = await call(AGENT, '/v1/decide', {
        method: 'POST',
        body: JSON.stringify({ tool: 'Bash', args: { command }, agent_id: 'e2e', session_id: 's1', cwd: '/tmp' }),
      });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.decision, 'ask', JSON.stringify(body));
      return body.approval as { id: string; expires_at: string };
    };

    children.push(await startSidecarProcess(dataDir, port, { flags: ['--approval-timeout', `${TIMEOUT_S}s`] }));
    const answered = await decide('sudo systemctl restart nginx');
    const expiring = await decide('sudo systemctl restart redis');

    // An agent is holding a long-poll when the sidecar dies: its connection breaks, and it polls again.
    const heldBeforeKill = call(AGENT, `/v1/approvals/${answered.id}?wait=30`).then(
      (r) => r.status,
      (e: Error) => e.name,
    );
    await new Promise((r) => setTimeout(r, 200));
    await kill9(children[0]!);
    assert.notEqual(await heldBeforeKill, 200, 'the held poll did not get an answer from a dead server');

    children.push(await startSidecarProcess(dataDir, port, { flags: ['--approval-timeout', `${TIMEOUT_S}s`] }));
    const queue = await (await call(REVIEWER, '/v1/approvals?status=pending')).json();
    assert.deepEqual(
      queue.approvals.map((a: { id: string }) => a.id).sort(),
      [answered.id, expiring.id].sort(),
      'both approvals are still pending',
    );
    assert.equal(
      (await decide('sudo systemctl restart nginx')).id,
      answered.id,
      'dedupe still finds the approval from before the kill',
    );

    const poll = call(AGENT, `/v1/approvals/${answered.id}?wait=30`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
      at: performance.now(),
    }));
    await new Promise((r) => setTimeout(r, 300));
    const resolveRes = await call(REVIEWER, `/v1/approvals/${answered.id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ choice: 'deny_with_feedback', feedback: 'reload, do not restart' }),
    });
    const resolvedAt = performance.now();
    assert.equal(resolveRes.status, 200);
    const polled = await poll;
    assert.equal(polled.status, 200);
    assert.equal(polled.body.status, 'denied');
    assert.equal(polled.body.feedback, 'reload, do not restart');
    assert.ok(
      polled.at - resolvedAt < 500,
      `the poll returned ${(polled.at - resolvedAt).toFixed(0)} ms after the resolve`,
    );

    // The other approval's expiry timer was rebuilt at start: a held poll wakes when it expires.
    const expired = await (await call(AGENT, `/v1/approvals/${expiring.id}?wait=30`)).json();
    assert.equal(expired.status, 'expired');
    assert.equal(expired.decision, 'deny');
    assert.match(expired.answer_reason, /no reviewer answered/);
    const late = Date.now() - Date.parse(expiring.expires_at);
    assert.ok(late > -100 && late < 2000, `expired ${late} ms after its expires_at`);
  });
});
