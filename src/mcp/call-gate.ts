// tools/call through toolgate: decide, hold an ask while a reviewer answers (with progress, or up to --max-hold), forward what is allowed, record the result.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ToolgateError, type Approval, type DecideResponse, type ToolgateClient } from '../client/index.ts';
import { callDigest } from './tool-digest.ts';

/** What the gate is built from. */
export interface CallGateOptions {
  /** The gateway's --name: policy sees `mcp__<server>__<tool>`. */
  server: string;
  sidecar: ToolgateClient;
  /** The page a reviewer answers on, for the progress message. */
  reviewUrl: (approvalId: string) => string;
  agentId: string;
  sessionId: string;
  cwd: string;
  /** How long a call without a progress token is held for a reviewer before it is answered "call again". */
  maxHoldMs: number;
  /** How often a held call with a progress token hears from the gateway (at most 15 s: clients time out at 60 s). */
  progressIntervalMs: number;
  log: (line: string) => void;
}

/** One incoming tools/call, as the gate needs it. */
export interface GatedCall {
  name: string;
  args: Record<string, unknown>;
  /** Set when the client asked for progress notifications. */
  progressToken?: string | number;
  /** The tool's declared hints (from tools/list). */
  annotations?: { destructiveHint?: boolean; readOnlyHint?: boolean };
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
  /** Sends a progress notification for this request (only called with a progress token). */
  progress: (progress: number, message: string, total?: number) => Promise<void>;
}

/** Runs the allowed call on the upstream server with these arguments; `onProgress` gets the upstream's progress. */
export type Forward = (
  args: Record<string, unknown>,
  onProgress: ((p: { progress: number; total?: number; message?: string }) => void) | undefined,
) => Promise<CallToolResult>;

/** An ask a client was told to retry: the same call again waits on it. */
interface Ticket {
  approvalId: string;
  decisionId: string;
}

/** Decides and holds tools/call requests. */
export class CallGate {
  /** Calls answered "awaiting approval; call again", by call digest. */
  private readonly tickets = new Map<string, Ticket>();
  /** Approvals whose allow_once has been used: one approval runs one call. */
  private readonly consumed = new Set<string>();

  constructor(private readonly options: CallGateOptions) {}

  /** The answer to one tools/call: the upstream's result when allowed, else an isError result saying why. */
  async call(call: GatedCall, forward: Forward): Promise<CallToolResult> {
    const { server } = this.options;
    const digest = callDigest(server, call.name, call.args);
    const state = { sent: 0 };
    try {
      const ticket = this.tickets.get(digest);
      if (ticket) {
        const approval = await this.options.sidecar
          .getApproval(ticket.approvalId, { signal: call.signal })
          .catch((error: unknown) => {
            // An approval the sidecar no longer knows (another database): decide afresh. Anything else fails closed.
            if (error instanceof ToolgateError && error.status === 404) return undefined;
            throw error;
          });
        if (approval && !this.consumed.has(approval.id))
          return await this.settle(call, digest, ticket, approval, forward, state);
        this.tickets.delete(digest);
      }
      const decided = await this.options.sidecar.decide(
        {
          tool: `mcp__${server}__${call.name}`,
          args: call.args,
          agent_id: this.options.agentId,
          session_id: this.options.sessionId,
          cwd: this.options.cwd,
          // A stable id per call: after a gateway restart the same call joins its pending approval in the sidecar.
          tool_call_id: `mcp-${digest.slice(0, 40)}`,
          ...(call.annotations &&
          (call.annotations.destructiveHint !== undefined || call.annotations.readOnlyHint !== undefined)
            ? { tool_annotations: pickHints(call.annotations) }
            : {}),
        },
        { signal: call.signal },
      );
      if (decided.decision === 'allow')
        return await this.run(
          call,
          decided.decision_id,
          (decided.modified_args as Record<string, unknown> | undefined) ?? call.args,
          forward,
          state,
        );
      if (decided.decision === 'deny' || !decided.approval) return refusal(deniedText(decided));
      const opened: Ticket = { approvalId: decided.approval.id, decisionId: decided.decision_id };
      if (this.consumed.has(opened.approvalId))
        return refusal(`toolgate: approval ${opened.approvalId} was already used for this call`);
      this.tickets.set(digest, opened);
      return await this.settle(call, digest, opened, undefined, forward, state);
    } catch (error) {
      if (call.signal.aborted) throw call.signal.reason ?? error;
      // The upstream's own failure (a JSON-RPC error) reaches the agent as it is: the call did run.
      if (error instanceof UpstreamFailure) throw error.cause;
      // Fail closed: whatever went wrong with toolgate, the upstream does not see the call.
      return refusal(`toolgate could not decide, so the call is blocked: ${(error as Error).message}`);
    }
  }

