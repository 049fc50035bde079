// The agent's two hot routes — POST /v1/decide and the long-poll GET /v1/approvals/{id} — served straight from
// node:http, in front of the Hono app.
//
// Why: an agent calls /v1/decide before every tool call, and a team holds thousands of long-polls open. Through
// the app, each request pays for a web Request and Response, a Hono context and five async middleware frames:
// measured on this machine that is ~20 µs of CPU per decide (as much as the decision and its audit row together),
// and ~17 KB of heap per held long-poll (reading `c.req.raw.signal` builds a whole web Request). Here those
// requests cost what node:http costs. Only the plain, authorised case is served here; everything else — no or a
// bad token, a blocked address, a review-page cookie, `?explain`, a streamed or too large body, another content
// type — falls through to the app untouched (the body is not read before the decision to serve), so every
// refusal still comes from one place. What the routes do once a request is accepted is shared with the app:
// `answerDecide` (`answerDecideJson`), `answerPoll`, `parseJsonText`, `problemBody`, `requestIdFrom`, `requestLogLevel`.
// test/http/fast-path.test.ts holds both paths to the same answers.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Cancellation } from '../service/approvals.ts';
import type { Logger } from '../service/logger.ts';
import { deepFreeze, shareArgs } from '../service/verdict-cache.ts';
import type { AppDeps } from './app.ts';
import { bearerToken, type Identity } from './auth.ts';
import { isJsonContentType, parseJsonText } from './body.ts';
import { problemBody, ProblemError, UNEXPECTED_DETAIL } from './problem.ts';
import { logRequest, REQUEST_ID_HEADER, requestIdFrom } from './request-log.ts';
import { answerDecideJson } from './routes/decide.ts';
import { answerPoll, requestedWait } from './routes/approvals.ts';
import { DecideRequestSchema, type DecideRequestBody } from './schemas.ts';

/** What the fast routes need: the same pieces createApp was given. */
export interface FastPathOptions {
  deps: Pick<AppDeps, 'toolgate' | 'auth'>;
  logger?: Logger;
  onUnexpectedError?: (error: unknown) => void;
}

