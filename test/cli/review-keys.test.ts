// toolgate review: raw terminal input decoded into the dialog's keys.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeKeys } from '../../src/cli/review/keys.ts';

const names = (chunk: string) => decodeKeys(chunk).map((k) => (k.name === 'char' ? k.char : k.name));

test('arrow keys in both cursor-key modes, and with modifiers', () => {
  assert.deepEqual(names('\x1b[A\x1b[B\x1bOA\x1bOB'), ['up', 'down', 'up', 'down']);
  assert.deepEqual(names('\x1b[1;5A\x1b[1;2B'), ['up', 'down']);
});

test('a lone ESC is Escape, at once and without waiting for more input', () => {
  assert.deepEqual(names('\x1b'), ['escape']);
  assert.deepEqual(names('\x1b\x1b'), ['escape', 'escape']);
});

test('Enter as CR, LF or CRLF (one key), Backspace as DEL or BS', () => {
  assert.deepEqual(names('\r'), ['enter']);
  assert.deepEqual(names('\n'), ['enter']);
  assert.deepEqual(names('\r\n'), ['enter']);
  assert.deepEqual(names('\x7f\b'), ['backspace', 'backspace']);
});

test('Ctrl+C and Ctrl+D arrive as bytes in raw mode', () => {
  assert.deepEqual(names('\x03'), ['interrupt']);
  assert.deepEqual(names('\x04'), ['eof']);
});

test('digits and text, including characters outside the BMP, one key each', () => {
  assert.deepEqual(names('1'), ['1']);
  assert.deepEqual(names('ok ✓ 日本 🙂'), ['o', 'k', ' ', '✓', ' ', '日', '本', ' ', '🙂']);
});

test('sequences the dialog does not use are dropped whole, not typed as text', () => {
  assert.deepEqual(names('\x1b[C\x1b[D\x1b[3~\x1b[15~'), []);
  assert.deepEqual(names('\x1b[200~pasted\x1b[201~'), ['p', 'a', 's', 't', 'e', 'd']);
  assert.deepEqual(names('\t\x01\x1a'), []);
});

test('a chunk mixing keys keeps their order', () => {
  assert.deepEqual(names('\x1b[Bab\x7f\r'), ['down', 'a', 'b', 'backspace', 'enter']);
});
