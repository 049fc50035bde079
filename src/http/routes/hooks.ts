// POST /v1/hooks/{runtime}: an agent runtime's own hook body in (Claude Code's http hook posts it here directly), its hook output out.
import type { Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { answerHook } from '../../service/hook-answer.ts';
import {
  HOOK_EVENTS,
  HOOK_RUNTIMES,
  defaultEvent,
  failClosedOutput,
  type HookRuntime,
} from '../../service/hook-formats.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import { readJson, validate } from '../body.ts';
import type { components } from '../openapi-types.ts';
import { ProblemError } from '../problem.ts';
import { AgentHomeSchema } from '../schemas.ts';

/** The header a hook sets to the agent's `$HOME` (`toolgate hook` sends it; the http hook snippet sets it). */
export const AGENT_HOME_HEADER = 'x-toolgate-agent-home';

const id = z.string().max(200);

/** The fields toolgate reads; runtimes send more (transcript_path, permission_mode, turn_id, …), which pass through unread. */
export const HookInputSchema = z.looseObject({
  hook_event_name: z.string().max(100).optional(),
  tool_name: z.string().min(1).max(200),
  tool_input: z.unknown().refine((v) => v !== undefined, 'required'),
  session_id: id.optional(),
  // Nullable as Codex declares it (NullableString): `codex exec --ephemeral` sends null.
  transcript_path: z.string().max(4096).nullable().optional(),
  cwd: z.string().max(4096).optional(),
  permission_mode: z.string().max(100).optional(),
  tool_use_id: id.optional(),
  agent_id: id.optional(),
  agent_type: id.optional(),
  turn_id: id.optional(),
  model: id.optional(),
  timestamp: z.string().max(100).optional(),
  tool_response: z.unknown().optional(),
  mcp_context: z.looseObject({ server_name: id.optional(), tool_name: id.optional() }).optional(),
}) satisfies z.ZodType<components['schemas']['HookInput']>;

export function registerHooks(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post('/v1/hooks/:runtime', deps.requireAgent, async (c) => {
    const runtime = c.req.param('runtime') as HookRuntime;
    if (!HOOK_RUNTIMES.includes(runtime))
      throw new ProblemError(404, `no hook adapter for ${runtime}: use one of ${HOOK_RUNTIMES.join(', ')}`);
    const input = await readJson(c, HookInputSchema);
    const event = input.hook_event_name ?? defaultEvent(runtime);
    if (!HOOK_EVENTS[runtime].includes(event)) {
      const events = HOOK_EVENTS[runtime];
      const message = `toolgate answers ${events.slice(0, -1).join(', ')} and ${events.at(-1)} hooks for ${runtime}, not ${event}`;
      throw new ProblemError(400, message, [`hook_event_name: ${message}`]);
    }
    // An empty header is no home (`$HOME` unset where the hook ran). A malformed one is refused — the hook then
    // blocks the call, naming the header — rather than ignored: ignoring it would silently protect less.
    const header = c.req.header(AGENT_HOME_HEADER);
    const agentHome = header
      ? validate(z.object({ [AGENT_HOME_HEADER]: AgentHomeSchema }), { [AGENT_HOME_HEADER]: header })[AGENT_HOME_HEADER]
      : undefined;
    const reply = await answerHook(deps.toolgate, runtime, input, {
      agentHome,
      signal: c.req.raw.signal,
      boundAgentId: c.get('identity').agentId,
      token: c.get('identity').name,
    });
    const body: components['schemas']['HookOutput'] = reply.output;
    return c.json(body);
  });
}

/**
 * Fail closed on the hook routes. Claude Code treats a non-2xx answer from an `http` hook as a non-blocking
 * error and runs the tool anyway, so every failure here (no token, a bad body, a body over the limit, the rate
 * limit, an internal error) becomes a 200 deny in the runtime's own format; the status and the problem's detail
 * travel in the reason and in `X-Toolgate-Status`. Registered before every other middleware so it sees them all.
 * An event toolgate does not answer and an unknown runtime keep their plain problem responses; an after-event
 * (PostToolUse, AfterTool) that fails is answered `{}`: the tool already ran, there is nothing to block.
 */
export function hookFailClosed(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // From the path: route parameters are not set when an earlier middleware (the body limit) answered.
    const runtime = c.req.path.slice('/v1/hooks/'.length) as HookRuntime;
    const status = c.res.status;
    if (status < 400 || !HOOK_RUNTIMES.includes(runtime)) return;
    let event = defaultEvent(runtime);
    if (status !== 413) {
      const named = await c.req
        .text()
        .then((text) => (JSON.parse(text) as { hook_event_name?: unknown } | null)?.hook_event_name)
        .catch(() => undefined);
      if (typeof named === 'string') {
        if (!HOOK_EVENTS[runtime].includes(named)) return;
        event = named;
      }
    }
    const problem = (await c.res
      .clone()
      .json()
      .catch(() => ({}))) as { detail?: string };
    const headers = new Headers({ 'content-type': 'application/json', 'x-toolgate-status': String(status) });
    for (const name of ['www-authenticate', 'retry-after', 'x-request-id']) {
      const value = c.res.headers.get(name);
      if (value) headers.set(name, value);
    }
    c.res = new Response(JSON.stringify(failClosedOutput(runtime, event, `${status} ${problem.detail ?? 'error'}`)), {
      status: 200,
      headers,
    });
  };
}
