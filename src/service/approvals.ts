// The approval queue: opening asks, deduplication, the pending caps, long-poll waiters, expiry, answers and cancels.
import { createHmac, hash } from 'node:crypto';
import { timeOrderedId } from '../store/ids.ts';
import { isPatternError, parsePattern } from '../engine/rules/rule.ts';
import type { Verdict } from '../engine/decide.ts';
import type {
  Approval,
  ApprovalChoice,
  AuditEntry,
  Grant,
  PendingLimits,
  Resolution,
  Store,
  StoreChange,
} from '../store/types.ts';
import type { Rule } from '../engine/rules/rule.ts';
import type { ApprovalEvents } from './events.ts';

/** Options of the approval service. */
export interface ApprovalServiceOptions {
  store: Store;
  events: ApprovalEvents;
  approvalTimeoutMs: number;
  maxPendingPerAgent: number;
  /** Pending approvals one token may hold (default DEFAULT_MAX_PENDING_PER_TOKEN). */
  maxPendingPerToken?: number;
  /** Pending approvals in total (default DEFAULT_MAX_PENDING_TOTAL). */
  maxPendingTotal?: number;
  /** Keys the call digests (callDigest); every replica on one database must use the same. */
  digestKey?: string;
  now?: () => number;
}

/** Default caps beyond the per-agent one: an agent id is whatever the caller declares, a token is who it is. */
export const DEFAULT_MAX_PENDING_PER_TOKEN = 200;
export const DEFAULT_MAX_PENDING_TOTAL = 1000;

/** What a reviewer answers. */
export interface Answer {
  choice: ApprovalChoice;
  feedback?: string;
  rulePattern?: string;
  modifiedArgs?: unknown;
}

/** The outcome of an answer or a cancel, as a value: the HTTP layer maps it to a status. */
export type ResolveOutcome =
  | { kind: 'ok'; approval: Approval; rule?: Rule; grant?: Grant; repeated: boolean }
  | { kind: 'not_found' }
  | { kind: 'conflict'; approval: Approval }
  | { kind: 'invalid'; field: string; message: string };

/** Raised when an agent, a token or the whole queue already has the maximum number of pending approvals. */
export class TooManyPendingError extends Error {
  constructor(
    readonly agentId: string | null,
    readonly limit: number,
    readonly scope: 'agent' | 'token' | 'total' = 'agent',
    readonly token: string | null = null,
  ) {
    super(
      scope === 'agent'
        ? `agent ${agentId ?? '(none)'} already has ${limit} pending approvals; answer or cancel some first`
        : scope === 'token'
          ? `token ${token ?? '(none)'} already has ${limit} pending approvals (across all its agent ids); answer or cancel some first`
          : `toolgate already holds ${limit} pending approvals in total; answer or cancel some first`,
    );
  }
}

/** What opening an approval needs from the decision. */
export interface OpenRequest {
  verdict: Verdict;
  decisionId: string;
  args: unknown;
  toolCallId: string | null;
  suggestedPattern: string | null;
  /**
   * The UNREDACTED call: duplicates are matched on its digest (callDigest), never on the redacted text the verdict
   * carries. Defaults to `verdict.call` (right when the verdict is not redacted).
   */
  call?: CallIdentity;
  /** The name of the token that asked (the per-token cap). */
  token?: string | null;
}

/** What identifies a call for de-duplication. */
export interface CallIdentity {
  tool: string;
  canonicalArgs: string;
  agentId?: string;
  sessionId?: string;
}

/**
 * The identity of a call for de-duplication: tool, canonical (unredacted) arguments, agent and session. A
 * `tool_call_id` is not part of it: the same id with other arguments is another call, and gets its own approval.
 * With a key (the server derives one from the reviewer tokens, which every replica shares) it is an HMAC, so the
 * stored digest cannot confirm a guessed secret to someone who reads only the database.
 */
export function callDigest(call: CallIdentity, key?: string): string {
  const text = JSON.stringify([call.tool, call.canonicalArgs, call.agentId ?? null, call.sessionId ?? null]);
  return key ? createHmac('sha256', key).update(text).digest('hex') : hash('sha256', text, 'hex');
}

/** Terminal statuses never change again. */
export function isTerminal(approval: Approval): boolean {
  return approval.status !== 'pending';
}

/** The decision an approval amounts to: allow when approved, deny when denied/expired/cancelled, null while pending. */
export function approvalDecision(approval: Approval): 'allow' | 'deny' | null {
  if (approval.status === 'pending') return null;
  return approval.status === 'approved' ? 'allow' : 'deny';
}

