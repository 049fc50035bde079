// Rule management (reviewer): list, add (with lint warnings), show, remove.
import type { Hono } from 'hono';
import { lintRule } from '../../engine/rules/lint.ts';
import { isPatternError, parsePattern } from '../../engine/rules/rule.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import { readJson } from '../body.ts';
import { ProblemError } from '../problem.ts';
import { ruleJson } from '../rule-json.ts';
import { NewRuleSchema } from '../schemas.ts';

export function registerRules(app: Hono<AppEnv>, deps: AppDeps): void {
  const { toolgate } = deps;
  app.get('/v1/rules', deps.requireReviewer, async (c) => {
    const policy = await toolgate.policy.current();
    return c.json({
      rules: policy.rules.filter((r) => r.origin !== 'grant').map(ruleJson),
      errors: policy.errors.map((e) => `${e.pattern}: ${e.message}`),
    });
  });
  app.post('/v1/rules', deps.requireReviewer, async (c) => {
    const body = await readJson(c, NewRuleSchema);
    const parsed = parsePattern(body.pattern);
    if (isPatternError(parsed))
      throw new ProblemError(400, `invalid pattern: ${parsed.message}`, [`pattern: ${parsed.message}`]);
    if (body.risk && body.effect !== 'ask')
      throw new ProblemError(400, 'risk applies to ask rules only', ['risk: only ask rules carry a risk']);
    const existing = await toolgate.store.listRules();
    const warnings = lintRule(body, existing, toolgate.engine.analyzer, toolgate.engine.home);
    const rule = await toolgate.store.addRule({
      effect: body.effect,
      pattern: body.pattern,
      risk: body.risk,
      scope: body.scope,
      expiresAt: body.expires_at,
      note: body.note,
      position: body.position,
      createdBy: c.get('identity').name,
    });
    return c.json({ rule: ruleJson(rule), warnings }, 201);
  });
  app.get('/v1/rules/:id', deps.requireReviewer, async (c) => {
    const rule = (await toolgate.store.listRules()).find((r) => r.id === c.req.param('id'));
    if (!rule) throw new ProblemError(404, `no rule with id ${c.req.param('id')}`);
    return c.json(ruleJson(rule));
  });
  app.delete('/v1/rules/:id', deps.requireReviewer, async (c) => {
    if (!(await toolgate.store.removeRule(c.req.param('id'))))
      throw new ProblemError(404, `no rule with id ${c.req.param('id')}`);
    return c.body(null, 204);
  });
}
