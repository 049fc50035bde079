// `toolgate review` in a real terminal (tmux, 80×24): the seed's dialog appears, keys answer it, the agent gets the answer.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';
import { BIN } from '../support/built-bin.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const AGENT = 'e2e-review-agent-token-0123456789';
const REVIEWER = 'e2e-review-reviewer-token-0123456789';
/** A private tmux server: never touches the developer's own sessions. */
const SOCKET = `toolgate-review-${process.pid}-${Date.now()}`;
const SESSION = 'review';
/** Held-back window after a key (state.ts ARM_DELAY_MS) plus margin, between one answer and the next dialog's keys. */
const AFTER_PREVIOUS_KEY_MS = 400;

const silent = { out() {}, err() {}, env: {} };

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

/** The pane's text (with `-e`, its colours as SGR sequences too). */
function screen(colors = false): string {
  return tmux('capture-pane', '-p', ...(colors ? ['-e'] : []), '-t', SESSION);
}

/** Polls the pane until `test` passes; fails with the last screen. */
async function waitForScreen(test: (text: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (test(text)) return text;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; the screen:\n${text}`);
    await sleep(50);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('toolgate review in tmux', () => {
  let server: RunningServer;
  let dataDir: string;
  let port: number;

  const startSidecar = async (p = 0) => {
    const config = loadConfig(
      { 'data-dir': dataDir, host: '127.0.0.1', port: String(p), 'log-level': 'silent' },
      { TOOLGATE_AGENT_TOKEN: AGENT, TOOLGATE_REVIEWER_TOKEN: REVIEWER },
    );
    server = await startServer(config, silent);
    port = Number(new URL(server.url).port);
  };
  const api = async (
    token: string,
    path: string,
    body?: unknown,
    retry = true,
  ): Promise<{ status: number; body: any }> => {
    let res: Response;
    try {
      res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      // A pooled connection to the sidecar closed by the restart; decide dedupes an identical pending call.
      if (retry) return api(token, path, body, false);
      throw error;
    }
    return { status: res.status, body: (await res.json()) as any };
  };
  /** An agent's call that asks; returns its approval id. */
  const ask = async (command: string) => {
    const { body } = await api(AGENT, '/v1/decide', {
      tool: 'bash',
      args: { command },
      agent_id: 'claude',
      session_id: 'e2e',
    });
    assert.equal(body.decision, 'ask', `${command} should ask: ${JSON.stringify(body)}`);
    return body.approval.id as string;
  };
  const approvalOf = async (id: string) => (await api(REVIEWER, `/v1/approvals/${id}`)).body;

  before(async () => {
    try {
      execFileSync('tmux', ['-V']);
    } catch {
      throw new Error('tmux is not installed (apt-get install -y tmux); this test drives toolgate review inside it');
    }
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-review-e2e-'));
    await startSidecar();
    // After the dialog quits, the shell prints the exit code and whether the terminal is back in cooked mode.
    const script = `node ${BIN} review --url http://127.0.0.1:${port}; echo "review exited $?"; stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo; sleep 600`;
    const env: NodeJS.ProcessEnv = { ...process.env, TOOLGATE_REVIEWER_TOKEN: REVIEWER, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    execFileSync(
      'tmux',
      [
        '-L',
        SOCKET,
        '-f',
        '/dev/null',
        'new-session',
        '-d',
        '-s',
        SESSION,
        '-x',
        '80',
        '-y',
        '24',
        '-c',
        ROOT,
        '-e',
        `TOOLGATE_REVIEWER_TOKEN=${REVIEWER}`,
        'sh',
        '-c',
        script,
      ],
      { env },
    );
    await waitForScreen(
      (s) => s.includes('waiting for approval requests') && s.includes('connected ·'),
      'the waiting screen',
      30_000,
    );
  });

  after(async () => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the dialog in high-risk red, and 1 allows once: the waiting agent gets it at once', async (t) => {
    const id = await ask('rm -rf ./src');
    const text = await waitForScreen((s) => s.includes('Command: rm -rf ./src'), 'the dialog');
    for (const part of [
      '╭',
      '⚠  Tool approval request [High risk]',
      'Tool:    bash',
      'Reason:',
      '▶ [1] Allow once',
      '[2] Allow for this session',
      '[3] Always allow (save rule)',
      '[4] Deny',
      '[5] Deny with feedback…',
      '↑↓ move  Enter/1-5 confirm  Esc deny',
      '╰',
      '1 pending',
    ]) {
      assert.ok(text.includes(part), `missing ${part}:\n${text}`);
    }
    for (const line of text.split('\n')) assert.ok([...line].length <= 80, `wider than 80: ${line}`);
    const colored = screen(true);
    assert.match(colored, /\x1b\[38;5;160m╭/, 'the border in colour 160');
    assert.match(colored, /\x1b\[[0-9;]*38;5;160m\[High risk\]/, 'the risk word in colour 160');

    // The agent is long-polling when the reviewer presses 1.
    const waiting = api(AGENT, `/v1/approvals/${id}?wait=20`);
    await sleep(100);
    const pressed = Date.now();
    tmux('send-keys', '-t', SESSION, '1');
    const answer = (await waiting).body;
    assert.equal(answer.status, 'approved');
    assert.equal(answer.choice, 'allow_once');
    const latency = Date.now() - pressed;
    t.diagnostic(`the agent's long-poll returned ${latency} ms after send-keys 1`);
    assert.ok(latency < 2000, `the agent waited ${latency} ms after the key`);
    await waitForScreen(
      (s) => s.includes('waiting for approval requests') && s.includes('allowed once: bash rm -rf ./src'),
      'the waiting screen again',
    );
  });

  it('5, typed feedback and Enter deny with that feedback', async () => {
    await sleep(AFTER_PREVIOUS_KEY_MS);
    const id = await ask('git push --force origin main');
    await waitForScreen((s) => s.includes('Command: git push --force origin main'), 'the dialog');
    tmux('send-keys', '-t', SESSION, '5');
    await waitForScreen((s) => s.includes('Feedback: █'), 'the feedback field');
    tmux('send-keys', '-t', SESSION, '-l', 'push to a brnch');
    tmux('send-keys', '-t', SESSION, 'BSpace', 'BSpace', 'BSpace');
    tmux('send-keys', '-t', SESSION, '-l', 'anch first');
    await waitForScreen((s) => s.includes('Feedback: push to a branch first█'), 'the typed feedback');
    tmux('send-keys', '-t', SESSION, 'Enter');
    await waitForScreen((s) => s.includes('denied with feedback'), 'the notice');
    const approval = await approvalOf(id);
    assert.deepEqual(
      [approval.status, approval.choice, approval.feedback],
      ['denied', 'deny_with_feedback', 'push to a branch first'],
    );
  });

  it('Esc denies', async () => {
    await sleep(AFTER_PREVIOUS_KEY_MS);
    const id = await ask('sudo rm -rf /var/lib/app');
    await waitForScreen((s) => s.includes('Command: sudo rm -rf /var/lib/app'), 'the dialog');
    tmux('send-keys', '-t', SESSION, 'Escape');
    await waitForScreen((s) => s.includes('denied: bash sudo rm -rf /var/lib/app'), 'the notice');
    const approval = await approvalOf(id);
    assert.deepEqual([approval.status, approval.choice], ['denied', 'deny']);
  });

  it('several pending approvals are answered one after another, oldest first', async () => {
    await sleep(AFTER_PREVIOUS_KEY_MS);
    const first = await ask('rm -rf ./dist');
    await sleep(20); // created_at has millisecond resolution: keep the two apart
    const second = await ask('chmod -R 777 ./public');
    await waitForScreen((s) => s.includes('Command: rm -rf ./dist') && s.includes('2 pending'), 'the oldest first');
    tmux('send-keys', '-t', SESSION, 'Down', 'Down', 'Down');
    await waitForScreen((s) => s.includes('▶ [4] Deny'), 'the highlight on [4]');
    tmux('send-keys', '-t', SESSION, 'Enter');
    await waitForScreen((s) => s.includes('Command: chmod -R 777 ./public') && s.includes('1 pending'), 'the next one');
    assert.equal((await approvalOf(first)).choice, 'deny');
    assert.equal((await approvalOf(second)).status, 'pending');
    await sleep(AFTER_PREVIOUS_KEY_MS);
    tmux('send-keys', '-t', SESSION, '1');
    await waitForScreen((s) => s.includes('waiting for approval requests'), 'an empty queue');
    assert.equal((await approvalOf(second)).choice, 'allow_once');
  });

  it('reconnects by itself when the sidecar restarts, and shows what was opened meanwhile', async () => {
    await server.close();
    await waitForScreen((s) => s.includes('reconnecting…'), 'the reconnecting status');
    await startSidecar(port);
    const id = await ask('rm -rf ./coverage');
    await waitForScreen(
      (s) => s.includes('Command: rm -rf ./coverage') && s.includes('connected ·'),
      'the dialog after the restart',
    );
    tmux('send-keys', '-t', SESSION, '4');
    await waitForScreen((s) => s.includes('denied: bash rm -rf ./coverage'), 'the notice');
    assert.equal((await approvalOf(id)).choice, 'deny');
  });

  it('Ctrl+C denies the request on screen, quits, and leaves the terminal in cooked mode', async () => {
    await sleep(AFTER_PREVIOUS_KEY_MS);
    const id = await ask('rm -rf ./tmp');
    await waitForScreen((s) => s.includes('Command: rm -rf ./tmp'), 'the dialog');
    tmux('send-keys', '-t', SESSION, 'C-c');
    const text = await waitForScreen((s) => s.includes('review exited'), 'the exit');
    assert.match(text, /denied \S+ on the way out/);
    assert.match(text, /review exited 0/);
    assert.match(text, /(^|\s)icanon\s+echo(\s|$)/m, `raw mode left on:\n${text}`);
    assert.ok(!text.includes('╭'), 'the alternate screen is gone');
    assert.equal((await approvalOf(id)).choice, 'deny');
  });
});
