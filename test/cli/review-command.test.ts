// toolgate review as a command: listed in --help, and refusing to run without a terminal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../../src/cli/main.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t), env: {} } };
}

test('toolgate --help lists review', async () => {
  const c = capture();
  assert.equal(await main(['--help'], c.io), 0);
  assert.match(c.out.join('\n'), /review\s+answer approvals in an interactive terminal dialog/);
});

test('review --help shows the keys and the colour switch', async () => {
  const c = capture();
  assert.equal(await main(['review', '--help'], c.io), 0);
  assert.match(c.out.join('\n'), /Esc\s+deny/);
  assert.match(c.out.join('\n'), /NO_COLOR/);
});

test(
  'without a terminal it says to use toolgate approvals, exit code 2',
  { skip: process.stdin.isTTY && process.stdout.isTTY ? 'running in a terminal' : false },
  async () => {
    const c = capture();
    assert.equal(await main(['review', '--url', 'http://127.0.0.1:9'], c.io), 2);
    assert.match(c.err.join('\n'), /needs an interactive terminal.*toolgate approvals/);
  },
);

test('unknown flags are usage errors', async () => {
  const c = capture();
  assert.equal(await main(['review', '--colour'], c.io), 2);
});
