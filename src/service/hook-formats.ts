// Agent runtimes' hook contracts: Claude Code, Codex and Gemini CLI hook inputs to a decide call, and answers to each runtime's output.
import { isAbsolute, resolve } from 'node:path';
import type { Decision } from '../engine/types.ts';

/** The runtimes toolgate answers hooks for. */
export type HookRuntime = 'claude-code' | 'codex' | 'gemini';

export const HOOK_RUNTIMES: readonly HookRuntime[] = ['claude-code', 'codex', 'gemini'];

/** The hook events each runtime may send (PreToolUse / BeforeTool before a tool runs; PermissionRequest when the runtime would prompt). */
export const HOOK_EVENTS: Readonly<Record<HookRuntime, readonly string[]>> = {
  'claude-code': ['PreToolUse', 'PermissionRequest'],
  codex: ['PreToolUse', 'PermissionRequest'],
  gemini: ['BeforeTool'],
};

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
}

/** The event a runtime sends when `hook_event_name` is missing (older versions, hand-written tests). */
export function defaultEvent(runtime: HookRuntime): string {
  return runtime === 'gemini' ? 'BeforeTool' : 'PreToolUse';
}

/**
 * Maps a hook input to a decide call. Tool names go through the alias table later (normalize); here only the
 * argument shapes that differ are mapped: Codex's apply_patch carries its patch in `command`, and a shell's
 * working directory (`workdir`, Gemini's `dir_path`) overrides the session's cwd.
 */
export function hookCall(runtime: HookRuntime, input: HookInput): HookCall {
  const event = input.hook_event_name ?? defaultEvent(runtime);
  let args = input.tool_input ?? {};
  const record = isRecord(args) ? args : undefined;
  if (runtime === 'codex' && input.tool_name === 'apply_patch' && record && typeof record.command === 'string') {
    const { command, ...rest } = record;
    args = { ...rest, patch: command };
  }
  const dir = record && (typeof record.workdir === 'string' ? record.workdir : typeof record.dir_path === 'string' ? record.dir_path : undefined);
  const cwd = dir ? (isAbsolute(dir) || !input.cwd ? dir : resolve(input.cwd, dir)) : input.cwd;
  const subagent = input.agent_id ?? input.agent_type;
  return {
    event,
    tool: input.tool_name,
    args,
    agentId: subagent ? `${runtime}:${subagent}` : runtime,
    sessionId: input.session_id || undefined,
    cwd: cwd || undefined,
    toolCallId: input.tool_use_id || undefined,
  };
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
export function askHandling(runtime: HookRuntime, event: string, configured: 'passthrough' | 'hold'): 'passthrough' | 'hold' {
  if (runtime === 'codex' && event === 'PreToolUse') return 'hold';
  return configured;
}

/** The runtime's hook output for an answer. Every output is a JSON object (exit 0 for command hooks). */
export function hookOutput(runtime: HookRuntime, event: string, answer: HookAnswer, tool = ''): Record<string, unknown> {
  const reason = answer.reason.trim() || `toolgate: ${answer.decision}`;
  const updated = answer.modifiedArgs !== undefined && answer.modifiedArgs !== null ? runtimeArgs(runtime, tool, answer.modifiedArgs) : undefined;
  if (event === 'PermissionRequest') {
    // An ask here means "let the runtime show its own dialog": no decision.
    if (answer.decision === 'ask') return {};
    const decision: Record<string, unknown> = answer.decision === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: reason };
    // Codex fails closed on updatedInput in PermissionRequest; only Claude Code accepts it.
    if (answer.decision === 'allow' && updated !== undefined && runtime === 'claude-code') decision.updatedInput = updated;
    return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
  }
  if (runtime === 'gemini') {
    const out: Record<string, unknown> = { decision: answer.decision, reason };
    if (updated !== undefined && answer.decision !== 'deny') out.hookSpecificOutput = { hookEventName: 'BeforeTool', tool_input: updated };
    return out;
  }
  if (runtime === 'codex') {
    // Codex PreToolUse accepts deny (with a non-empty reason) and allow only together with updatedInput;
    // a plain allow is "no objection", i.e. an empty object.
    if (answer.decision === 'allow') {
      return updated === undefined ? {} : { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: reason, updatedInput: updated } };
    }
    const why = answer.decision === 'ask' ? `toolgate needs a human to approve this call, and Codex cannot ask from a PreToolUse hook: ${reason}` : reason;
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: why } };
  }
  const specific: Record<string, unknown> = { hookEventName: 'PreToolUse', permissionDecision: answer.decision, permissionDecisionReason: reason };
  if (updated !== undefined && answer.decision !== 'deny') specific.updatedInput = updated;
  return { hookSpecificOutput: specific };
}

/** The output that blocks a call when toolgate itself cannot answer (the command adapters fail closed with it). */
export function failClosedOutput(runtime: HookRuntime, event: string, reason: string): Record<string, unknown> {
  return hookOutput(runtime, event, { decision: 'deny', reason: `toolgate could not decide, so the call is blocked: ${reason}` });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
