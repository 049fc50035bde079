// Session grants (reviewer): list and revoke what "allow for this session" created.
import type { Hono } from 'hono';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import { ProblemError } from '../problem.ts';
import { grantJson } from '../rule-json.ts';

export function registerGrants(app: Hono<AppEnv>, deps: AppDeps): void {
  const { store } = deps.toolgate;
  app.get('/v1/grants', deps.requireReviewer, async (c) =>
    c.json({ grants: (await store.listGrants(c.req.query('session_id'))).map(grantJson) }),
  );
  app.delete('/v1/grants/:id', deps.requireReviewer, async (c) => {
    if (!(await store.removeGrant(c.req.param('id'))))
      throw new ProblemError(404, `no grant with id ${c.req.param('id')}`);
    return c.body(null, 204);
  });
}
