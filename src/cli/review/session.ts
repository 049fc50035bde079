// One review session: wires the approval feed, the key state machine, the renderer and the terminal together.
import { callSidecar, RemoteError } from '../remote.ts';
import { followApprovals, type FeedEventType } from './approval-feed.ts';
import { decodeKeys } from './keys.ts';
import { renderScreen, subjectOf } from './render.ts';
import {
  addApproval,
  answerFailed,
  applyKey,
  initialState,
  loadQueue,
  removeApproval,
  type Answer,
  type Approval,
  type ReviewState,
} from './state.ts';
import type { Terminal } from './terminal.ts';

/** What a session needs. */
export interface ReviewSessionOptions {
  url: string;
  token: () => string | undefined;
  terminal: Terminal;
  color: boolean;
  now?: () => number;
  /** How long quitting waits for the deny it sends (Ctrl+C / Ctrl+D) before giving up. */
  quitAnswerTimeoutMs?: number;
}

/** How the session ended: the answer sent on the way out, if any. */
export interface ReviewOutcome {
  quitAnswer?: { answer: Answer; error?: string };
}

const CHOICE_WORDS: Record<Answer['choice'], string> = {
  allow_once: 'allowed once',
  allow_session: 'allowed for this session',
  allow_always: 'allowed always',
  deny: 'denied',
  deny_with_feedback: 'denied with feedback',
};

/** Runs until the reviewer quits (resolves) or the token is refused at start (rejects with FeedAuthError). */
export function runReviewSession(options: ReviewSessionOptions): Promise<ReviewOutcome> {
  const now = options.now ?? Date.now;
  const { terminal, url } = options;
  const stop = new AbortController();
  const settled = new Set<string>();
  const inFlight = new Set<string>();
  let state: ReviewState = initialState();
  let finished = false;

  const render = () => terminal.draw(renderScreen(state, { ...terminal.size(), color: options.color, url }));
  const update = (next: ReviewState) => {
    state = next;
    render();
  };

  return new Promise<ReviewOutcome>((resolve, reject) => {
    const finish = (outcome: ReviewOutcome | Error) => {
      if (finished) return;
      finished = true;
      stop.abort();
      terminal.restore();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };

    const send = async (answer: Answer): Promise<string | undefined> => {
      inFlight.add(answer.approvalId);
      // Looked up now: the stream may remove it from the queue before the POST's reply arrives.
      const approval = state.queue.find((a) => a.id === answer.approvalId);
      try {
        const body = { choice: answer.choice, feedback: answer.feedback, rule_pattern: answer.rulePattern };
        const path = `/v1/approvals/${encodeURIComponent(answer.approvalId)}/resolve`;
        try {
          await callSidecar<Approval>(url, options.token(), 'POST', path, body);
        } catch (error) {
          // After a sidecar restart the first POST can meet a pooled connection the old process closed.
          // The same answer twice is idempotent on the server, so one immediate retry is safe.
          if (!(error instanceof RemoteError && error.status === 0)) throw error;
          await callSidecar<Approval>(url, options.token(), 'POST', path, body);
        }
        settled.add(answer.approvalId);
        update(
          removeApproval(
            state,
            answer.approvalId,
            `${CHOICE_WORDS[answer.choice]}: ${approval ? describe(approval) : answer.approvalId}`,
            now(),
          ),
        );
        return undefined;
      } catch (error) {
        const message = (error as Error).message;
        if (error instanceof RemoteError && (error.status === 409 || error.status === 404)) {
          // Someone else answered first (or it expired): the first answer wins, so move on.
          settled.add(answer.approvalId);
          update(removeApproval(state, answer.approvalId, `not sent: ${message}`, now()));
        } else {
          update(answerFailed(state, `could not send the answer (${message}); choose again to retry`));
        }
        return message;
      } finally {
        inFlight.delete(answer.approvalId);
      }
    };

    const onData = (chunk: string) => {
      for (const key of decodeKeys(chunk)) {
        if (finished) return;
        const { state: next, effect } = applyKey(state, key, now());
        update(next);
        if (effect?.kind === 'answer') void send(effect.answer);
        if (effect?.kind === 'quit') {
          const answer = effect.answer;
          if (!answer) return finish({});
          const timeout = new Promise<string>((r) =>
            setTimeout(() => r('timed out'), options.quitAnswerTimeoutMs ?? 3000).unref(),
          );
          void Promise.race([send(answer), timeout]).then((error) => finish({ quitAnswer: { answer, error } }));
          return;
        }
      }
    };

    terminal.start(onData, render);
    render();

    followApprovals({
      url,
      token: options.token,
      signal: stop.signal,
      onConnected(pending, status) {
        update(
          loadQueue(
            { ...state, connection: { state: 'connected' }, sidecarMode: status?.mode ?? state.sidecarMode },
            pending,
            settled,
            now(),
          ),
        );
      },
      onEvent(type: FeedEventType, approval) {
        if (type === 'approval.created') return update(addApproval(state, approval, now()));
        const known = state.queue.some((a) => a.id === approval.id);
        settled.add(approval.id);
        // Our own answer coming back on the stream: the POST's reply writes the notice.
        const notice =
          !known || inFlight.has(approval.id) ? undefined : `${describe(approval)} — ${elsewhere(type, approval)}`;
        update(removeApproval(state, approval.id, notice, now()));
      },
      onDisconnected(reason, retryInMs) {
        update({
          ...state,
          connection: {
            state: 'reconnecting',
            reason: `${reason}; retry in ${(retryInMs / 1000).toFixed(retryInMs < 1000 ? 2 : 0)} s`,
          },
        });
      },
    }).catch((error: Error) => finish(error));
  });
}

function describe(approval: Approval): string {
  const text = subjectOf(approval).text;
  return `${approval.tool} ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
}

function elsewhere(type: FeedEventType, approval: Approval): string {
  if (type === 'approval.expired') return 'expired unanswered';
  if (type === 'approval.cancelled') return 'cancelled by its agent';
  return `${approval.status} by ${approval.resolved_by ?? 'another reviewer'} elsewhere`;
}
