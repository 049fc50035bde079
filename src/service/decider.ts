// The decision service: runs the pipeline on the current policy, opens approvals for asks, writes the audit row.
import { timeOrderedId } from '../store/ids.ts';
import type { EngineContext, Verdict } from '../engine/decide.ts';
import { containsSecret } from '../engine/redact.ts';
import { suggestPattern } from '../engine/suggest.ts';
import type { ToolAnnotations } from '../engine/normalize.ts';
import type { Mode } from '../engine/types.ts';
import type { Approval, AuditEntry, Store } from '../store/types.ts';
import { approvalDecision, TooManyPendingError, type ApprovalService, type Cancellation } from './approvals.ts';
import type { PolicySource } from './policy-source.ts';
import { argsJsonOf, VerdictCache, type Recorded } from './verdict-cache.ts';
import { SessionFiles } from './session-files.ts';
import { storedArgs } from './stored-args.ts';

/** One decide request, as the HTTP layer (or a hook adapter) passes it. */
export interface DecideInput {
  tool: string;
  args: unknown;
  agentId?: string;
  sessionId?: string;
  cwd?: string;
  mode?: Mode;
  interactive?: boolean;
  toolCallId?: string;
  /** An MCP tool's behaviour hints (the MCP gateway sends them): they may raise the risk, never lower it. */
  annotations?: ToolAnnotations;
  /** Seconds to hold the request for a human answer (decide-and-wait). */
  waitSeconds?: number;
  explain?: boolean;
  /**
   * Ends a decide-and-wait early (the caller went away); an AbortSignal is one. A function when making it costs
   * something (a web Request for Hono's signal): it is called only when the request waits.
   */
  signal?: Cancellation | (() => Cancellation);
  /** The agent's home, when its hook sent one (x-toolgate-agent-home, `agent_home`): its credentials are protected too. */
  agentHome?: string;
  /** The agent's runtime asks its own user (a hook passing `ask` through): an ask opens no approval here. */
  delegateAsk?: boolean;
  /** The name of the caller's token: the pending cap counts per token (an agent id is only declared). */
  token?: string;
}

/** The final answer to a decide request. */
export interface DecideOutcome {
  decisionId: string;
  verdict: Verdict;
  /** The approval an ask opened (or the identical pending one). */
  approval?: Approval;
  /** When a human (or the expiry) answered during decide-and-wait. */
  answered?: {
    decision: 'allow' | 'deny';
    source: 'human' | 'timeout';
    reason: string;
    feedback: string | null;
    modifiedArgs: unknown;
  };
  latencyUs: number;
  /** Arguments an extension stage rewrote (returned to the agent as `modified_args`). */
  modifiedArgs?: unknown;
  /** Time spent committing the audit row (grouped commit included), in microseconds. */
  auditUs?: number;
  /**
   * The verdict is the verdict cache's own object, which every identical call gets back (never changed): what is
   * derived from it alone may be kept with it (the answer's JSON, routes/decide.ts).
   */
  cached?: boolean;
}

/** Told about every decision once its audit row is committed (metrics); must not throw or block. */
export type DecidedListener = (outcome: DecideOutcome) => void;

/** A verdict as extension stages pass it along: possibly with rewritten arguments. */
export type StageVerdict = Verdict & { modifiedArgs?: unknown };

/** What a stage knows about the decision besides the request (the id links a later result to it). */
export interface StageContext {
  decisionId: string;
}

/** A step that may change the verdict after the built-in stages (extension hooks). */
export type VerdictStage = (
  verdict: StageVerdict,
  input: DecideInput,
  context: StageContext,
) => StageVerdict | Promise<StageVerdict>;

/** What the decision service is built from. */
export interface DeciderDeps {
  store: Store;
  policy: PolicySource;
  engine: EngineContext;
  approvals: ApprovalService;
  /** Masks secrets in arguments before they are stored or shown; gives the masked value and its JSON. */
  redact: (args: unknown, json?: string) => { value: unknown; json: string };
  /** Extension stages, run in order after the pipeline. */
  stages?: VerdictStage[];
  /** The most of a call's masked arguments (JSON bytes) an audit row keeps (stored-args.ts); default: all. */
  auditArgsMaxBytes?: number;
  /** The lines of `<cwd>/.gitignore` for a shell command that may delete (project-gitignore.ts); none without it. */
  gitignore?: (cwd: string, command: string) => readonly string[] | undefined;
  /** Whether a remote URL in the git config of the repository `cwd` is in holds a credential (project-git-remotes.ts). */
  remoteCredentials?: (cwd: string, command: string) => boolean;
}

