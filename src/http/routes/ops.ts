// Operations endpoints: GET /readyz (database writable, policy loaded) and GET /metrics (Prometheus).
import type { Hono } from 'hono';
import { createMetrics } from '../../service/metrics.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import type { components } from '../openapi-types.ts';

type Readiness = components['schemas']['Readiness'];

/**
 * Registers /readyz and /metrics. Each app gets its own metrics Registry, subscribed to its toolgate. Both are
 * unauthenticated like /healthz (scrapers and orchestrators hold no token); bind to loopback or firewall them.
 */
export function registerOps(app: Hono<AppEnv>, deps: AppDeps): void {
  const metrics = createMetrics(deps.toolgate);

  app.get('/readyz', async (c) => {
    const { toolgate } = deps;
    let database: string;
    let policy = 'ok';
    try {
      database = (await toolgate.store.writeProblem()) ?? 'ok';
    } catch (error) {
      database = `the database check failed: ${(error as Error).message}`;
    }
    if (database === 'ok') {
      try {
        const current = await toolgate.policy.current();
        if (current.errors.length > 0) c.header('x-policy-warnings', String(current.errors.length));
      } catch (error) {
        policy = `the policy could not be loaded: ${(error as Error).message}`;
      }
    } else policy = 'not checked: the database is not ready';
    const ready = database === 'ok' && policy === 'ok';
    const body: Readiness = { status: ready ? 'ready' : 'not_ready', checks: { database, policy } };
    return c.json(body, ready ? 200 : 503, { 'cache-control': 'no-store' });
  });

  app.get('/metrics', async (c) =>
    c.body(await metrics.render(), 200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }),
  );
}
