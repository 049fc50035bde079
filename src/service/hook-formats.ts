// Agent runtimes' hook contracts: Claude Code, Codex and Gemini CLI hook inputs to a decide call, and answers to each runtime's output.
import { isAbsolute, resolve } from 'node:path';
import type { Decision } from '../engine/types.ts';

/** The runtimes toolgate answers hooks for. */
export type HookRuntime = 'claude-code' | 'codex' | 'gemini';

export const HOOK_RUNTIMES: readonly HookRuntime[] = ['claude-code', 'codex', 'gemini'];

/**
 * The hook events each runtime may send: PreToolUse / BeforeTool before a tool runs, PermissionRequest when the
 * runtime would prompt, PostToolUse / AfterTool after it ran (recorded as the call's result, answered with no effect).
 */
export const HOOK_EVENTS: Readonly<Record<HookRuntime, readonly string[]>> = {
  'claude-code': ['PreToolUse', 'PermissionRequest', 'PostToolUse'],
  codex: ['PreToolUse', 'PermissionRequest', 'PostToolUse'],
  gemini: ['BeforeTool', 'AfterTool'],
};

/** The events sent after a tool ran: nothing is decided, the output is recorded. */
const AFTER_EVENTS: ReadonlySet<string> = new Set(['PostToolUse', 'AfterTool']);

/** Whether an event comes after the tool ran (PostToolUse, AfterTool). */
export function isAfterEvent(event: string): boolean {
  return AFTER_EVENTS.has(event);
}

/** The fields toolgate reads from a hook input; every runtime sends more, which is ignored. */
export interface HookInput {
  hook_event_name?: string;
  tool_name: string;
  tool_input: unknown;
  session_id?: string;
  cwd?: string;
  tool_use_id?: string;
  agent_id?: string;
  agent_type?: string;
  /** PostToolUse / AfterTool: what the tool answered. */
  tool_response?: unknown;
  /** Gemini CLI, MCP tools: the server and the tool's own name, exact (its `mcp_<server>_<tool>` name is ambiguous). */
  mcp_context?: { server_name?: string; tool_name?: string };
}

/** A hook input as toolgate's decide call. */
export interface HookCall {
  event: string;
  tool: string;
  args: unknown;
  agentId: string;
  sessionId?: string;
  cwd?: string;
  toolCallId?: string;
}

/** toolgate's answer, before it is written in a runtime's format. */
export interface HookAnswer {
  decision: Decision;
  reason: string;
  /** Arguments to run instead of the agent's (a plugin's rewrite or a reviewer's edit). */
  modifiedArgs?: unknown;
  /**
   * toolgate has no opinion (an allow by default: no rule, grant or human, nothing dangerous found): the answer
   * leaves the call to the runtime's own permission checks instead of switching them off with an allow.
   */
  unmatched?: boolean;
}

/** The event a runtime sends when `hook_event_name` is missing (older versions, hand-written tests). */
export function defaultEvent(runtime: HookRuntime): string {
  return runtime === 'gemini' ? 'BeforeTool' : 'PreToolUse';
}

/**
 * Maps a hook input to a decide call. Tool names go through the alias table later (normalize); here only the
 * argument shapes that differ are mapped: Codex's apply_patch carries its patch in `command`, a shell's working
 * directory (`workdir`, Gemini's `dir_path`) overrides the session's cwd, and a Gemini MCP tool is named
 * `mcp__<server>__<tool>` from its `mcp_context` (exact, where its own `mcp_<server>_<tool>` is ambiguous).
 */
export function hookCall(runtime: HookRuntime, input: HookInput): HookCall {
  const event = input.hook_event_name ?? defaultEvent(runtime);
  let args = input.tool_input ?? {};
  const record = isRecord(args) ? args : undefined;
  if (runtime === 'codex' && input.tool_name === 'apply_patch' && record && typeof record.command === 'string') {
    const { command, ...rest } = record;
    args = { ...rest, patch: command };
  }
  const dir =
    record &&
    (typeof record.workdir === 'string'
      ? record.workdir
      : typeof record.dir_path === 'string'
        ? record.dir_path
        : undefined);
  const cwd = dir ? (isAbsolute(dir) || !input.cwd ? dir : resolve(input.cwd, dir)) : input.cwd;
  const subagent = input.agent_id ?? input.agent_type;
  const mcp = runtime === 'gemini' ? input.mcp_context : undefined;
  const tool = mcp?.server_name && mcp.tool_name ? `mcp__${mcp.server_name}__${mcp.tool_name}` : input.tool_name;
  return {
    event,
    tool,
    args,
    agentId: subagent ? `${runtime}:${subagent}` : runtime,
    sessionId: input.session_id || undefined,
    cwd: cwd || undefined,
    toolCallId: input.tool_use_id || undefined,
  };
}

/** Codex's prompt for a host its sandbox's network proxy stopped: `network-access <target>` (tools/network_approval.rs). */
const NETWORK_ACCESS = /^network-access\s+(\S+)\s*$/;

/**
 * The calls a hook input is judged as; the strictest answer wins. Usually one. Codex's network-approval
 * PermissionRequest is a Bash request whose `command` is the command that reached for the host (or
 * `network-access <target>` when none owns it) and whose `description` is `network-access <protocol>://<host>:<port>`:
 * it asks to open a connection to that host, so it is judged as a fetch of it (web_fetch rules and domain checks
 * apply). A real command beside it is judged too — the description alone (a model can write one as its
 * justification) never turns a command into a mere fetch.
 */