/**
 * What ends a wait early (the caller went away): an AbortSignal is one; the HTTP fast path passes a lighter
 * object tied to the response's `close` (an AbortController per held poll is ~0.5 KB, 5 MB for 10k waiters).
 */
export interface Cancellation {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** The approval queue. Waiters are woken in-process by the resolve, never by polling the database. */
export class ApprovalService {
  private readonly waiters = new Map<string, Set<Waiter>>();
  /**
   * When each pending approval expires (ms), and the same as a queue sorted by time: one timer for the earliest,
   * not one per approval (a timer and its closure are ~0.5 KB: 5 MB with 10k approvals pending). Answered
   * approvals leave their queue entry behind until its time comes or the queue is compacted.
   */
  private readonly expiries = new Map<string, number>();
  private queue: { id: string; at: number }[] = [];
  /** The queue's head (entries before it are done; dropped in bulk, not one `shift` at a time). */
  private queueStart = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private readonly now: () => number;
  private waiterCount = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: ApprovalServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Rebuilds the expiry schedule for approvals that were pending before a restart (and expires the overdue ones). */
  async start(): Promise<void> {
    this.unsubscribe ??= this.options.store.subscribe((change) => void this.onStoreChange(change));
    for (const approval of await this.options.store.listApprovals({ status: 'pending', limit: 1_000_000 }))
      this.armExpiry(approval);
  }

  /**
   * Opens an approval for an ask, or joins the identical pending one. The store does it atomically (the look-up,
   * the cap counts and the insert), so two identical asks arriving together — at this process or at two replicas —
   * share one approval, and a flood cannot slip past the caps.
   */
  async open(request: OpenRequest): Promise<{ approval: Approval; reused: boolean }> {
    const { verdict } = request;
    const call = verdict.call;
    const agentId = call.agentId ?? null;
    const created = this.now();
    const candidate: Approval = {
      id: timeOrderedId(),
      status: 'pending',
      decisionId: request.decisionId,
      agentId,
      sessionId: call.sessionId ?? null,
      tool: call.tool,
      args: request.args,
      cwd: call.cwd ?? null,
      toolCallId: request.toolCallId,
      dedupeKey: callDigest(request.call ?? call, this.options.digestKey),
      token: request.token ?? null,
      reason: verdict.reason,
      risk: verdict.risk ?? 'medium',
      source: verdict.source,
      findings: verdict.findings,
      suggestedPattern: request.suggestedPattern,
      createdAt: new Date(created).toISOString(),
      expiresAt: new Date(created + this.options.approvalTimeoutMs).toISOString(),
      resolvedAt: null,
      choice: null,
      feedback: null,
      modifiedArgs: null,
      resolvedBy: null,
      rulePattern: null,
    };
    const outcome = await this.options.store.openOrJoinApproval(candidate, this.limits);
    if (outcome.kind === 'capped')
      throw new TooManyPendingError(agentId, outcome.limit, outcome.scope, candidate.token);
    if (outcome.kind === 'joined') return { approval: outcome.approval, reused: true };
    this.armExpiry(outcome.approval);
    this.options.events.emit({ type: 'approval.created', approval: outcome.approval });
    return { approval: outcome.approval, reused: false };
  }

  /** The caps every open is held to. */
  get limits(): PendingLimits {
    return {
      perAgent: this.options.maxPendingPerAgent,
      perToken: this.options.maxPendingPerToken ?? DEFAULT_MAX_PENDING_PER_TOKEN,
      total: this.options.maxPendingTotal ?? DEFAULT_MAX_PENDING_TOTAL,
    };
  }

  /**
   * A change made elsewhere (another replica, another store on the same file): an approval opened there is
   * scheduled to expire here too (whichever replica comes first expires it, once) and announced to this process's
   * SSE clients; one answered there wakes the waiters here. After a reconnect everything waited on is re-read.
   */
  private async onStoreChange(change: StoreChange): Promise<void> {
    if (change.kind === 'policy') return;
    const ids = change.kind === 'approval' ? [change.id] : [...this.waiters.keys()];
    for (const id of ids) {
      const approval = await this.options.store.getApproval(id).catch(() => undefined);
      if (!approval) continue;
      if (!isTerminal(approval)) {
        if (change.kind === 'approval' && !this.expiries.has(id)) {
          this.armExpiry(approval);
          this.options.events.emit({ type: 'approval.created', approval, remote: true });
        }
        continue;
      }
      if (change.kind === 'approval') {
        this.disarmExpiry(id);
        this.options.events.emit({
          type:
            approval.status === 'expired'
              ? 'approval.expired'
              : approval.status === 'cancelled'
                ? 'approval.cancelled'
                : 'approval.resolved',
          approval,
          remote: true,
        });
      }
      const set = this.waiters.get(id);
      if (set) for (const waiter of [...set]) waiter.done(approval);
    }
    if (change.kind === 'resync') {
      // Approvals opened or answered elsewhere while the notifications were not heard: schedule their expiry here.
      for (const approval of await this.options.store
        .listApprovals({ status: 'pending', limit: 1_000_000 })
        .catch(() => []))
        if (!this.expiries.has(approval.id)) this.armExpiry(approval);
    }
  }

