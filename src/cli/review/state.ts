// The review dialog's state and how keys and queue changes move it: pure functions, no I/O.
import type { components } from '../../http/openapi-types.ts';
import type { Key } from './keys.ts';

export type Approval = components['schemas']['Approval'];
export type Choice = components['schemas']['ApprovalChoice'];

/** The five options, in the seed's order; the index is the option's number minus one. */
export const OPTIONS = [
  'Allow once',
  'Allow for this session',
  'Always allow (save rule)',
  'Deny',
  'Deny with feedback…',
] as const;

/**
 * Milliseconds a freshly shown approval ignores answer keys when the reviewer was pressing keys just
 * before it appeared: a key typed (or auto-repeated) for the previous dialog must not answer the next.
 */
export const ARM_DELAY_MS = 250;

/** How the client's link to the sidecar stands, for the status line. */
export type Connection = { state: 'connecting' } | { state: 'connected' } | { state: 'reconnecting'; reason: string };

/** Everything the screen is drawn from. */
export interface ReviewState {
  /** Pending approvals, oldest first; the first is the one on screen. */
  queue: Approval[];
  /** The highlighted option, 0–4. */
  cursor: number;
  /** `feedback` while typing the text for option 5. */
  input: 'options' | 'feedback';
  feedback: string;
  connection: Connection;
  /** The sidecar's operator mode, when known. */
  sidecarMode: string | null;
  /** One line about what just happened (answered, answered elsewhere, an error). */
  notice: string | null;
  /** Id of the approval whose answer is being sent; keys wait until it is done. */
  sending: string | null;
  /** Answer keys before this time are ignored (see ARM_DELAY_MS). */
  armedAt: number;
  /** When the last key arrived. */
  lastKeyAt: number;
}

/** An answer to send: the body of POST /v1/approvals/{id}/resolve. */
export interface Answer {
  approvalId: string;
  choice: Choice;
  feedback?: string;
  rulePattern?: string;
}

/** What the driver must do after a key: send an answer, and/or quit. */
export type Effect = { kind: 'answer'; answer: Answer } | { kind: 'quit'; answer?: Answer };

/** The state before anything is known. */
export function initialState(): ReviewState {
  return {
    queue: [],
    cursor: 0,
    input: 'options',
    feedback: '',
    connection: { state: 'connecting' },
    sidecarMode: null,
    notice: null,
    sending: null,
    armedAt: 0,
    lastKeyAt: Number.NEGATIVE_INFINITY,
  };
}

/** The approval on screen, if any. */
export function current(state: ReviewState): Approval | undefined {
  return state.queue[0];
}

/** Why option `index` cannot be chosen for this approval, or undefined when it can. */
export function unavailable(approval: Approval, index: number): string | undefined {
  if (index === 1 && !approval.session_id) return 'the call carried no session id';
  if (index === 2 && !approval.suggested_pattern) return 'no rule to suggest for this call';
  if (index === 2 && approval.source === 'rule') return 'an ask rule asked, and ask rules come before allow rules';
  return undefined;
}

/** Applies one key. Returns the next state and, when the key answers or quits, the effect to carry out. */
export function applyKey(before: ReviewState, key: Key, now: number): { state: ReviewState; effect?: Effect } {
  const state = { ...before, lastKeyAt: now };
  const approval = current(state);
  if (key.name === 'interrupt' || key.name === 'eof') {
    // The seed: Ctrl+C / Ctrl+D deny the request on screen, then quit.
    const answer =
      approval && state.sending !== approval.id ? { approvalId: approval.id, choice: 'deny' as const } : undefined;
    return { state, effect: { kind: 'quit', answer } };
  }
  if (!approval || state.sending) return { state };
  if (state.input === 'feedback') return feedbackKey(state, approval, key);
  if (key.name === 'up') return { state: { ...state, cursor: (state.cursor + OPTIONS.length - 1) % OPTIONS.length } };
  if (key.name === 'down') return { state: { ...state, cursor: (state.cursor + 1) % OPTIONS.length } };
  if (now < state.armedAt) return { state };
  if (key.name === 'escape') return send(state, { approvalId: approval.id, choice: 'deny' });
  if (key.name === 'enter') return choose(state, approval, state.cursor);
  if (key.name === 'char' && key.char >= '1' && key.char <= '5')
    return choose({ ...state, cursor: Number(key.char) - 1 }, approval, Number(key.char) - 1);
  return { state };
}