/** Decides calls and records them. */
export class Decider {
  private readonly listeners: DecidedListener[] = [];

  /** Repeated calls skip the pipeline (see verdict-cache.ts for what invalidates a verdict). */
  private readonly verdicts: VerdictCache;

  /** Scripts each session wrote with file tools: running one later is judged by its contents (session-files.ts). */
  private readonly files = new SessionFiles();

  constructor(private readonly deps: DeciderDeps) {
    this.verdicts = new VerdictCache(deps.engine);
  }

  /** The project's .gitignore for a shell command (its ignored directories may be deleted as build output). */
  private gitignoreFor(input: DecideInput): readonly string[] | undefined {
    const command = (input.args as { command?: unknown } | null | undefined)?.command;
    if (!this.deps.gitignore || input.cwd === undefined || typeof command !== 'string') return undefined;
    return this.deps.gitignore(input.cwd, command);
  }

  /** Whether printing a remote's URL prints a credential, for a shell command in a repository (project-git-remotes.ts). */
  private remoteCredentialsFor(input: DecideInput): boolean {
    const command = (input.args as { command?: unknown } | null | undefined)?.command;
    if (!this.deps.remoteCredentials || input.cwd === undefined || typeof command !== 'string') return false;
    return this.deps.remoteCredentials(input.cwd, command);
  }

