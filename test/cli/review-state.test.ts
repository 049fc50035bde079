// toolgate review: what each key does to the dialog, and how the queue moves (oldest first).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeKeys, type Key } from '../../src/cli/review/keys.ts';
import {
  addApproval,
  answerFailed,
  applyKey,
  ARM_DELAY_MS,
  initialState,
  loadQueue,
  removeApproval,
  type Approval,
  type Effect,
  type ReviewState,
} from '../../src/cli/review/state.ts';
import { approval } from './review-fixtures.ts';

/** A state with `queue` loaded long after any key, so no answer key is held back. */
function withQueue(...queue: Approval[]): ReviewState {
  return loadQueue(initialState(), queue, new Set(), 1_000_000);
}

/** Types `input` (raw terminal bytes) at a time well after the dialog appeared; returns the last state and every effect. */
function type(state: ReviewState, input: string, at = 2_000_000): { state: ReviewState; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const key of decodeKeys(input)) {
    const r = applyKey(state, key, at);
    state = r.state;
    if (r.effect) effects.push(r.effect);
  }
  return { state, effects };
}

const answerOf = (input: string, a = approval()) => {
  const { effects } = type(withQueue(a), input);
  return effects.map((e) => (e.kind === 'answer' ? e.answer : e));
};

test('1–5 choose the options directly, as in the seed', () => {
  assert.deepEqual(answerOf('1'), [{ approvalId: 'a1', choice: 'allow_once' }]);
  assert.deepEqual(answerOf('2'), [{ approvalId: 'a1', choice: 'allow_session' }]);
  assert.deepEqual(answerOf('3'), [{ approvalId: 'a1', choice: 'allow_always', rulePattern: 'bash(npm run test *)' }]);
  assert.deepEqual(answerOf('4'), [{ approvalId: 'a1', choice: 'deny' }]);
  assert.deepEqual(answerOf('5'), [], 'option 5 asks for the feedback first');
});

test('Enter confirms the highlighted option; ↑/↓ move and wrap around', () => {
  assert.deepEqual(answerOf('\r'), [{ approvalId: 'a1', choice: 'allow_once' }]);
  assert.deepEqual(answerOf('\x1b[B\x1b[B\x1b[B\r'), [{ approvalId: 'a1', choice: 'deny' }]);
  assert.deepEqual(
    answerOf('\x1b[A\x1b[A\r'),
    [{ approvalId: 'a1', choice: 'deny' }],
    '↑ from the first option goes to the last',
  );
  const { state } = type(withQueue(approval()), '\x1b[B\x1b[B');
  assert.equal(state.cursor, 2);
});

test('Esc denies', () => {
  assert.deepEqual(answerOf('\x1b'), [{ approvalId: 'a1', choice: 'deny' }]);
});

test('Ctrl+C and Ctrl+D deny the request on screen and quit', () => {
  for (const key of ['\x03', '\x04']) {
    assert.deepEqual(type(withQueue(approval()), key).effects, [
      { kind: 'quit', answer: { approvalId: 'a1', choice: 'deny' } },
    ]);
    assert.deepEqual(
      type(initialState(), key).effects,
      [{ kind: 'quit', answer: undefined }],
      'with nothing pending they just quit',
    );
  }
});

test('option 5: typed text appends, Backspace deletes, Enter sends it as deny_with_feedback', () => {
  const { state, effects } = type(withQueue(approval()), '5use the test:unit scirpt\x7f\x7f\x7f\x7fript  ');
  assert.equal(state.input, 'feedback');
  assert.equal(state.feedback, 'use the test:unit script  ');
  assert.deepEqual(effects, []);
  const sent = type(state, '\r');
  assert.deepEqual(sent.effects, [
    {
      kind: 'answer',
      answer: { approvalId: 'a1', choice: 'deny_with_feedback', feedback: 'use the test:unit script' },
    },
  ]);
});

test('option 5 by Enter on the highlighted option, and digits are text while typing feedback', () => {
  const { state, effects } = type(withQueue(approval()), '\x1b[A\r1234');
  assert.equal(state.input, 'feedback');
  assert.equal(state.feedback, '1234');
  assert.deepEqual(effects, [], 'a digit typed as feedback must not answer');
});

test('Esc in feedback returns to the options with the text kept; empty feedback is not sent', () => {
  const back = type(withQueue(approval()), '5why\x1b');
  assert.equal(back.state.input, 'options');
  assert.equal(back.state.cursor, 4);
  assert.deepEqual(back.effects, [], 'Esc in feedback mode does not deny');
  assert.equal(type(back.state, '5').state.feedback, 'why');
  const empty = type(withQueue(approval()), '5   \r');
  assert.deepEqual(empty.effects, []);
  assert.match(empty.state.notice ?? '', /feedback/);
});

