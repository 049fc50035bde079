// zod schemas of the audit and rule-preview requests, annotated against the types generated from openapi.yaml.
import { z } from 'zod';
import { timeBound } from '../service/time-bound.ts';
import type { components } from './openapi-types.ts';

type Schemas = components['schemas'];

const AUDIT_DECISIONS = [
  'allow',
  'deny',
  'ask',
  'approved',
  'denied',
  'expired',
  'cancelled',
  'result',
  'checkpoint',
  'tool_changed',
  'tool_accepted',
] as const satisfies readonly Schemas['AuditDecision'][];
const text = z.string().min(1).max(2000);
const when = z
  .string()
  .max(100)
  .refine(
    (v) => timeBound(v) !== undefined,
    'expected an ISO date-time (2025-01-31T12:00:00Z) or a duration (15m, 1h, 30d)',
  );

/** Query parameters of GET /v1/audit (all strings on the wire). */
export const AuditQuerySchema = z.strictObject({
  since: when.optional(),
  until: when.optional(),
  decision: z.enum(AUDIT_DECISIONS).optional(),
  source: text.optional(),
  tool: text.optional(),
  agent_id: text.optional(),
  session_id: text.optional(),
  approval_id: text.optional(),
  decision_id: text.optional(),
  q: text.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'expected the next_cursor of a previous page')
    .optional(),
});

/** Body of POST /v1/rules/preview. */
export const RulePreviewRequestSchema = z.strictObject({
  pattern: z.string().min(1).max(2000),
  effect: z.enum(['allow', 'deny', 'ask']).optional(),
  risk: z.enum(['high', 'medium', 'low']).optional(),
  scope: z
    .string()
    .regex(/^(global|agent:.+|session:.+)$/, 'global, agent:<id> or session:<id>')
    .max(300)
    .optional(),
  since: when.optional(),
  max_rows: z.number().int().min(1).max(100_000).optional(),
}) satisfies z.ZodType<Schemas['RulePreviewRequest']>;
