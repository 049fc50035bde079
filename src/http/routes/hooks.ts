// POST /v1/hooks/{runtime}: an agent runtime's own hook body in (Claude Code's http hook posts it here directly), its hook output out.
import type { Hono } from 'hono';
import { z } from 'zod';
import { answerHook } from '../../service/hook-answer.ts';
import { HOOK_EVENTS, HOOK_RUNTIMES, defaultEvent, type HookRuntime } from '../../service/hook-formats.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import { readJson } from '../body.ts';
import type { components } from '../openapi-types.ts';
import { ProblemError } from '../problem.ts';

const id = z.string().max(200);

/** The fields toolgate reads; runtimes send more (transcript_path, permission_mode, turn_id, …), which pass through unread. */
export const HookInputSchema = z.looseObject({
  hook_event_name: z.string().max(100).optional(),
  tool_name: z.string().min(1).max(200),
  tool_input: z.unknown().refine((v) => v !== undefined, 'required'),
  session_id: id.optional(),
  transcript_path: z.string().max(4096).optional(),
  cwd: z.string().max(4096).optional(),
  permission_mode: z.string().max(100).optional(),
  tool_use_id: id.optional(),
  agent_id: id.optional(),
  agent_type: id.optional(),
}) satisfies z.ZodType<components['schemas']['HookInput']>;

export function registerHooks(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post('/v1/hooks/:runtime', deps.requireAgent, async (c) => {
    const runtime = c.req.param('runtime') as HookRuntime;
    if (!HOOK_RUNTIMES.includes(runtime)) throw new ProblemError(404, `no hook adapter for ${runtime}: use one of ${HOOK_RUNTIMES.join(', ')}`);
    const input = await readJson(c, HookInputSchema);
    const event = input.hook_event_name ?? defaultEvent(runtime);
    if (!HOOK_EVENTS[runtime].includes(event)) {
      const message = `toolgate answers ${HOOK_EVENTS[runtime].join(' and ')} hooks for ${runtime}, not ${event}`;
      throw new ProblemError(400, message, [`hook_event_name: ${message}`]);
    }
    const reply = await answerHook(deps.toolgate, runtime, input, c.req.raw.signal);
    const body: components['schemas']['HookOutput'] = reply.output;
    return c.json(body);
  });
}
