// The MCP server the agent talks to: lists, resources, prompts and notifications pass through to the upstream
// server unchanged; tools/call goes through toolgate first (call-gate.ts).
import type { Client } from '@modelcontextprotocol/client';
import {
  Server,
  type CallToolResult,
  type ListResourcesResult,
  type ListToolsResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolgateClient } from '../client/index.ts';
import { CallGate, refusal, type CallGateOptions } from './call-gate.ts';
import { definitionHash, type ToolDefinition } from './tool-digest.ts';

/** What a gateway is built from. */
export interface GatewayOptions extends Omit<CallGateOptions, 'sidecar'> {
  upstream: Client;
  sidecar: ToolgateClient;
  /** Refuse a tool whose definition changed until a reviewer accepts it. */
  pin: boolean;
  /** How long a forwarded call may run without progress from the upstream (default 10 minutes). */
  upstreamTimeoutMs?: number;
  /** How often the gateway re-reports its tools, which also tells the sidecar it still runs (default 60 s). */
  heartbeatMs?: number;
}

/** Requests forwarded as they are, when the upstream offers the capability they belong to. */
const PASS_THROUGH: ReadonlyArray<[method: string, capability: keyof ServerCapabilities]> = [
  ['resources/list', 'resources'],
  ['resources/templates/list', 'resources'],
  ['resources/read', 'resources'],
  ['resources/subscribe', 'resources'],
  ['resources/unsubscribe', 'resources'],
  ['prompts/list', 'prompts'],
  ['prompts/get', 'prompts'],
  ['completion/complete', 'completions'],
  ['logging/setLevel', 'logging'],
];

/**
 * The upstream's results are taken as sent (any JSON object): the SDK's own result schemas would drop members
 * they do not know (a vendor's extension of a tool definition), and the gateway must pass them on untouched.
 */
const AS_SENT = z.looseObject({});

/** Notifications from the upstream relayed to the agent. */
const RELAYED_NOTIFICATIONS = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/prompts/list_changed',
  'notifications/message',
] as const;

/** The gateway: its MCP server (connect it to the agent's transport) and a close that ends the upstream too. */
export interface Gateway {
  server: Server;
  close(): Promise<void>;
}

