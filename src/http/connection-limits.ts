// Connection limits of the node:http server: header and idle timeouts, a cap per peer and in total, and a reserve
// that keeps /healthz and the agent hooks answering while the rest is full.
//
// Why: a client that opens sockets and never finishes a request (a request line and one header, then silence) holds
// a descriptor each; ~20,000 of them took every descriptor, and /v1/hooks/claude-code then failed to connect — Claude
// Code runs the tool when its http hook fails (issue 23, row 2). Three defences, each bounded:
//  1. Timeouts: a request's headers must arrive within `headersTimeoutMs`, its body within `requestTimeoutMs`, and
//     an idle keep-alive connection is closed after `keepAliveTimeoutMs` (checked every second, not every 30 s).
//  2. Eviction: a connection with no request in flight (header-less, half-sent, or idle keep-alive) is what a flood is
//     made of. When a new connection would pass a cap, the oldest such connection of that peer (or of anyone, for
//     the total) is closed to make room, so a flood cannot keep out a client that sends its request at once.
//  3. A reserve: when every connection is busy with a request (held long-polls), up to `reserve` more are accepted,
//     which may only ask for /healthz and /v1/hooks/* (503 problem+json for anything else); beyond that, refused.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from './rate-limit.ts';
import { problemBody } from './problem.ts';

/** Limits of the server's connections; every field has a default. */
export interface ConnectionLimitOptions {
  /** Connections at most, beyond the reserve (default 16 384: a team's 10 000 held long-polls fit, bench/long-poll.ts). */
  maxConnections?: number;
  /** Connections one peer address may hold, beyond the reserve (default 12 288; on loopback every local client is one peer). */
  maxPerPeer?: number;
  /** Extra connections kept for /healthz and /v1/hooks/* when the rest are busy (default 64). */
  reserve?: number;
  /** Time to receive a request's headers (default 10 s). */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included (default 60 s; a response may take longer: long-polls). */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept (default 5 s). */
  keepAliveTimeoutMs?: number;
}

/** The defaults, as docs/security.md lists them. */
export const CONNECTION_LIMIT_DEFAULTS = {
  maxConnections: 16_384,
  maxPerPeer: 12_288,
  reserve: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
} as const satisfies Required<ConnectionLimitOptions>;

/** Paths a reserve connection may ask for: liveness, and the hooks whose failure would let a tool run unjudged. */
export function isReservedPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0]!;
  return path === '/healthz' || path.startsWith('/v1/hooks/');
}

interface Tracked {
  socket: Socket;
  peer: string;
  /** Requests in flight on it (HTTP/1.1 pipelining may give more than one). */
  busy: number;
  /** Accepted into the reserve: serves reserved paths only. */
  reserved: boolean;
}

/** Where a response keeps its connection's record, for the shared `close` listener. */
const TRACKED = Symbol('toolgate.connection');
type TrackedResponse = ServerResponse & { [TRACKED]?: Tracked };

/** What the limiter knows, for tests and metrics. */
export interface ConnectionLimiter {
  /** Wraps the server's request listener (refuses non-reserved paths on a reserve connection). */
  wrap(listener: RequestListener): RequestListener;
  /** Open connections. */
  open(): number;
  /** Connections closed to make room, and connections refused outright, since start. */
  evicted(): number;
  refused(): number;
}

/** Node's server options for the timeouts (pass to `http.createServer(options, …)`). */
export function serverTimeouts(options: ConnectionLimitOptions = {}): {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
} {
  const o = { ...CONNECTION_LIMIT_DEFAULTS, ...options };
  return {
    headersTimeout: o.headersTimeoutMs,
    // node requires requestTimeout >= headersTimeout (or 0).
    requestTimeout: Math.max(o.requestTimeoutMs, o.headersTimeoutMs),
    keepAliveTimeout: o.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, o.headersTimeoutMs),
  };
}

/** Applies the caps and the reserve to a server (its timeouts come from `serverTimeouts`). */
export function limitConnections(server: Server, options: ConnectionLimitOptions = {}): ConnectionLimiter {
  const { maxConnections, maxPerPeer, reserve } = { ...CONNECTION_LIMIT_DEFAULTS, ...options };
  const sockets = new Map<Socket, Tracked>();
  /** Connections with no request in flight, oldest first (Set keeps insertion order: re-adding moves to the back). */
  const idle = new Set<Socket>();
  const perPeer = new Map<string, number>();
  let evictions = 0;
  let refusals = 0;

  const countOf = (peer: string) => perPeer.get(peer) ?? 0;
  const evictIdle = (peer?: string): boolean => {
    for (const socket of idle) {
      if (peer !== undefined && sockets.get(socket)?.peer !== peer) continue;
      idle.delete(socket);
      evictions++;
      socket.destroy();
      forget(socket); // at once: 'close' comes later, and the count must make room now
      return true;
    }
    return false;
  };
  const forget = (socket: Socket) => {
    const t = sockets.get(socket);
    if (!t) return;
    sockets.delete(socket);
    idle.delete(socket);
    const n = countOf(t.peer) - 1;
    if (n > 0) perPeer.set(t.peer, n);
    else perPeer.delete(t.peer);
  };

  server.on('connection', (socket: Socket) => {
    const peer = addressKey(socket.remoteAddress, undefined, false);
    if (countOf(peer) >= maxPerPeer) evictIdle(peer);
    if (sockets.size >= maxConnections) evictIdle();
    let reserved = false;
    if (countOf(peer) >= maxPerPeer || sockets.size >= maxConnections) {
      // Everything is busy with requests: the reserve, for health checks and hooks only, or nothing.
      if (countOf(peer) >= maxPerPeer + reserve || sockets.size >= maxConnections + reserve) {
        refusals++;
        socket.destroy();
        return;
      }
      reserved = true;
    }
    sockets.set(socket, { socket, peer, busy: 0, reserved });
    perPeer.set(peer, countOf(peer) + 1);
    idle.add(socket);
    socket.once('close', () => forget(socket));
  });

  /** A response has closed (`this`): its connection is idle again once nothing else is in flight on it. */
  function released(this: TrackedResponse): void {
    const t = this[TRACKED]!;
    t.busy--;
    if (t.busy === 0 && sockets.has(t.socket)) idle.add(t.socket);
  }

  return {
    wrap(listener) {
      return (req: IncomingMessage, res: ServerResponse) => {
        const socket = req.socket;
        const t = sockets.get(socket);
        if (t) {
          t.busy++;
          idle.delete(socket);
          (res as TrackedResponse)[TRACKED] = t;
          res.on('close', released); // one shared listener: `close` comes once, and `once` would wrap a closure per request
          if (t.reserved && !isReservedPath(req.url)) {
            const body = JSON.stringify(
              problemBody(
                503,
                'toolgate is at its connection limit; this connection may only reach /healthz and /v1/hooks/*. Try again shortly.',
                undefined,
                req.url?.split('?')[0],
              ),
            );
            res.writeHead(503, {
              'content-type': 'application/problem+json',
              'content-length': Buffer.byteLength(body),
              connection: 'close',
              'retry-after': '1',
            });
            res.end(body);
            return;
          }
        }
        listener(req, res);
      };
    },
    open: () => sockets.size,
    evicted: () => evictions,
    refused: () => refusals,
  };
}
