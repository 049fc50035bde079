// toolgate review: the screen as text — the seed's box, its colours by risk, and a fit in 80×24.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colorEnabled, renderScreen, type ScreenOptions } from '../../src/cli/review/render.ts';
import { applyKey, initialState, loadQueue, type ReviewState } from '../../src/cli/review/state.ts';
import { width } from '../../src/cli/review/text.ts';
import { approval } from './review-fixtures.ts';

const PLAIN: ScreenOptions = { columns: 80, rows: 24, color: false, url: 'http://127.0.0.1:7411' };
const COLOR: ScreenOptions = { ...PLAIN, color: true };
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

function shown(...queue: Parameters<typeof approval>[0][]): ReviewState {
  const state = loadQueue(
    initialState(),
    queue.map((q, i) => approval({ id: `a${i}`, created_at: `2026-01-01T10:0${i}:00.000Z`, ...q })),
    new Set(),
    0,
  );
  return { ...state, connection: { state: 'connected' } };
}

test('the dialog as the seed draws it: rounded box, title with risk, tool, command, reason, five options, hint', () => {
  const lines = renderScreen(
    shown({
      risk: 'high',
      args: { command: 'rm -rf ./build' },
      reason: 'recursive forced delete',
      suggested_pattern: 'bash(rm -rf ./build)',
    }),
    PLAIN,
  );
  const box = lines.slice(0, lines.findIndex((l) => l.startsWith('╰')) + 1);
  assert.match(box[0]!, /^╭─+╮$/);
  assert.match(box.at(-1)!, /^╰─+╯$/);
  for (const line of box.slice(1, -1)) assert.match(line, /^│ .* │$/);
  const text = box.map((l) => l.slice(1, -1).trim());
  assert.deepEqual(
    text.filter((t) => t !== ''),
    [
      '─'.repeat(76),
      '⚠  Tool approval request [High risk]',
      'Tool:    bash',
      'Command: rm -rf ./build',
      'Reason:  recursive forced delete',
      'From:    agent claude · session s1 · in /home/dev/app',
      '▶ [1] Allow once',
      '[2] Allow for this session',
      '[3] Always allow (save rule)',
      'rule: bash(rm -rf ./build)',
      '[4] Deny',
      '[5] Deny with feedback…',
      '↑↓ move  Enter/1-5 confirm  Esc deny',
      '─'.repeat(76),
    ],
  );
});

test('▶ follows the highlighted option', () => {
  const state = applyKey(shown({}), { name: 'down' }, 0).state;
  const options = renderScreen(state, PLAIN).filter((l) => /\[\d\]/.test(l));
  assert.match(options[0]!, /│ {4}\[1\] Allow once/);
  assert.match(options[1]!, /│ {2}▶ \[2\] Allow for this session/);
});

test('border and risk word coloured by risk: high 160, medium 208, low and unknown 220', () => {
  for (const [risk, code, word] of [
    ['high', 160, 'High risk'],
    ['medium', 208, 'Medium risk'],
    ['low', 220, 'Low risk'],
    ['weird', 220, 'Unknown risk'],
  ] as const) {
    const lines = renderScreen(shown({ risk: risk as 'high' }), COLOR);
    assert.ok(lines[0]!.startsWith(`\x1b[38;5;${code}m╭`), `${risk}: top border`);
    assert.ok(lines[1]!.startsWith(`\x1b[38;5;${code}m│`), `${risk}: side border`);
    assert.ok(lines[1]!.includes(`\x1b[1;38;5;${code}m[${word}]\x1b[0m`), `${risk}: the risk word`);
  }
});

test('no escape sequences at all without colour', () => {
  const lines = renderScreen(shown({ risk: 'high' }), PLAIN);
  assert.ok(lines.every((l) => !l.includes('\x1b')));
});

test('NO_COLOR and TERM=dumb turn colour off', () => {
  assert.equal(colorEnabled({ TERM: 'xterm-256color' }, true), true);
  assert.equal(colorEnabled({ TERM: 'xterm-256color', NO_COLOR: '1' }, true), false);
  assert.equal(colorEnabled({ TERM: 'dumb' }, true), false);
  assert.equal(colorEnabled({ TERM: 'xterm' }, false), false, 'not a terminal');
});

