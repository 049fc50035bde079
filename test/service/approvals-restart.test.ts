// Pending approvals live in SQLite: a new service on the same database answers them, and rebuilds their expiry timers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createToolgate, type Toolgate } from '../../src/service/toolgate.ts';
import { TEST_HOME, testAnalyzer } from '../support/harness.ts';
import { sleep } from '../support/approvals.ts';

const dirs: string[] = [];
const open: Toolgate[] = [];

async function boot(dataDir: string, timeout: string): Promise<Toolgate> {
  const config = loadConfig({ 'data-dir': dataDir, 'approval-timeout': timeout }, {});
  const toolgate = await createToolgate(config, { home: TEST_HOME, analyzer: await testAnalyzer() });
  open.push(toolgate);
  return toolgate;
}

async function ask(toolgate: Toolgate, command: string) {
  const { verdict, approval } = await toolgate.decider.decide({
    tool: 'bash',
    args: { command },
    agentId: 'a',
    sessionId: 's',
    cwd: `${TEST_HOME}/work`,
  });
  assert.equal(verdict.decision, 'ask');
  return approval!;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-restart-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const t of open.splice(0)) await t.close().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('approvals across a restart (same database file)', () => {
  it('a pending approval is still pending, dedupes, and its answer wakes a waiter of the new service', async () => {
    const dir = tempDir();
    const first = await boot(dir, '1h');
    const approval = await ask(first, 'sudo systemctl restart nginx');
    await first.close();

    const second = await boot(dir, '1h');
    const reloaded = await second.approvals.get(approval.id);
    assert.equal(reloaded?.status, 'pending');
    assert.equal(
      (await ask(second, 'sudo systemctl restart nginx')).id,
      approval.id,
      'dedupe finds the approval from before the restart',
    );
    const waiting = second.approvals.wait(approval.id, 10_000);
    await sleep(20);
    const outcome = await second.approvals.resolve(approval.id, { choice: 'allow_once' }, 'alice');
    assert.equal(outcome.kind, 'ok');
    assert.equal((await waiting)?.status, 'approved');
  });

  it('rebuilds expiry timers at start: a pending approval expires on time after the restart', async () => {
    const dir = tempDir();
    const first = await boot(dir, '1500ms');
    const approval = await ask(first, 'sudo systemctl restart redis');
    await first.close();

    const second = await boot(dir, '1500ms');
    const started = Date.now();
    const expired = await second.approvals.wait(approval.id, 10_000);
    assert.equal(expired?.status, 'expired');
    const late = Date.now() - Date.parse(approval.expiresAt);
    assert.ok(late >= -20 && late < 500, `expired ${late} ms after expires_at (waited ${Date.now() - started} ms)`);
  });

  it('an approval that expired while the service was down is expired at start', async () => {
    const dir = tempDir();
    const first = await boot(dir, '200ms');
    const approval = await ask(first, 'sudo systemctl restart mysql');
    await first.close();
    await sleep(400);

    const second = await boot(dir, '200ms');
    await sleep(50);
    const now = await second.approvals.get(approval.id);
    assert.equal(now?.status, 'expired');
    const rows = await second.store.queryAudit({ approvalId: approval.id, ascending: true });
    assert.equal(rows.at(-1)?.source, 'timeout');
  });
});
