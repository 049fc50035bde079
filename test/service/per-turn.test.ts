import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { perTurn } from '../../src/service/per-turn.ts';
import { realpathIfExists } from '../../src/service/toolgate.ts';

test('a lookup is made once per key in one turn of the event loop, and afresh in the next', async () => {
  const calls: string[] = [];
  const lookup = perTurn((key: string) => {
    calls.push(key);
    return key === 'missing' ? undefined : key.toUpperCase();
  });
  assert.equal(lookup('a'), 'A');
  assert.equal(lookup('a'), 'A');
  assert.equal(lookup('missing'), undefined);
  assert.equal(lookup('missing'), undefined, 'an undefined answer is remembered too');
  assert.deepEqual(calls, ['a', 'missing']);
  await new Promise((resolve) => setImmediate(resolve));
  lookup('a');
  assert.deepEqual(calls, ['a', 'missing', 'a']);
});

test("a symlink made after a turn is seen by the next turn's realpath", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-per-turn-'));
  mkdirSync(join(dir, 'secret'));
  const realpath = perTurn(realpathIfExists);
  assert.equal(realpath(join(dir, 'link')), undefined);
  symlinkSync(join(dir, 'secret'), join(dir, 'link'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(realpath(join(dir, 'link')), join(dir, 'secret'));
  rmSync(dir, { recursive: true, force: true });
});