function choose(state: ReviewState, approval: Approval, index: number): { state: ReviewState; effect?: Effect } {
  const why = unavailable(approval, index);
  if (why) return { state: { ...state, notice: `[${index + 1}] is not available: ${why}` } };
  switch (index) {
    case 0:
      return send(state, { approvalId: approval.id, choice: 'allow_once' });
    case 1:
      return send(state, { approvalId: approval.id, choice: 'allow_session' });
    case 2:
      // Send the pattern the reviewer saw, not whatever the server would pick by default.
      return send(state, { approvalId: approval.id, choice: 'allow_always', rulePattern: approval.suggested_pattern! });
    case 3:
      return send(state, { approvalId: approval.id, choice: 'deny' });
    default:
      return { state: { ...state, cursor: 4, input: 'feedback', notice: null } };
  }
}

function feedbackKey(state: ReviewState, approval: Approval, key: Key): { state: ReviewState; effect?: Effect } {
  switch (key.name) {
    case 'char':
      return { state: { ...state, feedback: state.feedback + key.char } };
    case 'backspace':
      return { state: { ...state, feedback: [...state.feedback].slice(0, -1).join('') } };
    case 'escape':
      return { state: { ...state, input: 'options' } };
    case 'enter':
      if (!state.feedback.trim())
        return { state: { ...state, notice: 'Type the feedback for the agent first, or Esc to go back.' } };
      return send(state, { approvalId: approval.id, choice: 'deny_with_feedback', feedback: state.feedback.trim() });
    default:
      return { state };
  }
}

function send(state: ReviewState, answer: Answer): { state: ReviewState; effect: Effect } {
  return { state: { ...state, sending: answer.approvalId, notice: null }, effect: { kind: 'answer', answer } };
}

/** Replaces the queue with the sidecar's pending list (at connect), keeping answers already sent out. */
export function loadQueue(
  state: ReviewState,
  pending: Approval[],
  settled: ReadonlySet<string>,
  now: number,
): ReviewState {
  const queue = pending.filter((a) => a.status === 'pending' && !settled.has(a.id)).sort(byAge);
  return showHead(state, { ...state, queue }, now);
}

/** A new approval arrived (SSE `approval.created`). */
export function addApproval(state: ReviewState, approval: Approval, now: number): ReviewState {
  if (approval.status !== 'pending' || state.queue.some((a) => a.id === approval.id)) return state;
  return showHead(state, { ...state, queue: [...state.queue, approval].sort(byAge) }, now);
}

/**
 * An approval left the pending state: answered here, answered elsewhere (the page, the CLI, another
 * reviewer), expired or cancelled by its agent. `notice` says which; it is kept when undefined.
 */
export function removeApproval(
  state: ReviewState,
  approvalId: string,
  notice: string | null | undefined,
  now: number,
): ReviewState {
  const queue = state.queue.filter((a) => a.id !== approvalId);
  const sending = state.sending === approvalId ? null : state.sending;
  return showHead(state, { ...state, queue, sending, notice: notice === undefined ? state.notice : notice }, now);
}

/** Sending an answer failed and the approval is still pending: let the reviewer try again. */
export function answerFailed(state: ReviewState, message: string): ReviewState {
  return { ...state, sending: null, notice: message };
}

/** Resets the dialog when a different approval comes to the front. */
function showHead(before: ReviewState, after: ReviewState, now: number): ReviewState {
  if (before.queue[0]?.id === after.queue[0]?.id) return after;
  const typing = now - after.lastKeyAt < ARM_DELAY_MS;
  return { ...after, cursor: 0, input: 'options', feedback: '', armedAt: typing ? now + ARM_DELAY_MS : now };
}

function byAge(a: Approval, b: Approval): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