  get(id: string): Promise<Approval | undefined> {
    return this.options.store.getApproval(id);
  }

  list(status?: Approval['status'], limit?: number): Promise<Approval[]> {
    return this.options.store.listApprovals({ status, limit });
  }

  /** Number of requests currently held in a long-poll. */
  waiting(): number {
    return this.waiterCount;
  }

  /**
   * Waits up to `ms` for the approval to leave `pending`; returns it at once when terminal.
   * Resolves with the current state when the wait runs out or `signal` aborts.
   */
  async wait(id: string, ms: number, signal?: Cancellation): Promise<Approval | undefined> {
    if (ms <= 0 || signal?.aborted) return this.options.store.getApproval(id);
    // Register before reading: an answer landing between the read and the registration would otherwise
    // go unnoticed until the wait runs out.
    let set = this.waiters.get(id);
    if (!set) this.waiters.set(id, (set = new Set()));
    const waiter = new Waiter(this, id, set, signal);
    set.add(waiter);
    this.waiterCount++;
    const current = await this.options.store.getApproval(id);
    if (!current || isTerminal(current)) waiter.done(current);
    else waiter.hold(ms);
    return waiter.result;
  }

  /** A waiter has ended: forget it (called once per waiter, by Waiter; not for other callers). */
  forget(waiter: Waiter): void {
    waiter.set.delete(waiter);
    if (waiter.set.size === 0 && this.waiters.get(waiter.id) === waiter.set) this.waiters.delete(waiter.id);
    this.waiterCount--;
  }

  /** Answers a pending approval. The first answer wins; the same answer again is idempotent; a different one conflicts. */
  async resolve(id: string, answer: Answer, resolvedBy: string): Promise<ResolveOutcome> {
    const approval = await this.options.store.getApproval(id);
    if (!approval) return { kind: 'not_found' };
    if (isTerminal(approval))
      return sameAnswer(approval, answer) ? { kind: 'ok', approval, repeated: true } : { kind: 'conflict', approval };
    const feedback = answer.feedback?.trim() ? answer.feedback : null;
    if (answer.choice === 'deny_with_feedback' && !feedback)
      return {
        kind: 'invalid',
        field: 'feedback',
        message: 'deny_with_feedback needs a non-empty feedback for the agent',
      };
    const rulePattern =
      answer.choice === 'allow_always' || answer.choice === 'allow_session'
        ? (answer.rulePattern ?? approval.suggestedPattern)
        : null;
    if (answer.choice === 'allow_always' || answer.choice === 'allow_session') {
      if (!rulePattern)
        return {
          kind: 'invalid',
          field: 'rule_pattern',
          message: 'no suggested pattern for this call: give rule_pattern',
        };
      const parsed = parsePattern(rulePattern);
      if (isPatternError(parsed)) return { kind: 'invalid', field: 'rule_pattern', message: parsed.message };
    }
    // Ask rules come before allow rules (docs/rules.md "Order"): a saved allow rule would not stop an ask rule asking.
    if (answer.choice === 'allow_always' && approval.source === 'rule')
      return {
        kind: 'invalid',
        field: 'choice',
        message:
          'an ask rule asked for this call, and ask rules are checked before allow rules, so a saved allow rule would not stop it asking: answer allow_session, or narrow the ask rule',
      };
    if (answer.choice === 'allow_session' && !approval.sessionId)
      return {
        kind: 'invalid',
        field: 'choice',
        message: 'the call carried no session_id, so there is no session to allow: use allow_once or allow_always',
      };
    const approved = answer.choice.startsWith('allow');
    const resolution: Resolution = {
      status: approved ? 'approved' : 'denied',
      choice: answer.choice,
      feedback,
      modifiedArgs: approved ? (answer.modifiedArgs ?? null) : null,
      resolvedBy,
      rulePattern,
      resolvedAt: new Date(this.now()).toISOString(),
    };
    const { changed, approval: stored } = await this.options.store.resolveApproval(id, resolution);
    if (!stored) return { kind: 'not_found' };
    if (!changed)
      return sameAnswer(stored, answer)
        ? { kind: 'ok', approval: stored, repeated: true }
        : { kind: 'conflict', approval: stored };
    let rule: Rule | undefined;
    let grant: Grant | undefined;
    if (answer.choice === 'allow_always')
      rule = await this.options.store.addRule({
        effect: 'allow',
        pattern: rulePattern!,
        createdBy: resolvedBy,
        note: `always allow, from approval ${id}`,
      });
    if (answer.choice === 'allow_session')
      grant = await this.options.store.addGrant({
        sessionId: stored.sessionId!,
        pattern: rulePattern!,
        approvalId: id,
        createdBy: resolvedBy,
        expiresAt: null,
      });
    await this.finish(stored, 'approval.resolved', {
      decision: approved ? 'allow' : 'deny',
      source: 'human',
      reason: `${resolvedBy} answered ${answer.choice}${feedback ? `: ${feedback}` : ''}${rule ? ` (saved rule ${rule.pattern})` : grant ? ` (session grant ${grant.pattern})` : ''}`,
      rule_id: rule?.id ?? null,
      resolved_by: resolvedBy,
    });
    return { kind: 'ok', approval: stored, rule, grant, repeated: false };
  }

