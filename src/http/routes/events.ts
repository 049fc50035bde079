// GET /v1/events: server-sent events about approvals for reviewers, with a keep-alive comment.
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ApprovalEvent } from '../../service/events.ts';
import type { AppDeps } from '../app.ts';
import { approvalJson } from '../approval-json.ts';
import type { AppEnv } from '../auth.ts';

/** Milliseconds between keep-alive comments (proxies close idle streams; the contract promises at least one every 30 s). */
export const KEEP_ALIVE_MS = 15_000;

export function registerEvents(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/v1/events', deps.requireReviewer, (c) =>
    streamSSE(c, async (stream) => {
      const queue: ApprovalEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = deps.toolgate.events.on((event) => {
        queue.push(event);
        wake?.();
      });
      const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      stream.onAbort(() => {
        clearInterval(keepAlive);
        unsubscribe();
        wake?.();
      });
      await stream.write(': connected\n\n');
      while (!stream.aborted && !stream.closed) {
        const event = queue.shift();
        if (!event) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        await stream.writeSSE({
          event: event.type,
          data: JSON.stringify(approvalJson(event.approval)),
          id: `${event.approval.id}:${event.type}`,
        });
      }
      clearInterval(keepAlive);
      unsubscribe();
    }),
  );
}