test('options the call cannot use say why and send nothing', () => {
  const noSession = type(withQueue(approval({ session_id: null })), '2');
  assert.deepEqual(noSession.effects, []);
  assert.match(noSession.state.notice ?? '', /\[2\].*no session id/);
  const noRule = type(withQueue(approval({ suggested_pattern: null })), '3');
  assert.deepEqual(noRule.effects, []);
  assert.match(noRule.state.notice ?? '', /\[3\].*no rule/);
});

test('keys wait while an answer is being sent, except Ctrl+C', () => {
  const { state } = type(withQueue(approval(), approval({ id: 'a2', created_at: '2026-01-01T10:01:00.000Z' })), '1');
  assert.equal(state.sending, 'a1');
  assert.deepEqual(type(state, '4\x1b\r').effects, []);
  assert.deepEqual(
    type(state, '\x03').effects,
    [{ kind: 'quit', answer: undefined }],
    'the answer in flight is not overridden by a deny',
  );
});

test('with nothing pending, answer keys do nothing', () => {
  assert.deepEqual(type(initialState(), '1\r\x1b4').effects, []);
});

test('pending approvals are answered oldest first, whatever order they arrive in', () => {
  const older = approval({ id: 'old', created_at: '2026-01-01T09:00:00.000Z' });
  const newer = approval({ id: 'new', created_at: '2026-01-01T11:00:00.000Z' });
  let state = loadQueue(initialState(), [newer, older], new Set(), 0);
  assert.deepEqual(
    state.queue.map((a) => a.id),
    ['old', 'new'],
  );
  state = addApproval(withQueue(newer), older, 0);
  assert.deepEqual(
    state.queue.map((a) => a.id),
    ['old', 'new'],
  );
  assert.equal(addApproval(state, older, 0).queue.length, 2, 'the same approval twice is shown once');
});

test('answers already sent are not shown again when the queue reloads at reconnect', () => {
  const state = loadQueue(initialState(), [approval({ id: 'done' }), approval({ id: 'next' })], new Set(['done']), 0);
  assert.deepEqual(
    state.queue.map((a) => a.id),
    ['next'],
  );
});

test('the next approval starts fresh: first option, options mode, no feedback', () => {
  const a2 = approval({ id: 'a2', created_at: '2026-01-01T10:01:00.000Z' });
  let { state } = type(withQueue(approval(), a2), '5half typed');
  state = removeApproval(state, 'a1', 'a1 was answered elsewhere', 9_000_000);
  assert.equal(state.queue[0]!.id, 'a2');
  assert.deepEqual(
    [state.cursor, state.input, state.feedback, state.notice],
    [0, 'options', '', 'a1 was answered elsewhere'],
  );
});

test('a key pressed just before the next approval appears does not answer it', () => {
  const a2 = approval({ id: 'a2', created_at: '2026-01-01T10:01:00.000Z' });
  let { state } = type(withQueue(approval(), a2), '1', 5_000);
  state = removeApproval(state, 'a1', 'allowed once', 5_010);
  assert.deepEqual(
    applyKey(state, { name: 'char', char: '1' }, 5_050).effect,
    undefined,
    'a repeated 1 50 ms later is held back',
  );
  assert.deepEqual(applyKey(state, { name: 'char', char: '4' }, 5_010 + ARM_DELAY_MS).effect, {
    kind: 'answer',
    answer: { approvalId: 'a2', choice: 'deny' },
  });
  const quiet = addApproval(initialState(), a2, 8_000);
  assert.ok(applyKey(quiet, { name: 'enter' } as Key, 8_001).effect, 'a reviewer who was not typing answers at once');
});

test('a failed send lets the reviewer answer again', () => {
  let { state } = type(withQueue(approval()), '1');
  state = answerFailed(state, 'could not send the answer (connection refused)');
  assert.equal(state.sending, null);
  assert.deepEqual(type(state, '4').effects, [{ kind: 'answer', answer: { approvalId: 'a1', choice: 'deny' } }]);
});

test('3 is not available when an ask rule asked (ask rules come before allow rules); 2 still is', () => {
  const asked = approval({ source: 'rule' });
  const { state, effects } = type(withQueue(asked), '3');
  assert.deepEqual(effects, []);
  assert.match(state.notice ?? '', /\[3\] is not available: an ask rule asked/);
  assert.deepEqual(answerOf('2', asked), [{ approvalId: 'a1', choice: 'allow_session' }]);
});
