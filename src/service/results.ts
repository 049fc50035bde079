// After-execute: a tool's output runs the plugins' afterExecute chain, is redacted, offloaded when large, and linked to its decision in the audit log.
import { timeOrderedId } from '../store/ids.ts';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../engine/redact.ts';
import { pluginChainOf, type ToolResult } from './plugins.ts';
import { ResultBudget } from './result-budget.ts';
import type { Toolgate } from './toolgate.ts';

/** Where the whole of an offloaded output can be fetched. */
export interface OffloadRef {
  id: string;
  url: string;
  bytes: number;
}

/** What the agent passes on to its model. */
export interface ResultReceipt {
  decisionId: string;
  result: ToolResult;
  bytes: number;
  offloaded: OffloadRef | null;
  redacted: boolean;
  notes: string[];
}

/** An offloaded output as stored in `<data-dir>/results/<id>.json`. */
export interface StoredResult {
  id: string;
  decisionId: string;
  createdAt: string;
  bytes: number;
  isError: boolean;
  output: string;
}

/** The outcome of submitting a result, as a value (the HTTP layer maps it to a status). */
export type SubmitOutcome =
  | { kind: 'ok'; receipt: ResultReceipt }
  | { kind: 'not_found' }
  | { kind: 'conflict'; message: string }
  | { kind: 'too_large'; bytes: number; limit: number }
  | { kind: 'over_budget'; bytes: number; usedBytes: number; budget: number; retryAfterSeconds: number };

/** Result ids are UUIDs; anything else never reaches the file system (no path tricks). */
const RESULT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** How much of an offloaded output stays inline: the head and the tail, at most this many bytes together. */
const PREVIEW_BYTES = 8 * 1024;

/** Accepts tool outputs for decisions and serves offloaded ones. */
export class ResultService {
  private readonly budget: ResultBudget;

  constructor(private readonly toolgate: Toolgate) {
    this.budget = new ResultBudget({ bytesPerToken: toolgate.config.resultBudgetBytes });
  }

  private get dir(): string {
    return join(this.toolgate.config.dataDir, 'results');
  }

  /** Runs the after-execute stages on a result of `decisionId` and records it; `token` names whose budget it takes. */
  async submit(decisionId: string, result: ToolResult, token = 'agent'): Promise<SubmitOutcome> {
    const { store, config } = this.toolgate;
    const submitted = Buffer.byteLength(result.output, 'utf8');
    if (submitted > config.resultMaxBytes) return { kind: 'too_large', bytes: submitted, limit: config.resultMaxBytes };
    const rows = await store.queryAudit({ decisionId, ascending: true, limit: 50 });
    const decision = rows[0];
    if (!decision) return { kind: 'not_found' };
    if (rows.some((r) => r.decision === 'result'))
      return { kind: 'conflict', message: `decision ${decisionId} already has a result` };
    if (rows.some((r) => r.decision === 'deny' || r.decision === 'cancelled'))
      return { kind: 'conflict', message: `decision ${decisionId} did not allow the call, so it has no result` };
    // Secrets are masked before plugins see the output (an audit plugin writes it somewhere) and again after.
    const masked = redactText(result.output);
    const chain = pluginChainOf(this.toolgate);
    const after = chain
      ? await chain.afterExecute(decisionId, { output: masked, is_error: result.is_error })
      : { result: { output: masked, is_error: result.is_error }, notes: [], known: true };
    const notes = [...after.notes];
    if (chain && !after.known)
      notes.push(
        'the plugins that decided this call are no longer known (restart or old decision); their afterExecute did not run',
      );
    const output = redactText(after.result.output);
    const redacted = masked !== result.output || output !== after.result.output;
    const bytes = Buffer.byteLength(output, 'utf8');
    let offloaded: OffloadRef | null = null;
    let inline = output;
    if (bytes > config.offloadThresholdBytes) {
      // Only offloaded outputs stay on disk: those count against the token's daily budget.
      const room = this.budget.take(token, bytes);
      if (!room.ok)
        return {
          kind: 'over_budget',
          bytes,
          usedBytes: room.usedBytes,
          budget: config.resultBudgetBytes,
          retryAfterSeconds: room.retryAfterSeconds,
        };
      const id = timeOrderedId();
      const stored: StoredResult = {
        id,
        decisionId,
        createdAt: new Date().toISOString(),
        bytes,
        isError: after.result.is_error,
        output,
      };
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(join(this.dir, `${id}.json`), JSON.stringify(stored), { mode: 0o600 });
      offloaded = { id, url: `/v1/results/${id}`, bytes };
      inline = preview(output, Math.min(PREVIEW_BYTES, config.offloadThresholdBytes), offloaded);
    }
    await store.appendAudit([
      {
        ts: new Date().toISOString(),
        decision_id: decisionId,
        agent_id: decision.agent_id,
        session_id: decision.session_id,
        tool: decision.tool,
        args: JSON.stringify({
          bytes,
          is_error: after.result.is_error,
          offloaded: offloaded?.id ?? null,
          redacted,
          notes,
        }),
        decision: 'result',
        risk: null,
        source: 'result',
        reason: `tool output of ${bytes} bytes${after.result.is_error ? ' (error)' : ''}${offloaded ? `, offloaded to ${offloaded.url}` : ''}${redacted ? ', secrets redacted' : ''}`,
        rule_id: null,
        approval_id: decision.approval_id,
        mode: null,
        latency_us: null,
        resolved_by: null,
        findings: '[]',
      },
    ]);
    return {
      kind: 'ok',
      receipt: {
        decisionId,
        result: { output: inline, is_error: after.result.is_error },
        bytes,
        offloaded,
        redacted,
        notes,
      },
    };
  }

  /** An offloaded output, or undefined when there is none with that id. */
  get(id: string): StoredResult | undefined {
    if (!RESULT_ID.test(id)) return undefined;
    try {
      return JSON.parse(readFileSync(join(this.dir, `${id}.json`), 'utf8')) as StoredResult;
    } catch {
      return undefined;
    }
  }
}

/** The head and tail of a large output around a marker that says where the rest is. */
export function preview(output: string, budget: number, ref: OffloadRef): string {
  const buffer = Buffer.from(output, 'utf8');
  const headBytes = Math.floor((budget * 3) / 4);
  const tailBytes = budget - headBytes;
  const head = utf8Slice(buffer, 0, headBytes);
  const tail = utf8Slice(buffer, buffer.length - tailBytes, buffer.length);
  return `${head}\n\n[toolgate: output truncated — ${ref.bytes} bytes in all; the whole output is at GET ${ref.url}]\n\n${tail}`;
}

/** Slices bytes without splitting a UTF-8 character (continuation bytes at the edges are dropped). */
function utf8Slice(buffer: Buffer, start: number, end: number): string {
  let s = Math.max(0, start);
  let e = Math.min(buffer.length, end);
  while (s < e && (buffer[s]! & 0xc0) === 0x80) s++;
  if (e < buffer.length) while (e > s && (buffer[e]! & 0xc0) === 0x80) e--;
  return buffer.subarray(s, e).toString('utf8');
}

const services = new WeakMap<Toolgate, ResultService>();

/** The result service of a toolgate (one per instance). */
export function resultServiceFor(toolgate: Toolgate): ResultService {
  let service = services.get(toolgate);
  if (!service) services.set(toolgate, (service = new ResultService(toolgate)));
  return service;
}
