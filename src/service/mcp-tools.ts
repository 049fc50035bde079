// What the sidecar keeps for MCP gateways: each gated server's tool definitions (a changed one is audited as
// tool_changed, and refused on a pinned server until a reviewer accepts it), and which gateways run where (so the
// runtime's own toolgate hook defers to the gateway instead of asking a second time).
import { timeOrderedId } from '../store/ids.ts';
import type { AuditEntry, McpToolRecord } from '../store/types.ts';
import type { Toolgate } from './toolgate.ts';

/** One tool as a gateway reports it: its name and the sha256 of its definition. */
export interface ReportedTool {
  name: string;
  hash: string;
}

/** A gateway's report. */
export interface ToolReport {
  server: string;
  tools: ReportedTool[];
  pin?: boolean;
  /** Where the gateway runs (its working directory): hook calls from there or below defer to it. */
  cwd?: string;
  agentId?: string;
}

/** A tool whose definition differs from the last one seen. */
export interface ToolChange {
  name: string;
  previousHash: string;
  hash: string;
}

/** The outcome of accepting a pinned tool's new definition, as a value (the HTTP layer maps it to a status). */
export type AcceptOutcome = { kind: 'ok'; record: McpToolRecord } | { kind: 'not_found'; message: string };

/** How long a gateway's report vouches that it is running (it reports again every minute). */
export const GATEWAY_LEASE_MS = 150_000;

/** The policy name of a gateway's tool. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** Tool definitions and running gateways. */
export class McpToolService {
  /** server → gateway working directory → lease end (ms). */
  private readonly gateways = new Map<string, Map<string, number>>();

  constructor(
    private readonly toolgate: Toolgate,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a gateway's tools: new ones are remembered, changed ones audited; returns the changes and (pinned) the refused. */
  async report(report: ToolReport): Promise<{ changed: ToolChange[]; refused: string[] }> {
    const { store } = this.toolgate;
    if (report.cwd) this.lease(report.server, report.cwd);
    const known = new Map((await store.mcpTools(report.server)).map((r) => [r.tool, r]));
    const at = new Date(this.now()).toISOString();
    const changed: ToolChange[] = [];
    const refused: string[] = [];
    const audit: AuditEntry[] = [];
    for (const tool of report.tools) {
      const record = known.get(tool.name);
      if (!record) {
        await store.saveMcpTool({
          server: report.server,
          tool: tool.name,
          hash: tool.hash,
          pendingHash: null,
          firstSeenAt: at,
          changedAt: null,
        });
        continue;
      }
      if (record.hash === tool.hash) {
        // Back to the accepted definition: nothing waits for a reviewer any more.
        if (record.pendingHash !== null) await store.saveMcpTool({ ...record, pendingHash: null });
        continue;
      }
      const previousHash = record.pendingHash ?? record.hash;
      if (previousHash !== tool.hash) {
        changed.push({ name: tool.name, previousHash, hash: tool.hash });
        audit.push(
          toolAudit(
            report,
            tool.name,
            'tool_changed',
            at,
            { previous_hash: previousHash, hash: tool.hash, accepted_hash: record.hash, pinned: report.pin === true },
            `the definition of ${mcpToolName(report.server, tool.name)} changed (${short(previousHash)} → ${short(tool.hash)})${report.pin ? '; refused until a reviewer accepts it' : ''}`,
          ),
        );
      }
      if (report.pin) {
        refused.push(tool.name);
        if (record.pendingHash !== tool.hash)
          await store.saveMcpTool({ ...record, pendingHash: tool.hash, changedAt: at });
      } else {
        await store.saveMcpTool({ ...record, hash: tool.hash, pendingHash: null, changedAt: at });
      }
    }
    if (audit.length > 0) await store.appendAudit(audit);
    return { changed, refused };
  }

  /** A reviewer accepts a pinned tool's changed definition. */
  async accept(server: string, tool: string, reviewer: string | null): Promise<AcceptOutcome> {
    const record = (await this.toolgate.store.mcpTools(server)).find((r) => r.tool === tool);
    if (!record) return { kind: 'not_found', message: `no tool ${tool} of MCP server ${server} has been seen` };
    if (record.pendingHash === null) return { kind: 'ok', record };
    const at = new Date(this.now()).toISOString();
    const accepted: McpToolRecord = { ...record, hash: record.pendingHash, pendingHash: null, changedAt: at };
    await this.toolgate.store.saveMcpTool(accepted);
    await this.toolgate.store.appendAudit([
      {
        ...toolAudit(
          { server },
          tool,
          'tool_accepted',
          at,
          { previous_hash: record.hash, hash: accepted.hash },
          `${reviewer ?? 'a reviewer'} accepted the new definition of ${mcpToolName(server, tool)} (${short(accepted.hash)})`,
        ),
        resolved_by: reviewer,
      },
    ]);
    return { kind: 'ok', record: accepted };
  }

  /**
   * The gateway that gates this tool for a call made in `cwd`, if one is running: `mcp__<server>__<tool>` (or
   * Gemini CLI's `mcp_<server>_<tool>`) of a server whose gateway reported from `cwd` or a directory above it.
   */
  gatewayFor(tool: string, cwd: string | undefined): string | undefined {
    if (!cwd || this.gateways.size === 0 || !tool.startsWith('mcp_')) return undefined;
    const now = this.now();
    for (const [server, places] of this.gateways) {
      if (!tool.startsWith(`mcp__${server}__`) && !tool.startsWith(`mcp_${server}_`)) continue;
      for (const [dir, until] of places) {
        if (until <= now) places.delete(dir);
        else if (cwd === dir || cwd.startsWith(dir.endsWith('/') ? dir : `${dir}/`)) return server;
      }
    }
    return undefined;
  }

  private lease(server: string, cwd: string): void {
    let places = this.gateways.get(server);
    if (!places) this.gateways.set(server, (places = new Map()));
    places.set(cwd.replace(/(.)\/+$/, '$1'), this.now() + GATEWAY_LEASE_MS);
  }
}

function toolAudit(
  report: Pick<ToolReport, 'server' | 'agentId'>,
  tool: string,
  decision: 'tool_changed' | 'tool_accepted',
  ts: string,
  args: Record<string, unknown>,
  reason: string,
): AuditEntry {
  return {
    ts,
    decision_id: timeOrderedId(),
    agent_id: report.agentId ?? null,
    session_id: null,
    tool: mcpToolName(report.server, tool),
    args: JSON.stringify({ server: report.server, tool, ...args }),
    decision,
    risk: null,
    source: 'mcp',
    reason,
    rule_id: null,
    approval_id: null,
    mode: null,
    latency_us: null,
    resolved_by: null,
    findings: '[]',
  };
}

function short(hash: string): string {
  return hash.slice(0, 12);
}

const services = new WeakMap<Toolgate, McpToolService>();

/** The MCP tool service of a toolgate (one per instance). */
export function mcpToolServiceFor(toolgate: Toolgate): McpToolService {
  let service = services.get(toolgate);
  if (!service) services.set(toolgate, (service = new McpToolService(toolgate)));
  return service;
}