  /** The agent gave up on its approval. */
  async cancel(id: string, by: string): Promise<ResolveOutcome> {
    const approval = await this.options.store.getApproval(id);
    if (!approval) return { kind: 'not_found' };
    if (isTerminal(approval))
      return approval.status === 'cancelled'
        ? { kind: 'ok', approval, repeated: true }
        : { kind: 'conflict', approval };
    const { changed, approval: stored } = await this.options.store.resolveApproval(id, {
      status: 'cancelled',
      choice: null,
      feedback: null,
      modifiedArgs: null,
      resolvedBy: by,
      rulePattern: null,
      resolvedAt: new Date(this.now()).toISOString(),
    });
    if (!stored) return { kind: 'not_found' };
    if (!changed)
      return stored.status === 'cancelled'
        ? { kind: 'ok', approval: stored, repeated: true }
        : { kind: 'conflict', approval: stored };
    await this.finish(stored, 'approval.cancelled', {
      decision: 'cancelled',
      source: 'agent',
      reason: `cancelled by ${by}`,
      rule_id: null,
      resolved_by: by,
    });
    return { kind: 'ok', approval: stored, repeated: false };
  }

  /** Answers every held long-poll with the current state and stops the expiry timer (graceful shutdown). */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.expiries.clear();
    this.queue = [];
    this.queueStart = 0;
    for (const [id, set] of [...this.waiters]) {
      const latest = await this.options.store.getApproval(id);
      if (latest) for (const waiter of [...set]) waiter.done(latest);
    }
  }

  private armExpiry(approval: Approval): void {
    const at = Date.parse(approval.expiresAt);
    this.expiries.set(approval.id, at);
    const entry = { id: approval.id, at };
    const last = this.queue[this.queue.length - 1];
    if (!last || last.at <= at)
      this.queue.push(entry); // the usual case: a new approval expires last
    else this.queue.splice(firstAfter(this.queue, this.queueStart, at), 0, entry);
    if (at < this.timerAt) this.schedule();
  }

