// Follows a sidecar's approvals: the SSE stream plus the pending queue at each (re)connect, reconnecting with backoff.
import { callSidecar, RemoteError } from '../remote.ts';
import { SseParser } from './sse-parser.ts';
import type { Approval } from './state.ts';
import type { components } from '../../http/openapi-types.ts';

export type SidecarStatus = components['schemas']['Status'];

/** The approval events /v1/events sends. */
export type FeedEventType = 'approval.created' | 'approval.resolved' | 'approval.expired' | 'approval.cancelled';

/** Where to connect and what to tell. */
export interface ApprovalFeedOptions {
  url: string;
  /** Read at every attempt, so a token file rewritten while the sidecar was down is picked up. */
  token: () => string | undefined;
  signal: AbortSignal;
  /** The stream is open and this is the queue at that moment; `status` is absent from sidecars without /v1/status. */
  onConnected(pending: Approval[], status: SidecarStatus | undefined): void;
  onEvent(type: FeedEventType, approval: Approval): void;
  /** The link dropped (or never came up); the next attempt is in `retryInMs`. */
  onDisconnected(reason: string, retryInMs: number): void;
  /** First delay after a failure; doubles up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** With no byte for this long (the server sends a keep-alive every 15 s) the link counts as dead. */
  idleTimeoutMs?: number;
}

/** The sidecar refused the token on the very first attempt: retrying would not help. */
export class FeedAuthError extends Error {}

const EVENT_TYPES = new Set<string>([
  'approval.created',
  'approval.resolved',
  'approval.expired',
  'approval.cancelled',
]);

/** Runs until `signal` aborts. Throws only FeedAuthError (a wrong token at start). */
export async function followApprovals(options: ApprovalFeedOptions): Promise<void> {
  const { initialDelayMs = 250, maxDelayMs = 5000, idleTimeoutMs = 45_000 } = options;
  let delay = initialDelayMs;
  let everConnected = false;
  while (!options.signal.aborted) {
    const attempt = new AbortController();
    const abortAttempt = () => attempt.abort();
    options.signal.addEventListener('abort', abortAttempt, { once: true });
    let reason: string;
    try {
      const token = options.token();
      const response = await fetch(`${options.url}/v1/events`, {
        headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        signal: attempt.signal,
      });
      if (!response.ok || !response.body) {
        const detail = `${response.status} from /v1/events${response.status === 401 || response.status === 403 ? ': the reviewer token was refused (TOOLGATE_REVIEWER_TOKEN, or the one typed at the prompt)' : ''}`;
        await response.body?.cancel();
        if (!everConnected && (response.status === 401 || response.status === 403)) throw new FeedAuthError(detail);
        throw new Error(detail);
      }
      // Load the queue only once the stream is open: anything that happens after this list is on the stream.
      const base = options.url;
      const { approvals } = await callSidecar<{ approvals: Approval[] }>(
        base,
        token,
        'GET',
        '/v1/approvals?status=pending&limit=1000',
        undefined,
        attempt.signal,
      );
      const status = await callSidecar<SidecarStatus>(
        base,
        token,
        'GET',
        '/v1/status',
        undefined,
        attempt.signal,
      ).catch(() => undefined);
      everConnected = true;
      delay = initialDelayMs;
      options.onConnected(approvals, status);
      reason = await readStream(response.body, options, attempt, idleTimeoutMs);
    } catch (error) {
      if (error instanceof FeedAuthError) throw error;
      reason = error instanceof RemoteError ? error.message : describe(error);
    } finally {
      options.signal.removeEventListener('abort', abortAttempt);
      attempt.abort();
    }
    if (options.signal.aborted) return;
    options.onDisconnected(reason, delay);
    await sleep(delay, options.signal);
    delay = Math.min(delay * 2, maxDelayMs);
  }
}

/** Reads events until the stream ends or goes quiet; returns why it stopped. */
async function readStream(
  body: ReadableStream<Uint8Array>,
  options: ApprovalFeedOptions,
  attempt: AbortController,
  idleTimeoutMs: number,
): Promise<string> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  let idle = false;
  let timer = setTimeout(onIdle, idleTimeoutMs);
  function onIdle() {
    idle = true;
    attempt.abort();
  }
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      clearTimeout(timer);
      timer = setTimeout(onIdle, idleTimeoutMs);
      for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
        if (!EVENT_TYPES.has(message.event)) continue;
        let approval: Approval;
        try {
          approval = JSON.parse(message.data) as Approval;
        } catch {
          continue;
        }
        options.onEvent(message.event as FeedEventType, approval);
      }
    }
    return 'the sidecar closed the stream';
  } catch (error) {
    return idle ? `no data for ${Math.round(idleTimeoutMs / 1000)} s` : describe(error);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e?.cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (e?.cause?.code) return e.cause.code;
  return e?.message ?? String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