/** `GET /v1/approvals/{id}` with at most `?wait=N`; ids with anything to decode go to the app. */
const POLL_URL = /^\/v1\/approvals\/([\w-]+)(?:\?wait=([^&#]*))?$/;

/** Wraps the app's request listener: the hot routes are answered here, every other request goes to `app`. */
export function withFastPaths(app: RequestListener, options: FastPathOptions): RequestListener {
  const { toolgate, auth } = options.deps;
  const { logger, onUnexpectedError } = options;
  const repeated = new RepeatedBodies();

  /**
   * The caller, when its bearer token is valid (else the app answers, and counts the failure). The failed-auth
   * limiter is not consulted: it blocks invalid credentials only (rate-limit.ts), so a valid token costs no query.
   */
  const callerOf = (req: IncomingMessage): Identity | undefined => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return undefined;
    return auth.identify(token); // an agent or a reviewer token: both may decide and poll
  };

  const finish = (
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    requestId: string,
    caller: Identity,
    path: string,
    status: number,
    body: unknown,
    headers?: Record<string, string>,
  ) => {
    if (res.destroyed) return; // the caller went away
    const text = JSON.stringify(body);
    finishJson(req, res, started, requestId, caller, path, status, text, Buffer.byteLength(text), headers);
  };

  const finishJson = (
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    requestId: string,
    caller: Identity,
    path: string,
    status: number,
    json: string,
    bytes: number,
    headers?: Record<string, string>,
  ) => {
    if (res.destroyed) return; // the caller went away
    res.writeHead(status, {
      'content-type': status < 400 ? 'application/json' : 'application/problem+json',
      'content-length': bytes,
      [REQUEST_ID_HEADER]: requestId,
      ...headers,
    });
    res.end(json);
    if (logger) logRequest(logger, { requestId, method: req.method!, path, status, started, identity: caller });
  };

  const fail = (
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    requestId: string,
    caller: Identity,
    path: string,
    error: unknown,
  ) => {
    if (error instanceof ProblemError)
      return finish(
        req,
        res,
        started,
        requestId,
        caller,
        path,
        error.status,
        problemBody(error.status, error.detail, error.errors, path, error.extensions),
        error.headers,
      );
    onUnexpectedError?.(error);
    finish(req, res, started, requestId, caller, path, 500, problemBody(500, UNEXPECTED_DETAIL, undefined, path));
  };

  const decide = (req: IncomingMessage, res: ServerResponse): boolean => {
    const caller = callerOf(req);
    if (!caller) return false;
    const type = header(req, 'content-type');
    if (type && !isJsonContentType(type)) return false;
    // A declared length within the limit: a streamed body (the app counts it) or an oversized one (413) go there.
    const declared = header(req, 'content-length');
    if (declared === undefined || req.headers['transfer-encoding'] !== undefined) return false;
    const length = parseInt(declared || '0', 10);
    if (!(length <= toolgate.config.bodyLimitBytes)) return false;

    const started = performance.now();
    const requestId = requestIdFrom(header(req, REQUEST_ID_HEADER));
    const path = '/v1/decide';
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // `on`, not `once`: each comes at most once per request, and `once` wraps every listener in another closure.
    req.on('error', () =>
      fail(req, res, started, requestId, caller, path, new ProblemError(400, 'the request body could not be read')),
    );
    req.on('end', () => {
      let text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // as fetch's text() decodes: a UTF-8 BOM is dropped
      let body = repeated.get(text);
      const seen = body !== undefined;
      if (!seen) {
        try {
          body = parseJsonText(text, DecideRequestSchema);
        } catch (error) {
          return fail(req, res, started, requestId, caller, path, error);
        }
      }
      let signal: Cancellation | undefined;
      answerDecideJson({ toolgate }, body!, () => (signal ??= closeCancellation(req, res)), caller).then(
        (answer) => {
          if (answer.cached && !seen) repeated.remember(text, body!);
          finishJson(req, res, started, requestId, caller, path, 200, answer.text, answer.bytes);
        },
        (error) => fail(req, res, started, requestId, caller, path, error),
      );
    });
    return true;
  };

  const poll = (req: IncomingMessage, res: ServerResponse, url: string): boolean => {
    const match = POLL_URL.exec(url);
    if (!match) return false;
    const caller = callerOf(req);
    if (!caller) return false;
    const started = performance.now();
    const id = match[1]!;
    // The request id and the path are made when the answer goes out: a held poll keeps neither meanwhile.
    const answer = (status: number, body: unknown, headers?: Record<string, string>) =>
      finish(
        req,
        res,
        started,
        requestIdFrom(header(req, REQUEST_ID_HEADER)),
        caller,
        `/v1/approvals/${id}`,
        status,
        body,
        headers,
      );
    const failed = (error: unknown) =>
      fail(req, res, started, requestIdFrom(header(req, REQUEST_ID_HEADER)), caller, `/v1/approvals/${id}`, error);
    let wait: ReturnType<typeof requestedWait>;
    try {
      wait = requestedWait(
        match[2] === undefined ? undefined : decodeQueryValue(match[2]),
        header(req, 'prefer'),
        toolgate.config.maxWaitSeconds,
      );
    } catch (error) {
      failed(error);
      return true;
    }
    const headers = wait.fromPrefer ? { 'preference-applied': `wait=${wait.seconds}` } : undefined;
    answerPoll({ toolgate }, id, wait.seconds, wait.seconds > 0 ? closeCancellation(req, res) : undefined).then(
      (body) => answer(200, body, headers),
      failed,
    );
    return true;
  };

  return (req, res) => {
    const url = req.url ?? '';
    const served =
      req.method === 'POST'
        ? url === '/v1/decide' && decide(req, res)
        : req.method === 'GET' && url.startsWith('/v1/approvals/') && poll(req, res, url);
    if (!served) app(req, res);
  };
}

/**
 * The parsed bodies of decide requests answered from the verdict cache, by their text: an agent repeats a call with
 * the same bytes, and parsing and checking it again (and serialising its arguments again for the cache's key) was
 * ~5 % of a repeated decision's CPU. Parsing is a function of the text alone, so a body is shared by every caller
 * that sends the same text; it is frozen deeply, so no request can change what another one reads. Only
 * texts whose decision the cache held are kept (a call made once costs one failed look-up), first in first out.
 */
class RepeatedBodies {
  private readonly bodies = new Map<string, DecideRequestBody>();
  constructor(
    private readonly size = 256,
    /** Longer texts are not kept (the verdict cache does not hold calls whose key is longer either). */
    private readonly maxLength = 4096,
  ) {}

  get(text: string): DecideRequestBody | undefined {
    return text.length > this.maxLength ? undefined : this.bodies.get(text);
  }

  remember(text: string, body: DecideRequestBody): void {
    if (text.length > this.maxLength) return;
    if (this.bodies.size >= this.size) this.bodies.delete(this.bodies.keys().next().value!);
    shareArgs(body.args); // frozen, its JSON made once for the cache's key
    deepFreeze(body);
    this.bodies.set(text, body);
  }
}

/** A query value decoded as Hono decodes it: `+` is a space, and a malformed escape is left as it is (no throw). */
function decodeQueryValue(raw: string): string {
  const text = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A header as one string (node gives arrays only for a few, never for these). */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * What ends a held wait (a long-poll or a decide-and-wait) when the caller goes away before its answer is written:
 * not an AbortController and its EventTarget, of which 10k would be held at once.
 */
function closeCancellation(req: IncomingMessage, res: ServerResponse): Cancellation {
  const cancellation = new CloseCancellation(req.socket.destroyed);
  if (!cancellation.aborted) {
    (res as ServerResponse & { [CANCELLATION]?: CloseCancellation })[CANCELLATION] = cancellation;
    res.on('close', onResponseClose); // one shared listener: `close` comes once, and `once` would wrap it per response
  }
  return cancellation;
}

const CANCELLATION = Symbol('toolgate.cancellation');

/** Aborts the cancellation a response carries (`this` is the response). */
function onResponseClose(this: ServerResponse & { [CANCELLATION]?: CloseCancellation }): void {
  this[CANCELLATION]?.abort();
}

/** A Cancellation with one listener, which is all a waiter registers. */
class CloseCancellation implements Cancellation {
  private listener: (() => void) | undefined;
  constructor(public aborted: boolean) {}
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listener = listener;
  }
  removeEventListener(): void {
    this.listener = undefined;
  }
  abort(): void {
    this.aborted = true;
    this.listener?.();
  }
}