/** Builds the gateway's server in front of a connected upstream client. */
export function createGateway(options: GatewayOptions): Gateway {
  const { upstream, sidecar, server: name, log } = options;
  const capabilities = upstreamCapabilities(upstream.getServerCapabilities() ?? {});
  const info = upstream.getServerVersion() ?? { name, version: '0.0.0' };
  const instructions = upstream.getInstructions();
  const server = new Server(
    { name: info.name, version: info.version },
    { capabilities, ...(instructions ? { instructions } : {}) },
  );
  const gate = new CallGate(options);
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 600_000;
  /** The tools of the last tools/list, by name. */
  let tools = new Map<string, ToolDefinition>();
  let refused = new Set<string>();
  let reported: Promise<void> = Promise.resolve();

  const report = async (list: ToolDefinition[]): Promise<void> => {
    try {
      const answer = await sidecar.reportMcpTools({
        server: name,
        pin: options.pin,
        cwd: options.cwd,
        tools: list.map((t) => ({ name: t.name, hash: definitionHash(t) })),
      });
      for (const change of answer.changed)
        log(
          `tool ${change.name} changed (${change.previous_hash.slice(0, 12)} → ${change.hash.slice(0, 12)})${options.pin ? '; refused until a reviewer accepts it' : ''}`,
        );
      refused = new Set(answer.refused);
    } catch (error) {
      // Calls fail closed on their own when the sidecar is down; a pinned gateway refuses every tool it cannot vouch for.
      log(`could not report the tools to toolgate: ${(error as Error).message}`);
      if (options.pin) refused = new Set(list.map((t) => t.name));
    }
  };

  const listTools = async (
    params: Record<string, unknown> | undefined,
    signal?: AbortSignal,
  ): Promise<ListToolsResult> => {
    const result = (await upstream.request({ method: 'tools/list', params: params ?? {} }, AS_SENT, {
      signal,
    })) as ListToolsResult;
    // Every page adds to what the gateway knows; the first page starts afresh.
    if (!params?.cursor) tools = new Map();
    for (const tool of result.tools) tools.set(tool.name, tool);
    reported = report(result.tools);
    await reported;
    return result;
  };

  server.setRequestHandler('tools/list', (request, ctx) => listTools(request.params, ctx.mcpReq.signal));

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const { name: tool, arguments: args, _meta } = request.params;
    if (tools.size === 0) await listTools(undefined, ctx.mcpReq.signal).catch(() => undefined);
    await reported;
    if (refused.has(tool)) {
      // Perhaps a reviewer accepted it since: ask again before refusing.
      await report([...tools.values()]);
      if (refused.has(tool))
        return refusal(
          `toolgate: the definition of ${tool} changed since it was last accepted, and this gateway is pinned: a reviewer must accept it first (toolgate mcp accept --name ${name} ${tool})`,
        );
    }
    const progressToken = _meta?.progressToken;
    return gate.call(
      {
        name: tool,
        args: args ?? {},
        ...(progressToken !== undefined ? { progressToken } : {}),
        annotations: tools.get(tool)?.annotations as { destructiveHint?: boolean; readOnlyHint?: boolean } | undefined,
        signal: ctx.mcpReq.signal,
        progress: (progress, message, total) =>
          ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: {
              progressToken: progressToken!,
              progress,
              ...(total !== undefined ? { total } : {}),
              ...(message ? { message } : {}),
            },
          }),
      },
      (forwarded, onprogress) =>
        upstream.request({ method: 'tools/call', params: { ...request.params, arguments: forwarded } }, AS_SENT, {
          signal: ctx.mcpReq.signal,
          timeout: upstreamTimeoutMs,
          resetTimeoutOnProgress: true,
          ...(onprogress ? { onprogress } : {}),
        }) as Promise<CallToolResult>,
    );
  });

  for (const [method, capability] of PASS_THROUGH) {
    if (!capabilities[capability]) continue;
    server.setRequestHandler(
      method as 'resources/list',
      (request, ctx) =>
        upstream.request({ method: request.method, params: request.params ?? {} }, AS_SENT, {
          signal: ctx.mcpReq.signal,
        }) as Promise<ListResourcesResult>,
    );
  }
  for (const method of RELAYED_NOTIFICATIONS) {
    upstream.setNotificationHandler(method, async (notification) => {
      if (method === 'notifications/tools/list_changed') tools = new Map();
      await server.notification(notification as Parameters<Server['notification']>[0]).catch(() => undefined);
    });
  }

  // At start the sidecar learns the tools (a change since the last session is audited now, not at the first list)
  // and that this gateway runs here, so the runtime's own toolgate hook defers to it.
  void listTools(undefined).catch((error: Error) => log(`could not list the upstream's tools: ${error.message}`));

  // The sidecar hears from a running gateway every minute: its tools (changes are audited) and that it still runs.
  const heartbeat = setInterval(
    () => void (tools.size > 0 ? report([...tools.values()]) : undefined),
    options.heartbeatMs ?? 60_000,
  );
  heartbeat.unref();

  return {
    server,
    async close() {
      clearInterval(heartbeat);
      await server.close().catch(() => undefined);
      await upstream.close().catch(() => undefined);
    },
  };
}

/** The capabilities the gateway offers: the upstream's, for the features it passes through. */
function upstreamCapabilities(upstream: ServerCapabilities): ServerCapabilities {
  const out: ServerCapabilities = { tools: upstream.tools ?? {} };
  if (upstream.resources) out.resources = upstream.resources;
  if (upstream.prompts) out.prompts = upstream.prompts;
  if (upstream.completions) out.completions = upstream.completions;
  if (upstream.logging) out.logging = upstream.logging;
  return out;
}