test('fits 80×24 even for a huge command, and says how much is cut', () => {
  const command = Array.from({ length: 200 }, (_, i) => `echo step${i} &&`).join(' ') + ' rm -rf /';
  const lines = renderScreen(shown({ args: { command }, reason: 'r '.repeat(200) }), PLAIN);
  assert.ok(lines.length <= 24, `${lines.length} rows`);
  for (const line of lines) assert.ok(width(line) <= 80, `too wide: ${line}`);
  assert.ok(lines.some((l) => /… \d+ more characters/.test(l)));
  assert.ok(
    lines.some((l) => l.includes('Esc deny')),
    'the hint survives',
  );
  assert.equal(lines.filter((l) => /\[\d\]/.test(l)).length, 5, 'all five options survive');
});

test('also fits a narrow 40-column terminal, in colour', () => {
  const lines = renderScreen(shown({}), { ...COLOR, columns: 40 });
  for (const line of lines) assert.ok(width(stripAnsi(line)) <= 40, `too wide: ${stripAnsi(line)}`);
});

test('control characters from the agent are shown, never sent to the terminal', () => {
  const lines = renderScreen(shown({ args: { command: 'echo ok\x1b[2J\x1b[31m\nrm -rf ~' }, reason: 'x\x07' }), PLAIN);
  assert.ok(lines.every((l) => !/[\x00-\x1f\x7f]/.test(l)));
  assert.ok(lines.some((l) => l.includes('echo ok^[[2J^[[31m⏎rm -rf ~')));
});

test('paths and URLs are labelled as such', () => {
  assert.ok(
    renderScreen(shown({ tool: 'write_file', args: { file_path: '/etc/hosts', content: 'x' } }), PLAIN).some((l) =>
      l.includes('Path:    /etc/hosts'),
    ),
  );
  assert.ok(
    renderScreen(shown({ tool: 'web_fetch', args: { url: 'https://example.com' } }), PLAIN).some((l) =>
      l.includes('URL:     https://example.com'),
    ),
  );
});

test('options the call cannot use are marked', () => {
  const lines = renderScreen(shown({ session_id: null, suggested_pattern: null }), PLAIN);
  assert.ok(lines.some((l) => l.includes('[2] Allow for this session (the call carried no session id)')));
  assert.ok(lines.some((l) => l.includes('[3] Always allow (save rule) (no rule to suggest for this call)')));
  assert.ok(!lines.some((l) => l.includes('rule:')));
});

test('feedback mode shows the text being typed and its keys', () => {
  let state = shown({});
  for (const ch of '5not now') state = applyKey(state, { name: 'char', char: ch }, 0).state;
  const lines = renderScreen(state, PLAIN);
  assert.ok(lines.some((l) => l.includes('▶ [5] Deny with feedback…')));
  assert.ok(lines.some((l) => l.includes('Feedback: not now█')));
  assert.ok(lines.some((l) => l.includes('Enter send  Esc back to the options')));
  assert.ok(!lines.some((l) => l.includes('Esc deny')));
});

test('status line: queue length, the mode when not default, the connection', () => {
  const two = shown({}, {});
  assert.match(renderScreen(two, PLAIN).at(-2)!, /^connected · 2 pending · http:\/\/127\.0\.0\.1:7411$/);
  assert.match(renderScreen({ ...two, sidecarMode: 'default' }, PLAIN).at(-2)!, /^connected · 2 pending · http/);
  assert.match(renderScreen({ ...two, sidecarMode: 'bypass_all' }, PLAIN).at(-2)!, /· mode: bypass_all ·/);
  const down = { ...two, connection: { state: 'reconnecting' as const, reason: 'connection refused; retry in 2 s' } };
  assert.match(renderScreen(down, PLAIN).at(-2)!, /^reconnecting… \(connection refused; retry in 2 s\)/);
});

test('with nothing pending it says it is waiting', () => {
  const lines = renderScreen({ ...initialState(), connection: { state: 'connected' } }, PLAIN);
  assert.ok(lines.some((l) => l.includes('waiting for approval requests')));
  assert.ok(lines.some((l) => l.startsWith('connected · no pending approvals')));
});

test('the notice line shows what just happened', () => {
  const lines = renderScreen({ ...shown({}), notice: 'allowed once: bash rm -rf ./build' }, PLAIN);
  assert.equal(lines.at(-1), 'allowed once: bash rm -rf ./build');
});