  /** Subscribes to committed decisions (before any decide-and-wait); returns the function that unsubscribes. */
  onDecided(listener: DecidedListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Decides, opens an approval for an ask, commits the audit row, and optionally waits for the human. */
  async decide(input: DecideInput): Promise<DecideOutcome> {
    const started = performance.now();
    const policy = await this.deps.policy.current();
    const call = {
      tool: input.tool,
      args: input.args,
      agentId: input.agentId,
      sessionId: input.sessionId,
      cwd: input.cwd,
      ...(input.annotations ? { annotations: input.annotations } : {}),
    };
    const files = this.files.filesFor(call, this.deps.engine.aliases);
    const gitignore = this.gitignoreFor(input);
    // The arguments' JSON, made once: the verdict cache's key and the audit row's masked copy both start from it.
    const argsJson = argsJsonOf(input.args);
    const remoteCredentials = this.remoteCredentialsFor(input);
    let verdict: StageVerdict = this.verdicts.decide(
      {
        call,
        mode: input.mode,
        interactive: input.interactive,
        explain: input.explain,
        ...(files ? { files } : {}),
        ...(input.agentHome ? { agentHome: input.agentHome } : {}),
        ...(gitignore ? { gitignore } : {}),
        ...(remoteCredentials ? { remoteCredentials } : {}),
      },
      policy,
      argsJson,
    );
    // A file tool's write that may happen (allowed, or asked and perhaps approved) is remembered for later runs.
    if (verdict.decision !== 'deny') this.files.record(verdict.call, input.args, this.deps.engine.home);
    const decisionId = timeOrderedId();
    for (const stage of this.deps.stages ?? []) verdict = await stage(verdict, input, { decisionId });
    // What is stored and shown to reviewers: args, reason, findings and the dedupe key masked.
    const recorded = this.verdicts.record(verdict, input.args, this.deps.redact, argsJson);
    let approval: Approval | undefined;
    if (verdict.decision === 'ask' && !input.delegateAsk) {
      const suggested =
        suggestPattern(verdict.call, verdict.analysis, this.deps.engine.analyzer, this.deps.engine.home) ?? null;
      // A pattern built from a secret would store it, and a masked one would match nothing: offer none.
      const suggestedPattern = suggested !== null && containsSecret(suggested) ? null : suggested;
      try {
        // Duplicates are matched on the unredacted call (verdict.call), never on the masked text stored for reviewers.
        approval = (
          await this.deps.approvals.open({
            verdict: recorded.verdict,
            decisionId,
            args: recorded.args,
            toolCallId: input.toolCallId ?? null,
            suggestedPattern,
            call: verdict.call,
            token: input.token ?? null,
          })
        ).approval;
      } catch (error) {
        if (!(error instanceof TooManyPendingError)) throw error;
        // The decision stands (ask) but no approval could be queued: it is logged all the same, then refused.
        const latencyUs = microsSince(started);
        await this.deps.store.appendAudit([
          auditEntry(
            decisionId,
            {
              ...recorded,
              verdict: { ...recorded.verdict, reason: `${recorded.verdict.reason} (not queued: ${error.message})` },
            },
            undefined,
            latencyUs,
            this.deps.auditArgsMaxBytes,
          ),
        ]);
        throw new QueueFullError(error, { decisionId, verdict, latencyUs, auditUs: 0 });
      }
    }
    const latencyUs = microsSince(started);
    const auditStarted = performance.now();
    await this.deps.store.appendAudit([
      auditEntry(decisionId, recorded, approval, latencyUs, this.deps.auditArgsMaxBytes),
    ]);
    const outcome: DecideOutcome = { decisionId, verdict, approval, latencyUs, auditUs: microsSince(auditStarted) };
    if (verdict.modifiedArgs !== undefined) outcome.modifiedArgs = verdict.modifiedArgs;
    if (this.verdicts.holds(verdict)) outcome.cached = true;
    for (const listener of this.listeners) listener(outcome);
    if (approval && input.waitSeconds && input.waitSeconds > 0) {
      const signal = typeof input.signal === 'function' ? input.signal() : input.signal;
      const latest = await this.deps.approvals.wait(approval.id, input.waitSeconds * 1000, signal);
      if (latest) {
        outcome.approval = latest;
        const decision = approvalDecision(latest);
        if (decision)
          outcome.answered = {
            decision,
            source: latest.status === 'expired' ? 'timeout' : 'human',
            reason: answeredReason(latest),
            feedback: latest.feedback,
            modifiedArgs: latest.modifiedArgs,
          };
      }
    }
    return outcome;
  }
}

/** An ask that could not be queued (the agent's pending cap): it carries the decision, which is in the audit log. */
export class QueueFullError extends TooManyPendingError {
  constructor(
    cause: TooManyPendingError,
    readonly outcome: DecideOutcome,
  ) {
    super(cause.agentId, cause.limit, cause.scope, cause.token);
  }
}

/** The reason an agent reads for a human's (or the clock's) answer. */
export function answeredReason(approval: Approval): string {
  switch (approval.status) {
    case 'approved':
      return `approved by ${approval.resolvedBy ?? 'a reviewer'} (${approval.choice})`;
    case 'denied':
      return approval.feedback
        ? `denied by ${approval.resolvedBy ?? 'a reviewer'}: ${approval.feedback}`
        : `denied by ${approval.resolvedBy ?? 'a reviewer'}`;
    case 'expired':
      return `no reviewer answered before ${approval.expiresAt}; denied`;
    case 'cancelled':
      return 'cancelled by the agent';
    default:
      return 'waiting for a reviewer';
  }
}

function auditEntry(
  decisionId: string,
  recorded: Recorded,
  approval: Approval | undefined,
  latencyUs: number,
  argsMaxBytes = Number.POSITIVE_INFINITY,
): AuditEntry {
  const { verdict } = recorded;
  return {
    ts: isoNow(),
    decision_id: decisionId,
    agent_id: verdict.call.agentId ?? null,
    session_id: verdict.call.sessionId ?? null,
    tool: verdict.call.tool,
    args: storedArgs(recorded.argsJson, argsMaxBytes),
    decision: verdict.decision,
    risk: verdict.risk,
    source: verdict.source,
    reason: verdict.reason,
    rule_id: verdict.rule?.id ?? null,
    approval_id: approval?.id ?? null,
    mode: verdict.mode,
    latency_us: latencyUs,
    resolved_by: null,
    findings: recorded.findingsJson,
  };
}

/** The last millisecond an audit time was made for, and its ISO text. */
let isoMs = Number.NaN;
let isoText = '';

/**
 * `new Date().toISOString()`, made once per millisecond: under load dozens of decisions share one, and a Date and
 * its formatting per row was ~2 % of a unique call's CPU (bench/profile.ts).
 */
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

/** Whole microseconds since a `performance.now()` reading. */
function microsSince(started: number): number {
  return Math.round((performance.now() - started) * 1000);
}
