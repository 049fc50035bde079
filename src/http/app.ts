// The HTTP application, assembled in one place from route modules; dependencies come in through createApp(deps).
import { Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from '../service/logger.ts';
import type { Toolgate } from '../service/toolgate.ts';
import { fastBodyLimit } from './body-limit.ts';
import { requireRole, TokenAuthenticator, type AlternateAuth, type AppEnv, type AuthGuard } from './auth.ts';
import { problemResponse, ProblemError, UNEXPECTED_DETAIL } from './problem.ts';
import { withFastPaths } from './fast-path.ts';
import type { RequestListener } from 'node:http';
import { requestLog } from './request-log.ts';
import { registerApprovals } from './routes/approvals.ts';
import { registerAudit } from './routes/audit.ts';
import { registerDecide } from './routes/decide.ts';
import { registerEvents } from './routes/events.ts';
import { registerGrants } from './routes/grants.ts';
import { registerHealth } from './routes/health.ts';
import { hookFailClosed, registerHooks } from './routes/hooks.ts';
import { registerMcp } from './routes/mcp.ts';
import { registerResults } from './routes/results.ts';
import { registerOps } from './routes/ops.ts';
import { registerRules } from './routes/rules.ts';
import { registerReview } from './review/routes.ts';
import { reviewCookieAuth } from './review/session.ts';
import { registerStatus } from './routes/status.ts';

/** What the app is built from. */
export interface CreateAppOptions {
  toolgate: Toolgate;
  tokens: ConstructorParameters<typeof TokenAuthenticator>[0];
  /** Another way to authenticate; default: the review page's session cookie, on the page's own API calls only. */
  alternateAuth?: AlternateAuth;
  /** Failed-authentication rate limiting. */
  authGuard?: AuthGuard;
  /** Receives unexpected errors (a logger). */
  onUnexpectedError?: (error: unknown) => void;
  /** Logs one JSON line per request, with a request id (X-Request-Id). */
  logger?: Logger;
}

/** What route modules receive. */
export interface AppDeps {
  toolgate: Toolgate;
  auth: TokenAuthenticator;
  requireAgent: MiddlewareHandler<AppEnv>;
  requireReviewer: MiddlewareHandler<AppEnv>;
}

/** A route module: registers its routes on the app. */
export type RouteModule = (app: Hono<AppEnv>, deps: AppDeps) => void;

/** Builds the Hono app. `extraRoutes` lets later modules (review page, hooks, audit) plug in. */
/** The app, what its routes received, and the node:http listener wrapper that serves the agent's hot routes first. */
export interface BuiltApp {
  app: Hono<AppEnv>;
  deps: AppDeps;
  /** Wraps the app's node:http listener with the fast routes (fast-path.ts), built from these same options. */
  withFastPaths(appListener: RequestListener): RequestListener;
}

export function createApp(options: CreateAppOptions, extraRoutes: RouteModule[] = []): BuiltApp {
  const auth = new TokenAuthenticator(options.tokens);
  const alternateAuth = options.alternateAuth ?? reviewCookieAuth;
  const deps: AppDeps = {
    toolgate: options.toolgate,
    auth,
    requireAgent: requireRole('agent', auth, alternateAuth, options.authGuard),
    requireReviewer: requireRole('reviewer', auth, alternateAuth, options.authGuard),
  };
  const app = new Hono<AppEnv>();
  app.use('/v1/hooks/:runtime', hookFailClosed()); // first: a hook that fails must still answer a deny
  const limit = options.toolgate.config.bodyLimitBytes;
  const limiter = fastBodyLimit({
    maxSize: limit,
    onError: (c) => problemResponse(c, 413, `the request body is larger than ${limit} bytes`),
  });
  // Tool outputs (POST /v1/results) carry their own, larger limit.
  app.use('*', (c, next) => (c.req.method === 'POST' && c.req.path === '/v1/results' ? next() : limiter(c, next)));
  if (options.logger) app.use('*', requestLog(options.logger));
  registerReview(app, deps); // first: its middleware hands every later route the review session store
  registerHealth(app);
  registerOps(app, deps);
  registerAudit(app, deps);
  registerDecide(app, deps);
  registerRules(app, deps);
  registerApprovals(app, deps);
  registerGrants(app, deps);
  registerEvents(app, deps);
  registerHooks(app, deps);
  registerResults(app, deps);
  registerMcp(app, deps);
  registerStatus(app, deps);
  for (const register of extraRoutes) register(app, deps);
  app.notFound((c) => problemResponse(c, 404, `no route for ${c.req.method} ${c.req.path}`));
  app.onError((error, c) => {
    if (error instanceof ProblemError)
      return problemResponse(c, error.status, error.detail, error.errors, error.headers, error.extensions);
    if (error instanceof HTTPException) return problemResponse(c, error.status, error.message || 'request failed');
    options.onUnexpectedError?.(error);
    return problemResponse(c, 500, UNEXPECTED_DETAIL);
  });
  return {
    app,
    deps,
    withFastPaths: (appListener) =>
      withFastPaths(appListener, { deps, logger: options.logger, onUnexpectedError: options.onUnexpectedError }),
  };
}
