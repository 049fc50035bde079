// zod schemas of request bodies, annotated against the types generated from openapi.yaml so drift fails `tsc`.
import { z } from 'zod';
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
export const AgentHomeSchema = z.string().max(1024)
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
  tool_annotations: z.strictObject({ destructiveHint: z.boolean().optional(), readOnlyHint: z.boolean().optional() }).optional(),
}) satisfies z.ZodType<Schemas['DecideRequest']>;

export const NewRuleSchema = z.strictObject({
  effect: z.enum(['allow', 'deny', 'ask']),
  pattern: z.string().min(1).max(2000),
  risk: risk.optional(),
  scope: z.string().regex(/^(global|agent:.+|session:.+)$/, 'global, agent:<id> or session:<id>').max(300).optional(),
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
