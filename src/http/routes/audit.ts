// GET /v1/audit (the audit log, filtered and paginated) and POST /v1/rules/preview (replay it against a rule).
import type { Hono } from 'hono';
import { isPatternError, parsePattern } from '../../engine/rules/rule.ts';
import { previewRule } from '../../service/rule-preview.ts';
import { timeBound } from '../../service/time-bound.ts';
import { auditRowJson } from '../../store/audit-json.ts';
import type { AuditRow } from '../../store/types.ts';
import type { AppDeps } from '../app.ts';
import { AuditQuerySchema, RulePreviewRequestSchema } from '../audit-schemas.ts';
import type { AppEnv } from '../auth.ts';
import { readJson, validate } from '../body.ts';
import type { components } from '../openapi-types.ts';
import { ProblemError } from '../problem.ts';

type AuditRecord = components['schemas']['AuditRecord'];
type AuditPage = components['schemas']['AuditPage'];
type RulePreview = components['schemas']['RulePreview'];

/** Registers the audit routes (reviewer only: the log holds every agent's commands). */
export function registerAudit(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/v1/audit', deps.requireReviewer, async (c) => {
    const query = validate(AuditQuerySchema, c.req.query());
    const limit = query.limit ?? 100;
    // One row more than asked tells whether another page exists without a second query (the store caps a query at
    // 1000 rows, so a full page of 1000 always offers a cursor; the page after it may be empty).
    const rows = await deps.toolgate.store.queryAudit({
      since: query.since === undefined ? undefined : timeBound(query.since),
      until: query.until === undefined ? undefined : timeBound(query.until),
      decision: query.decision,
      source: query.source,
      tool: query.tool,
      agentId: query.agent_id,
      sessionId: query.session_id,
      approvalId: query.approval_id,
      decisionId: query.decision_id,
      q: query.q,
      cursor: query.cursor === undefined ? undefined : Number(query.cursor),
      limit: Math.min(limit + 1, 1000),
    });
    const page = rows.slice(0, limit);
    const body: AuditPage = {
      items: page.map(auditRecord),
      next_cursor:
        rows.length > limit || (limit === 1000 && rows.length === limit) ? String(page[page.length - 1]!.seq) : null,
    };
    return c.json(body);
  });

  app.post('/v1/rules/preview', deps.requireReviewer, async (c) => {
    const body = await readJson(c, RulePreviewRequestSchema);
    const parsed = parsePattern(body.pattern);
    if (isPatternError(parsed))
      throw new ProblemError(400, `invalid pattern: ${parsed.message}`, [`pattern: ${parsed.message}`]);
    const { toolgate } = deps;
    const policy = await toolgate.policy.current();
    const preview: RulePreview = await previewRule(
      { store: toolgate.store, engine: toolgate.engine, rules: policy.rules },
      { effect: body.effect ?? 'allow', pattern: body.pattern, risk: body.risk, scope: body.scope },
      { since: timeBound(body.since ?? '30d')!, maxRows: body.max_rows },
    );
    return c.json(preview);
  });
}

/** A stored row as the API shows it: the JSON columns parsed. */
export function auditRecord(row: AuditRow): AuditRecord {
  return auditRowJson(row);
}