  /** Sets the one timer for the earliest expiry still pending (stale entries at the head are dropped). */
  private schedule(): void {
    while (
      this.queueStart < this.queue.length &&
      this.expiries.get(this.queue[this.queueStart]!.id) !== this.queue[this.queueStart]!.at
    )
      this.queueStart++;
    if (this.queueStart > 1024 && this.queueStart * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueStart);
      this.queueStart = 0;
    }
    clearTimeout(this.timer);
    const head = this.queue[this.queueStart];
    this.timerAt = head ? head.at : Number.POSITIVE_INFINITY;
    this.timer = undefined;
    if (!head) return;
    // setTimeout caps its delay at ~24.8 days: a longer approval timeout wakes early and schedules again.
    this.timer = setTimeout(() => this.expireDue(), Math.min(Math.max(1, head.at - this.now()), 2 ** 31 - 1));
    this.timer.unref();
  }

  /** Expires every approval whose time has come, then sets the timer for the next. */
  private expireDue(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    while (this.queueStart < this.queue.length && this.queue[this.queueStart]!.at <= now) {
      const { id, at } = this.queue[this.queueStart++]!;
      if (this.expiries.get(id) !== at) continue; // answered meanwhile, or re-armed
      this.expiries.delete(id);
      void this.expire(id);
    }
    this.schedule();
  }

  /** Forgets an approval's expiry (it was answered); compacts the queue when answered entries dominate it. */
  private disarmExpiry(id: string): void {
    this.expiries.delete(id);
    if (this.queue.length - this.queueStart > 2 * this.expiries.size + 64) {
      this.queue = this.queue.slice(this.queueStart).filter((e) => this.expiries.get(e.id) === e.at);
      this.queueStart = 0;
    }
  }

  private async expire(id: string): Promise<void> {
    const pending = await this.options.store.getApproval(id);
    if (!pending || isTerminal(pending)) return;
    if (Date.parse(pending.expiresAt) > this.now()) return this.armExpiry(pending);
    const { changed, approval } = await this.options.store.resolveApproval(id, {
      status: 'expired',
      choice: null,
      feedback: null,
      modifiedArgs: null,
      resolvedBy: null,
      rulePattern: null,
      resolvedAt: new Date(this.now()).toISOString(),
    });
    if (!changed || !approval) return;
    await this.finish(approval, 'approval.expired', {
      decision: 'deny',
      source: 'timeout',
      reason: `no reviewer answered before ${approval.expiresAt}; denied`,
      rule_id: null,
      resolved_by: null,
    });
  }

  /** Writes the audit row, announces the event and wakes the waiters. */
  private async finish(
    approval: Approval,
    type: 'approval.resolved' | 'approval.expired' | 'approval.cancelled',
    row: Pick<AuditEntry, 'decision' | 'source' | 'reason' | 'rule_id' | 'resolved_by'>,
  ): Promise<void> {
    this.disarmExpiry(approval.id);
    await this.options.store.appendAudit([
      {
        ts: approval.resolvedAt ?? new Date(this.now()).toISOString(),
        decision_id: approval.decisionId,
        agent_id: approval.agentId,
        session_id: approval.sessionId,
        tool: approval.tool,
        args: JSON.stringify(approval.args ?? null),
        risk: approval.risk,
        approval_id: approval.id,
        mode: null,
        latency_us: Math.round(
          (Date.parse(approval.resolvedAt ?? new Date().toISOString()) - Date.parse(approval.createdAt)) * 1000,
        ),
        findings: '[]',
        ...row,
      },
    ]);
    this.options.events.emit({ type, approval });
    const set = this.waiters.get(approval.id);
    if (set) for (const waiter of [...set]) waiter.done(approval);
  }
}

/** The index (from `start` on) of the first entry of a time-sorted queue that expires after `at`. */
function firstAfter(queue: readonly { at: number }[], start: number, at: number): number {
  let lo = start;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (queue[mid]!.at <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One held long-poll. A class rather than a nest of closures: 10k of them are held at once, and nothing of the
 * approval is kept while waiting — the end of the wait reads it afresh.
 */
class Waiter {
  readonly result: Promise<Approval | undefined>;
  private settle!: (approval: Approval | undefined) => void;
  private reject!: (error: unknown) => void;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  /** The one function a held wait needs: its timer and its cancellation both call it. */
  private readonly refresh = () =>
    void this.service.get(this.id).then(
      (approval) => this.done(approval),
      (error: unknown) => this.end() && this.reject(error),
    );

  constructor(
    private readonly service: ApprovalService,
    readonly id: string,
    readonly set: Set<Waiter>,
    private readonly signal: Cancellation | undefined,
  ) {
    this.result = new Promise((resolve, reject) => {
      this.settle = resolve;
      this.reject = reject;
    });
  }

  /** Holds until an answer, `ms`, or the cancellation. */
  hold(ms: number): void {
    if (this.settled) return;
    this.timer = setTimeout(this.refresh, ms);
    this.signal?.addEventListener('abort', this.refresh, { once: true });
  }

  /** Ends the wait with this state (the first call wins). */
  done(approval: Approval | undefined): void {
    if (this.end()) this.settle(approval);
  }

  private end(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.refresh);
    this.service.forget(this);
    return true;
  }
}

/** Whether a repeated answer is the one already recorded (then it is idempotent, not a conflict). */
function sameAnswer(approval: Approval, answer: Answer): boolean {
  if (approval.choice !== answer.choice) return false;
  if (
    answer.feedback !== undefined &&
    approval.feedback !== answer.feedback &&
    (approval.feedback ?? '') !== answer.feedback.trim()
  )
    return false;
  return answer.rulePattern === undefined || approval.rulePattern === answer.rulePattern;
}