export function hookCalls(runtime: HookRuntime, input: HookInput): HookCall[] {
  const call = hookCall(runtime, input);
  const network = runtime === 'codex' && call.event === 'PermissionRequest' ? networkTarget(input) : undefined;
  if (!network) return [call];
  const fetch: HookCall = {
    ...call,
    tool: 'web_fetch',
    args: { url: network.url, codex_network_access: network.target },
  };
  return network.ownerCommand ? [call, fetch] : [fetch];
}

/** The host of a Codex network-access request, as a URL; undefined when the input is not one. */
function networkTarget(input: HookInput): { target: string; url: string; ownerCommand: boolean } | undefined {
  const args = isRecord(input.tool_input) ? input.tool_input : {};
  const command = typeof args.command === 'string' ? args.command : '';
  const description = typeof args.description === 'string' ? args.description : '';
  const byCommand = NETWORK_ACCESS.exec(command)?.[1];
  const target = byCommand ?? NETWORK_ACCESS.exec(description)?.[1];
  if (!target) return undefined;
  return { target, url: targetUrl(target), ownerCommand: byCommand === undefined && command.trim() !== '' };
}

/** `https://host:443` → itself; `http://host:80` → itself; `socks5-tcp://host:1080` and a bare `host[:port]` → `https://host[:port]/`. */
function targetUrl(target: string): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/(.+)$/i.exec(target);
  if (!m) return `https://${target}/`;
  const scheme = m[1]!.toLowerCase() === 'http' ? 'http' : 'https';
  return `${scheme}://${m[2]!.replace(/\/+$/, '')}/`;
}

/** Rewritten arguments in the runtime's own shape (the inverse of hookCall's argument mapping). */
export function runtimeArgs(runtime: HookRuntime, tool: string, args: unknown): unknown {
  if (runtime === 'codex' && tool === 'apply_patch' && isRecord(args) && typeof args.patch === 'string') {
    const { patch, ...rest } = args;
    return { ...rest, command: patch };
  }
  return args;
}

/**
 * Whether an ask can go to the runtime's own prompt. Codex's PreToolUse cannot answer `ask`, so there an ask
 * always waits on toolgate's queue; elsewhere the operator chooses (`hook_ask`).
 */
export function askHandling(
  runtime: HookRuntime,
  event: string,
  configured: 'passthrough' | 'hold',
): 'passthrough' | 'hold' {
  if (runtime === 'codex' && event === 'PreToolUse') return 'hold';
  return configured;
}

/** The runtime's hook output for an answer. Every output is a JSON object (exit 0 for command hooks). */
export function hookOutput(
  runtime: HookRuntime,
  event: string,
  answer: HookAnswer,
  tool = '',
): Record<string, unknown> {
  // After the tool ran there is nothing to decide: `{}` has no effect in any runtime.
  if (isAfterEvent(event)) return {};
  // No opinion: no permissionDecision (Claude Code), `{}` (Codex), no decision (Gemini), no behavior
  // (PermissionRequest): the runtime applies its own permission settings and prompts as it would without toolgate.
  if (
    answer.unmatched &&
    answer.decision === 'allow' &&
    (answer.modifiedArgs === undefined || answer.modifiedArgs === null)
  )
    return {};
  const reason = answer.reason.trim() || `toolgate: ${answer.decision}`;
  const updated =
    answer.modifiedArgs !== undefined && answer.modifiedArgs !== null
      ? runtimeArgs(runtime, tool, answer.modifiedArgs)
      : undefined;
  if (event === 'PermissionRequest') {
    // An ask here means "let the runtime show its own dialog": no decision.
    if (answer.decision === 'ask') return {};
    const decision: Record<string, unknown> =
      answer.decision === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: reason };
    // Codex fails closed on updatedInput in PermissionRequest; only Claude Code accepts it.
    if (answer.decision === 'allow' && updated !== undefined && runtime === 'claude-code')
      decision.updatedInput = updated;
    return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
  }
  if (runtime === 'gemini') {
    const out: Record<string, unknown> = { decision: answer.decision, reason };
    if (updated !== undefined && answer.decision !== 'deny')
      out.hookSpecificOutput = { hookEventName: 'BeforeTool', tool_input: updated };
    return out;
  }
  if (runtime === 'codex') {
    // Codex PreToolUse accepts deny (with a non-empty reason) and allow only together with updatedInput;
    // a plain allow is "no objection", i.e. an empty object.
    if (answer.decision === 'allow') {
      return updated === undefined
        ? {}
        : {
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'allow',
              permissionDecisionReason: reason,
              updatedInput: updated,
            },
          };
    }
    const why =
      answer.decision === 'ask'
        ? `toolgate needs a human to approve this call, and Codex cannot ask from a PreToolUse hook: ${reason}`
        : reason;
    return {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: why },
    };
  }
  const specific: Record<string, unknown> = {
    hookEventName: 'PreToolUse',
    permissionDecision: answer.decision,
    permissionDecisionReason: reason,
  };
  if (updated !== undefined && answer.decision !== 'deny') specific.updatedInput = updated;
  return { hookSpecificOutput: specific };
}

/** The output that blocks a call when toolgate itself cannot answer (the command adapters fail closed with it). */
export function failClosedOutput(runtime: HookRuntime, event: string, reason: string): Record<string, unknown> {
  return hookOutput(runtime, event, {
    decision: 'deny',
    reason: `toolgate could not decide, so the call is blocked: ${reason}`,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
