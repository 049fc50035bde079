// GET /v1/status: what a reviewer's status line shows — the operator mode, the queue length, the version.
import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import type { components } from '../openapi-types.ts';

const version = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The most pending approvals counted; the per-agent cap keeps real queues far below it. */
const PENDING_COUNT_CAP = 1000;

/** Registers GET /v1/status (reviewer only: the mode tells an agent how hard it may push). */
export function registerStatus(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/v1/status', deps.requireReviewer, async (c) => {
    const pending = await deps.toolgate.approvals.list('pending', PENDING_COUNT_CAP);
    const body: components['schemas']['Status'] = {
      mode: deps.toolgate.engine.operatorMode,
      pending: pending.length,
      version,
    };
    return c.json(body);
  });
}
