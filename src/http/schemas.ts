// zod schemas of request bodies, annotated against the types generated from openapi.yaml so drift fails `tsc`.
import { z } from 'zod';
import { fastCheck } from './body.ts';
import type { components } from './openapi-types.ts';

type Schemas = components['schemas'];

const mode = z.enum(['default', 'strict', 'auto_approve', 'read_only', 'bypass_all']);
const risk = z.enum(['high', 'medium', 'low']);
const id = z.string().min(1).max(200);

/**
 * The agent's home directory (`agent_home`, the hooks' `x-toolgate-agent-home` header): an absolute, normalised path of
 * bounded length. It only adds protected places (the sidecar's own homes stay protected whatever it says), so a wrong
 * value cannot open anything; a malformed one is refused with the reason, rather than silently protecting nothing.
 */
export const AgentHomeSchema = z
  .string()
  .max(1024)
  .refine((v) => v.startsWith('/'), 'must be an absolute path')
  .refine((v) => !/[\u0000-\u001f]/.test(v), 'must not contain control characters')
  .refine((v) => !v.split('/').some((s) => s === '..' || s === '.'), 'must be normalised (no . or .. segments)')
  .transform((v) => (v.length > 1 ? v.replace(/\/+$/, '') : v));

export const DecideRequestSchema = z.strictObject({
  tool: z.string().min(1).max(200),
  args: z.unknown().refine((v) => v !== undefined, 'required'),
  agent_id: id.optional(),
  session_id: id.optional(),
  cwd: z.string().min(1).max(4096).optional(),
  mode: mode.optional(),
  interactive: z.boolean().optional(),
  wait: z.number().min(0).max(60).optional(),
  tool_call_id: id.optional(),
  agent_home: AgentHomeSchema.optional(),
  tool_annotations: z
    .strictObject({ destructiveHint: z.boolean().optional(), readOnlyHint: z.boolean().optional() })
    .optional(),
}) satisfies z.ZodType<Schemas['DecideRequest']>;

export const NewRuleSchema = z.strictObject({
  effect: z.enum(['allow', 'deny', 'ask']),
  pattern: z.string().min(1).max(2000),
  risk: risk.optional(),
  scope: z
    .string()
    .regex(/^(global|agent:.+|session:.+)$/, 'global, agent:<id> or session:<id>')
    .max(300)
    .optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  note: z.string().max(2000).optional(),
  position: z.number().int().min(1).optional(),
}) satisfies z.ZodType<Schemas['NewRule']>;

export const ResolveRequestSchema = z.strictObject({
  choice: z.enum(['allow_once', 'allow_session', 'allow_always', 'deny', 'deny_with_feedback']),
  feedback: z.string().max(10_000).optional(),
  rule_pattern: z.string().min(1).max(2000).optional(),
  modified_args: z.unknown().optional(),
}) satisfies z.ZodType<Schemas['ResolveRequest']>;

export type DecideRequestBody = z.output<typeof DecideRequestSchema>;

const MODES: ReadonlySet<unknown> = new Set(mode.options);

/** A string of `min`..`max` UTF-16 units, as zod's `.min()`/`.max()` count. */
const sized = (v: unknown, min: number, max: number): boolean =>
  typeof v === 'string' && v.length >= min && v.length <= max;

/**
 * DecideRequestSchema's valid case checked by hand (every field as the schema states it), or undefined. An agent
 * sends one of these before every tool call, and zod's parse of it was ~1.6 % of a repeated call's CPU. Anything
 * this check does not accept goes to zod (`validate` in body.ts), so a refusal names the field and the reason
 * exactly as before; test/http/decide-body.test.ts holds the two to the same verdicts and outputs.
 */
export function checkDecideBody(value: unknown): DecideRequestBody | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  let hasTool = false;
  let hasArgs = false;
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case 'tool':
        if (!sized(v, 1, 200)) return undefined;
        hasTool = true;
        break;
      case 'args':
        hasArgs = v !== undefined;
        break;
      case 'agent_id':
      case 'session_id':
      case 'tool_call_id':
        if (!sized(v, 1, 200)) return undefined;
        break;
      case 'cwd':
        if (!sized(v, 1, 4096)) return undefined;
        break;
      case 'mode':
        if (!MODES.has(v)) return undefined;
        break;
      case 'interactive':
        if (typeof v !== 'boolean') return undefined;
        break;
      case 'wait':
        if (typeof v !== 'number' || !(v >= 0 && v <= 60)) return undefined;
        break;
      case 'agent_home':
        if (!plainAgentHome(v)) return undefined;
        break;
      case 'tool_annotations':
        if (!plainAnnotations(v)) return undefined;
        break;
      default:
        return undefined; // an unknown key: zod names it
    }
  }
  if (!hasTool || !hasArgs) return undefined;
  const home = body.agent_home as string | undefined;
  // AgentHomeSchema's transform: trailing slashes dropped (the root stays `/`).
  if (home !== undefined && home.length > 1 && home.endsWith('/')) body.agent_home = home.replace(/\/+$/, '');
  return body as DecideRequestBody;
}

/** What AgentHomeSchema accepts. */
function plainAgentHome(v: unknown): boolean {
  return (
    typeof v === 'string' &&
    v.length <= 1024 &&
    v.startsWith('/') &&
    !/[\u0000-\u001f]/.test(v) &&
    !v.split('/').some((s) => s === '..' || s === '.')
  );
}

/** What the strict `tool_annotations` object accepts: at most its two hints, each a boolean. */
function plainAnnotations(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  for (const key of Object.keys(v)) {
    if (key !== 'destructiveHint' && key !== 'readOnlyHint') return false;
    if (typeof (v as Record<string, unknown>)[key] !== 'boolean') return false;
  }
  return true;
}

fastCheck(DecideRequestSchema, checkDecideBody);