  /** Waits for the approval (as long as the client allows), then runs or refuses the call. */
  private async settle(
    call: GatedCall,
    digest: string,
    ticket: Ticket,
    known: Approval | undefined,
    forward: Forward,
    state: { sent: number },
  ): Promise<CallToolResult> {
    const approval = known?.status !== 'pending' && known ? known : await this.hold(call, ticket, state);
    if (!approval)
      return refusal(
        `toolgate: awaiting approval ${ticket.approvalId}; call again with the same arguments (${this.options.reviewUrl(ticket.approvalId)})`,
      );
    this.tickets.delete(digest);
    switch (approval.status) {
      case 'approved': {
        if (this.consumed.has(approval.id))
          return refusal(`toolgate: approval ${approval.id} was already used for this call`);
        this.consumed.add(approval.id);
        const args = isRecord(approval.modified_args) ? approval.modified_args : call.args;
        return this.run(call, ticket.decisionId, args, forward, state);
      }
      case 'denied':
        return refusal(
          approval.feedback
            ? `${approval.answer_reason ?? 'denied by a reviewer'}\n\nReviewer feedback: ${approval.feedback}`
            : (approval.answer_reason ?? 'denied by a reviewer'),
        );
      case 'expired':
        return refusal(
          `toolgate: approval ${approval.id} expired: no reviewer answered before ${approval.expires_at}; the call was not run`,
        );
      default:
        return refusal(`toolgate: approval ${approval.id} was cancelled; the call was not run`);
    }
  }

  /**
   * Long-polls the approval. With a progress token: until it is answered, a progress notification at every
   * interval. Without one: at most maxHoldMs, then undefined (the approval stays pending for the retry). A client
   * that cancels or closes cancels the approval.
   */
  private async hold(call: GatedCall, ticket: Ticket, state: { sent: number }): Promise<Approval | undefined> {
    const { sidecar, progressIntervalMs, maxHoldMs, reviewUrl } = this.options;
    const deadline = call.progressToken === undefined ? Date.now() + maxHoldMs : Number.POSITIVE_INFINITY;
    const message = `waiting for a reviewer: ${reviewUrl(ticket.approvalId)}`;
    if (call.progressToken !== undefined) await call.progress(++state.sent, message).catch(() => undefined);
    try {
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        const slice = Math.min(progressIntervalMs, left, 60_000);
        const approval = await sidecar.getApproval(ticket.approvalId, {
          wait: slice / 1000,
          signal: AbortSignal.any([call.signal, AbortSignal.timeout(slice + 5_000)]),
        });
        if (approval.status !== 'pending') return approval;
        if (call.progressToken !== undefined) await call.progress(++state.sent, message).catch(() => undefined);
      }
    } catch (error) {
      if (call.signal.aborted) {
        // The client gave up: so does the approval, and the reviewer's queue loses it.
        this.tickets.forEach((t, key) => t.approvalId === ticket.approvalId && this.tickets.delete(key));
        await sidecar
          .cancel(ticket.approvalId)
          .catch((e: Error) => this.options.log(`could not cancel approval ${ticket.approvalId}: ${e.message}`));
      }
      throw error;
    }
  }

  /** Forwards the call, relays the upstream's progress after the gateway's own, and records the result. */
  private async run(
    call: GatedCall,
    decisionId: string,
    args: Record<string, unknown>,
    forward: Forward,
    state: { sent: number },
  ): Promise<CallToolResult> {
    const offset = state.sent;
    // Relayed notices are sent before the result: a client drops progress that arrives after its answer.
    const relayed: Promise<void>[] = [];
    const onProgress =
      call.progressToken === undefined
        ? undefined
        : (p: { progress: number; total?: number; message?: string }) => {
            // Progress must only grow: the upstream's counts start after the gateway's own waiting notices.
            relayed.push(
              call
                .progress(offset + p.progress, p.message ?? '', p.total === undefined ? undefined : offset + p.total)
                .catch(() => undefined),
            );
          };
    let result: CallToolResult;
    try {
      result = await forward(args, onProgress);
      await Promise.all(relayed);
    } catch (error) {
      this.record(decisionId, `the upstream server failed: ${(error as Error).message}`, true);
      throw new UpstreamFailure(error);
    }
    this.record(decisionId, resultText(result), result.isError === true);
    return result;
  }

  /** Records the output through POST /v1/results (redacted, size-limited there); a failure is logged, not fatal: the call has run. */
  private record(decisionId: string, output: string, isError: boolean): void {
    this.options.sidecar
      .submitResult(decisionId, { output, is_error: isError })
      .catch((error: Error) => this.options.log(`could not record the result of ${decisionId}: ${error.message}`));
  }
}

/** An error the upstream server answered a forwarded call with (as opposed to toolgate failing to decide). */
class UpstreamFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('the upstream server failed');
  }
}

/** An isError tool result with one text block: how a refused call reaches the model. */
export function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function deniedText(decided: DecideResponse): string {
  const feedback = decided.feedback ? `\n\nReviewer feedback: ${decided.feedback}` : '';
  return `toolgate denied this call: ${decided.reason}${feedback}`;
}

/** A result's text for the audit log: the text blocks, and the structured content as JSON. */
function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text') parts.push(block.text);
    else parts.push(`[${block.type}]`);
  }
  if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}

function pickHints(a: NonNullable<GatedCall['annotations']>): { destructiveHint?: boolean; readOnlyHint?: boolean } {
  return {
    ...(typeof a.destructiveHint === 'boolean' ? { destructiveHint: a.destructiveHint } : {}),
    ...(typeof a.readOnlyHint === 'boolean' ? { readOnlyHint: a.readOnlyHint } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
