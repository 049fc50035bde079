// The review page in a real browser against a real server: sign in, watch approvals arrive live, answer each with one key.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';
import { launchChromium, RESULTS_DIR, type TestBrowser } from './support/chromium.ts';

const AGENT = 'e2e-review-agent-token-0123456789';
const REVIEWER = 'e2e-review-reviewer-token-0123456789';
const DOCS_SCREENSHOT = resolve(import.meta.dirname, '../../docs/review-page.png');

describe('review page in Chromium', () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: TestBrowser;
  let page: Page;
  const logs: string[] = [];

  /** POST /v1/decide as the agent; returns the decide body (an ask, with its approval). */
  async function ask(
    command: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ approval: { id: string; suggested_pattern: string | null }; risk: string }> {
    const res = await fetch(`${server.url}/v1/decide`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        tool: 'Bash',
        args: { command },
        agent_id: 'claude-code',
        session_id: 'sess-42',
        cwd: '/home/alice/projects/site',
        ...extra,
      }),
    });
    const body = await res.json();
    assert.equal(body.decision, 'ask', `${command}: ${JSON.stringify(body)}`);
    return body;
  }

  /** GET as the reviewer, with the bearer token (what curl would see). */
  async function api(path: string): Promise<any> {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${REVIEWER}` } });
    assert.equal(res.status, 200, path);
    return res.json();
  }

  /** Waits until the approval leaves pending (the agent's own long-poll), and returns it. */
  function answered(id: string): Promise<any> {
    return api(`/v1/approvals/${id}?wait=10`);
  }

  /** Waits for the queue item and for the dialog to accept keys (it settles briefly after the selection moves by itself). */
  async function waitForItem(id: string): Promise<void> {
    await page.locator(`[data-approval-id="${id}"]`).waitFor({ state: 'visible', timeout: 10_000 });
    await page.locator(`#dialog[data-armed="true"]`).waitFor({ timeout: 5_000 });
    await page.waitForFunction(
      (id) => document.querySelector('.item[aria-selected="true"]')?.getAttribute('data-approval-id') === id,
      id,
    );
  }

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-review-e2e-'));
    const config = loadConfig(
      { 'data-dir': dataDir, host: '127.0.0.1', port: '0', 'log-level': 'silent' },
      { TOOLGATE_AGENT_TOKEN: AGENT, TOOLGATE_REVIEWER_TOKEN: REVIEWER },
    );
    server = await startServer(config, { out: (t) => logs.push(t), err: (t) => logs.push(t), env: {} });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('pageerror', (error) => logs.push(`page error: ${error.message}`));
    page.on('console', (m) => m.type() === 'error' && logs.push(`console: ${m.text()}`));
    browser.context.on('request', (r) => {
      if (!r.url().startsWith(server.url)) logs.push(`outside request: ${r.url()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    const problems = logs.filter((l) => /page error|outside request|unexpected error/.test(l));
    assert.deepEqual(problems, [], 'no script errors, no request leaves the sidecar');
  });

  it('signs in with the reviewer token (Enter submits) and goes live', async () => {
    await page.goto(`${server.url}/review`);
    await page.getByLabel('Reviewer token').fill('wrong-token');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    await page.getByLabel('Reviewer token').fill(REVIEWER);
    await page.keyboard.press('Enter');
    await page.getByText('signed in as').waitFor();
    await page.locator('#conn[data-state="live"]').waitFor();
    assert.equal(await page.locator('#empty').isVisible(), true, 'an empty queue says so');
    const cookies = await browser.context.cookies();
    const session = cookies.find((c) => c.name === 'toolgate_review');
    assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
    assert.equal(session?.sameSite, 'Strict');
  });

  it('shows a new approval live and answers it with 1 (allow once)', async () => {
    const { approval } = await ask('sudo systemctl restart nginx');
    await waitForItem(approval.id);
    const item = page.locator(`[data-approval-id="${approval.id}"]`);
    assert.match(
      await item.innerText(),
      /bash[\s\S]*sudo systemctl restart nginx[\s\S]*claude-code[\s\S]*sess-42[\s\S]*\/home\/alice\/projects\/site/,
    );
    assert.match(await item.locator('.times').innerText(), /ago · .*left/);
    await page.screenshot({ path: join(RESULTS_DIR, 'review-1-pending.png') });
    await page.keyboard.press('1');
    const done = await answered(approval.id);
    assert.equal(done.status, 'approved');
    assert.equal(done.choice, 'allow_once');
    assert.equal(done.resolved_by, 'reviewer');
    await item.waitFor({ state: 'detached' });
    await page.locator(`[data-history-id="${approval.id}"]`).filter({ hasText: 'by reviewer' }).waitFor();
  });

  it('denies with feedback: 5, type, Enter — the denial carries the text', async () => {
    const { approval } = await ask('sudo systemctl restart sshd');
    await waitForItem(approval.id);
    await page.keyboard.press('5');
    await page.locator('#feedback').waitFor({ state: 'visible' });
    await page.keyboard.type('use the staging host, not production');
    await page.screenshot({ path: join(RESULTS_DIR, 'review-2-feedback.png') });
    await page.keyboard.press('Enter');
    const done = await answered(approval.id);
    assert.equal(done.status, 'denied');
    assert.equal(done.choice, 'deny_with_feedback');
    assert.equal(done.feedback, 'use the staging host, not production');
  });

  it('Esc in feedback mode returns to the options; Esc then denies', async () => {
    const { approval } = await ask('sudo systemctl restart cron');
    await waitForItem(approval.id);
    await page.keyboard.press('5');
    await page.locator('#feedback').waitFor({ state: 'visible' });
    await page.keyboard.type('never mind');
    await page.keyboard.press('Escape');
    await page.locator('#feedback').waitFor({ state: 'hidden' });
    assert.equal(
      (await api(`/v1/approvals/${approval.id}`)).status,
      'pending',
      'leaving feedback mode answers nothing',
    );
    await page.keyboard.press('Escape');
    const done = await answered(approval.id);
    assert.equal(done.status, 'denied');
    assert.equal(done.choice, 'deny');
  });

  it('edits and saves an "always allow" rule: 3, edit, Enter — the rule is in GET /v1/rules', async () => {
    const { approval } = await ask('kubectl delete namespace preview-123');
    assert.ok(approval.suggested_pattern, 'this call has a suggested pattern');
    await waitForItem(approval.id);
    assert.equal(
      await page.locator('#rule-text').innerText(),
      approval.suggested_pattern,
      'option 3 shows the exact rule',
    );
    await page.keyboard.press('3');
    const input = page.locator('#rule');
    await input.waitFor({ state: 'visible' });
    assert.equal(await input.inputValue(), approval.suggested_pattern);
    await input.fill('bash(kubectl delete namespace preview-*)');
    // The editor replays the audit log: this very ask is a past call the edited rule would have allowed.
    await page.locator('#rule-preview', { hasText: /would have allowed \d+ past call/ }).waitFor({ timeout: 15_000 });
    assert.match(await page.locator('#rule-preview').innerText(), /kubectl delete namespace preview-123/);
    await page.screenshot({ path: join(RESULTS_DIR, 'review-3-rule.png') });
    await page.keyboard.press('Enter');
    const done = await answered(approval.id);
    assert.equal(done.status, 'approved');
    assert.equal(done.choice, 'allow_always');
    assert.equal(done.rule_pattern, 'bash(kubectl delete namespace preview-*)');
    const { rules } = await api('/v1/rules');
    assert.ok(
      rules.some(
        (r: { pattern: string; effect: string }) =>
          r.pattern === 'bash(kubectl delete namespace preview-*)' && r.effect === 'allow',
      ),
      JSON.stringify(rules),
    );
  });

  it('moves between queued items with j/k and between options with ↑/↓, Enter confirms', async () => {
    const first = (await ask('sudo systemctl restart postgresql')).approval;
    const second = (await ask('sudo systemctl stop redis')).approval;
    await waitForItem(first.id);
    await page.locator(`[data-approval-id="${second.id}"]`).waitFor();
    await page.keyboard.press('j');
    await page.waitForFunction(
      (id) => document.querySelector('.item[aria-selected="true"]')?.getAttribute('data-approval-id') === id,
      second.id,
    );
    await page.keyboard.press('k');
    await page.waitForFunction(
      (id) => document.querySelector('.item[aria-selected="true"]')?.getAttribute('data-approval-id') === id,
      first.id,
    );
    await page.keyboard.press('j');
    // ↓ ↓ ↓ → option 4 (deny); ↑ → 3; ↓ → 4.
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowDown']) await page.keyboard.press(key);
    assert.equal(await page.locator('.opt.hl').getAttribute('data-n'), '4');
    await page.keyboard.press('Enter');
    const done = await answered(second.id);
    assert.equal(done.choice, 'deny');
    assert.equal((await api(`/v1/approvals/${first.id}`)).status, 'pending', 'only the selected item was answered');
    // The mouse works too: click the item, then "Allow once".
    await page.locator(`[data-approval-id="${first.id}"]`).click();
    await page.getByRole('button', { name: /Allow once/ }).click();
    assert.equal((await answered(first.id)).choice, 'allow_once');
  });

  it('reconnects by itself when the event stream drops, and catches up on what arrived meanwhile', async () => {
    (server.server as unknown as { closeAllConnections(): void }).closeAllConnections();
    await page.locator('#conn[data-state="offline"]').waitFor();
    // EventSource waits a few seconds before it retries: this approval arrives while nobody listens.
    const { approval } = await ask('sudo systemctl restart haproxy');
    await page.locator('#conn[data-state="live"]').waitFor({ timeout: 15_000 });
    await waitForItem(approval.id);
    await page.keyboard.press('4');
    assert.equal((await answered(approval.id)).choice, 'deny');
  });

  it('shows a pending high-risk approval with the dangerous part highlighted (README screenshot)', async () => {
    const high = (await ask('git status && rm -rf ~/projects/old-site', { session_id: 'sess-7f3a' })).approval;
    await ask('git push --force origin main', {
      agent_id: 'codex',
      session_id: 'sess-91c2',
      cwd: '/home/alice/projects/api',
    });
    await waitForItem(high.id);
    const item = page.locator(`[data-approval-id="${high.id}"]`);
    assert.equal(await item.locator('.badge').innerText(), 'HIGH');
    assert.equal(
      await item.locator('.badge').evaluate((b) => getComputedStyle(b).backgroundColor),
      'rgb(215, 0, 0)',
      'high risk is #d70000',
    );
    assert.equal(await item.locator('mark').first().innerText(), 'rm -rf ~/projects/old-site');
    await page.screenshot({ path: join(RESULTS_DIR, 'review-page.png') });
    if (process.env.UPDATE_DOCS_SCREENSHOT) {
      mkdirSync(dirname(DOCS_SCREENSHOT), { recursive: true });
      copyFileSync(join(RESULTS_DIR, 'review-page.png'), DOCS_SCREENSHOT);
    }
  });

  it('opens the audit log from the page and shows who answered', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('table').waitFor();
    assert.match(
      await page.locator('tbody').innerText(),
      /reviewer answered deny_with_feedback: use the staging host, not production/,
    );
    await page.screenshot({ path: join(RESULTS_DIR, 'review-audit.png') });
    await page.getByRole('link', { name: 'Back to the queue' }).click();
    await page.locator('#conn[data-state="live"]').waitFor();
  });

  it('is readable at phone width: no horizontal scrolling, the dialog first', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    const [dialogTop, queueTop] = await Promise.all([
      page.locator('#dialog').boundingBox(),
      page.locator('.queue-pane').boundingBox(),
    ]);
    assert.ok(dialogTop!.y < queueTop!.y, 'on a phone the dialog comes before the queue');
    await page.screenshot({ path: join(RESULTS_DIR, 'review-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 820 });
  });

  it('signs out: the page shows the sign-in form and the old session is dead', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Reviewer token').waitFor();
    const status = await page.evaluate(() => fetch('/v1/approvals').then((r) => r.status));
    assert.equal(status, 401);
  });
});
