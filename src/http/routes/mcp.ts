// POST /v1/mcp/tools (an MCP gateway reports its tool definitions, agent) and POST /v1/mcp/tools/accept (a reviewer accepts a pinned tool's change).
import type { Hono } from 'hono';
import { z } from 'zod';
import { mcpToolServiceFor } from '../../service/mcp-tools.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import { readJson } from '../body.ts';
import type { components } from '../openapi-types.ts';
import { ProblemError } from '../problem.ts';

type Schemas = components['schemas'];

const name = z.string().min(1).max(200);

export const McpToolsRequestSchema = z.strictObject({
  server: name,
  pin: z.boolean().optional(),
  cwd: z.string().min(1).max(4096).optional(),
  tools: z
    .array(z.strictObject({ name, hash: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lower-case hex') }))
    .max(1000),
}) satisfies z.ZodType<Schemas['McpToolsRequest']>;

export const McpToolAcceptSchema = z.strictObject({ server: name, tool: name }) satisfies z.ZodType<
  Schemas['McpToolAccept']
>;

export function registerMcp(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post('/v1/mcp/tools', deps.requireAgent, async (c) => {
    const body = await readJson(c, McpToolsRequestSchema);
    const { changed, refused } = await mcpToolServiceFor(deps.toolgate).report({
      ...body,
      agentId: c.get('identity').name,
    });
    const report: Schemas['McpToolsReport'] = {
      changed: changed.map((t) => ({ name: t.name, previous_hash: t.previousHash, hash: t.hash })),
      refused,
    };
    return c.json(report);
  });

  app.post('/v1/mcp/tools/accept', deps.requireReviewer, async (c) => {
    const body = await readJson(c, McpToolAcceptSchema);
    const outcome = await mcpToolServiceFor(deps.toolgate).accept(body.server, body.tool, c.get('identity').name);
    if (outcome.kind === 'not_found') throw new ProblemError(404, outcome.message);
    const accepted: Schemas['McpToolAccepted'] = {
      server: outcome.record.server,
      tool: outcome.record.tool,
      hash: outcome.record.hash,
    };
    return c.json(accepted);
  });
}
