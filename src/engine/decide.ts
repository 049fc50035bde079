// The decision pipeline (docs/design.md, "The pipeline"): a pure, synchronous function over a compiled policy snapshot.
import type { AliasIndex } from './catalog/tool-aliases.ts';
import { effectiveMode, type EffectiveMode } from './modes.ts';
import { normalizeCall, type NormalizedCall, type ToolCall } from './normalize.ts';
import { protectedPathFor, protectedShellPath, type PathContext, type ProtectedHit } from './protected-paths.ts';
import type { MatchSubject } from './rules/matcher.ts';
import type { MatchScope, Policy } from './rules/policy.ts';
import type { ShellAnalyzer } from './shell/analyzer.ts';
import type { ShellAnalysis } from './shell/types.ts';
import { Trace, type TraceStep } from './trace.ts';
import { analyzeCall, callFindings } from './call-findings.ts';
import { allowCoverage, askRuleFor, callSubjects, denyRuleFor, ruleRef, triedRules } from './rule-stages.ts';
import {
  highestRisk,
  type Decision,
  type DecisionSource,
  type Effect,
  type Finding,
  type Mode,
  type Risk,
} from './types.ts';

/** Everything the pipeline needs besides the policy: fixed for the life of the server. */
export interface EngineContext {
  operatorMode: Mode;
  /** How a non-interactive ask resolves. */
  askFallback: 'deny' | 'allow';
  home: string;
  dataDir?: string;
  extraProtected?: string[];
  aliases: AliasIndex;
  analyzer: ShellAnalyzer;
  /** Resolves symlinks where the path exists (injected: the engine does no I/O). */
  realpath?: (path: string) => string | undefined;
  /** Unknown tools that count as read-only in `read_only` mode. */
  readOnlyTools?: readonly string[];
}

/** One request to decide. */
export interface DecideRequest {
  call: ToolCall;
  /** A mode the request asks for; applied only where it is stricter than the operator's. */
  mode?: Mode;
  /** False when no human can answer: an ask resolves with the operator's `askFallback`. */
  interactive?: boolean;
  explain?: boolean;
  now?: number;
  /**
   * Files the agent wrote earlier in its session with file tools (absolute path → contents, as the service
   * remembers them): a shell command that runs one is judged by what it contains.
   */
  files?: ReadonlyMap<string, string>;
  /**
   * The agent's home when it runs elsewhere than the sidecar (sent by its hook): its credential places are protected
   * as well as the sidecar's. An absolute path (the HTTP layer validates it).
   */
  agentHome?: string;
  /** The lines of `<cwd>/.gitignore` as the service read them: directories it ignores count as disposable output. */
  gitignore?: readonly string[];
  /** The service found a credential in a remote URL of the project's git config: printing the URL is a secret read. */
  remoteCredentials?: boolean;
}

/** The rule that decided, as reported to the agent. */
export interface RuleRef {
  id: string;
  pattern: string;
  effect: Effect;
}

/** The pipeline's answer. */
export interface Verdict {
  decision: Decision;
  reason: string;
  risk: Risk | null;
  source: DecisionSource;
  rule?: RuleRef;
  findings: Finding[];
  /** The effective mode's name. */
  mode: string;
  /** True when the verdict is an ask that a human should answer (not resolved by mode or fallback). */
  needsHuman: boolean;
  call: NormalizedCall;
  analysis?: ShellAnalysis;
  trace?: TraceStep[];
}

const NO_SUBJECTS: readonly MatchSubject[] = [];

/**
 * Findings of a command printing a secret, denied as a protected read is ("printing a secret is reading it"): one a
 * tool keeps in a protected file or a secret store (`gh auth token`, `sops -d`, `pass show`), one held in an
 * environment variable (`echo $AWS_SECRET_ACCESS_KEY`, `env | grep TOKEN`, `echo "t: $(gh auth token)"`).
 */
const DENIED_PRINTS: ReadonlySet<string> = new Set([
  'secret-file-print',
  'secret-variable-print',
  'git-remote-credential-print',
]);

/** What a stage decided: the verdict's own fields (a stage that names no rule leaves `rule` out). */
type Outcome = Pick<Verdict, 'decision' | 'reason' | 'risk' | 'source' | 'rule'>;

/** The fields every verdict of one decision shares. */
interface Shared {
  findings: Finding[];
  mode: string;
  call: NormalizedCall;
  analysis: ShellAnalysis | undefined;
  trace: Trace | undefined;
}

/**
 * The verdict: fields copied one by one (two object spreads cost more than the rest of an allow), the same keys
 * in the same order as the outcome's, `rule` only when the stage gave one.
 */
function verdictOf(o: Outcome, s: Shared, needsHuman: boolean): Verdict {
  const trace = s.trace?.steps;
  return 'rule' in o
    ? {
        decision: o.decision,
        reason: o.reason,
        risk: o.risk,
        source: o.source,
        rule: o.rule,
        findings: s.findings,
        mode: s.mode,
        call: s.call,
        analysis: s.analysis,
        needsHuman,
        trace,
      }
    : {
        decision: o.decision,
        reason: o.reason,
        risk: o.risk,
        source: o.source,
        findings: s.findings,
        mode: s.mode,
        call: s.call,
        analysis: s.analysis,
        needsHuman,
        trace,
      };
}

/** An ask before the mode resolves it. */
export interface Ask {
  reason: string;
  risk: Risk;
  source: DecisionSource;
  rule?: RuleRef;
  /** Asks that no mode may turn into an allow (a path that may reach a protected one). */
  hard?: boolean;
}

/** Decides one call. Pure and synchronous: the same inputs give the same verdict. */
export function decide(request: DecideRequest, policy: Policy, ctx: EngineContext): Verdict {
  const now = request.now ?? Date.now();
  // Without explain there is no trace: `trace?.add(…)` then evaluates none of its arguments.
  const trace = request.explain === true ? new Trace() : undefined;
  const mode = effectiveMode(ctx.operatorMode, request.mode);
  const call = normalizeCall(request.call, ctx.aliases);
  const analysis = analyzeCall(request, call, ctx);
  const findings = callFindings(request, call, analysis, ctx);
  trace?.add(
    'normalize',
    'passed',
    `tool ${call.rawTool} → ${call.tool}${call.command !== undefined ? `; ${analysis?.commands.length ?? 0} simple command(s), ${findings.length} finding(s)${findings.length ? `: ${findings.map((f) => f.id).join(', ')}` : ''}` : `; paths: ${call.paths.join(', ') || 'none'}`}`,
  );
  const scope: MatchScope = { agentId: call.agentId, sessionId: call.sessionId, now };
  const shared: Shared = { findings, mode: mode.name, call, analysis, trace };
  const verdict = (v: Outcome, needsHuman = false): Verdict => verdictOf(v, shared, needsHuman);

  const hit = protectedHitFor(call, analysis, ctx, request.agentHome);
  if (hit?.certain) {
    trace?.add('protected_path', 'decided', `${hit.path}: ${hit.reason}`);
    return verdict({
      decision: 'deny',
      reason: `${hit.path} is a protected path (${hit.reason}); no rule or mode can allow it`,
      risk: 'high',
      source: 'protected_path',
    });
  }
  // Printing a secret a tool keeps in a protected file is reading that file (catalog/secret-printers.ts).
  const printed = findings.find((f) => DENIED_PRINTS.has(f.id));
  if (printed) {
    trace?.add('protected_path', 'decided', `${printed.command ?? ''}: ${printed.reason}`);
    return verdict({
      decision: 'deny',
      reason: `${printed.command ?? 'the command'} ${printed.reason}; no rule or mode can allow it`,
      risk: 'high',
      source: 'protected_path',
    });
  }
  trace?.add(
    'protected_path',
    'passed',
    hit ? `${hit.path} may reach a protected path (${hit.reason})` : 'no protected path touched',
  );

  // A non-shell call's paths (or URL, or arguments) as the rule stages match them, resolved once for all three.
  const subjects = analysis ? NO_SUBJECTS : callSubjects(call, ctx);
  const denied = denyRuleFor(call, analysis, subjects, policy, scope);
  if (denied) {
    trace?.add('deny_rules', 'decided', `matched ${denied.rule.pattern}`);
    return verdict({
      decision: 'deny',
      reason: `denied by rule ${denied.rule.pattern}`,
      risk: denied.rule.risk ?? 'high',
      source: 'rule',
      rule: ruleRef(denied),
    });
  }
  trace?.add('deny_rules', 'passed', `no deny rule matched${triedRules(policy, 'deny')}`);

  if (mode.flags.readOnly && isWrite(call, analysis, ctx)) {
    trace?.add('read_only', 'decided', 'the call writes');
    return verdict({
      decision: 'deny',
      reason: `mode ${mode.name} denies writes, and this ${call.tool} call is not known to be read-only`,
      risk: 'medium',
      source: 'mode',
    });
  }
  trace?.add(
    'read_only',
    mode.flags.readOnly ? 'passed' : 'skipped',
    mode.flags.readOnly ? 'the call is read-only' : 'not in read_only mode',
  );

  // Claude Code's order: deny, then ask, then allow — an ask rule asks even when an allow rule matches too. Only a
  // session grant (a reviewer's own answer to an ask, for this session) comes before the ask rules.
  const coverage = allowCoverage(call, analysis, subjects, policy, scope);
  const asked = hit
    ? protectedAsk(hit)
    : askRuleFor(call, analysis, subjects, coverage.grantedTexts, coverage.grantedAll, policy, scope, trace);
  if (asked) return resolveAsk(asked, mode, request, verdict, trace, ctx);

  const uncoveredFindings = findings.filter((f) => !coverage.coveredTexts.has(f.command ?? ''));
  if (coverage.all) {
    const first = coverage.rules[0]!;
    const source: DecisionSource = coverage.rules.every((r) => r.rule.origin === 'grant') ? 'session_grant' : 'rule';
    trace?.add('allow_rules', 'decided', `covered by ${coverage.rules.map((r) => r.rule.pattern).join(', ')}`);
    const suppressed = findings.length > 0 ? `; it suppresses ${findings.map((f) => f.id).join(', ')}` : '';
    return verdict({
      decision: 'allow',
      reason: `allowed by ${source === 'session_grant' ? 'session grant' : 'rule'} ${first.rule.pattern}${suppressed}`,
      risk: highestRisk(findings.map((f) => f.risk)) ?? null,
      source,
      rule: ruleRef(first),
    });
  }
  trace?.add(
    'allow_rules',
    'passed',
    coverage.rules.length
      ? `partly covered by ${coverage.rules.map((r) => r.rule.pattern).join(', ')}`
      : `no allow rule or grant matched${triedRules(policy, 'allow')}`,
  );

  const ask = dangerAsk(uncoveredFindings, trace);
  if (!ask) {
    if (mode.flags.askUnmatched) {
      trace?.add('unmatched', 'decided', `mode ${mode.name} asks for calls no rule covers`);
      return resolveAsk(
        {
          reason: `no rule covers this call and mode ${mode.name} asks for unmatched calls`,
          risk: 'low',
          source: 'default',
        },
        mode,
        request,
        verdict,
        trace,
        ctx,
      );
    }
    trace?.add('unmatched', 'decided', 'nothing matched and nothing is dangerous');
    return verdict({
      decision: 'allow',
      reason: coverage.rules.length
        ? `allowed: covered by ${coverage.rules[0]!.rule.pattern}, and the rest is harmless`
        : 'allowed: no rule matched and no danger was found',
      risk: null,
      source: 'default',
    });
  }
  return resolveAsk(ask, mode, request, verdict, trace, ctx);
}

function resolveAsk(
  ask: Ask,
  mode: EffectiveMode,
  request: DecideRequest,
  verdict: (v: Outcome, needsHuman?: boolean) => Verdict,
  trace: Trace | undefined,
  ctx: EngineContext,
): Verdict {
  const { reason, risk, source, rule } = ask;
  if (!ask.hard && (mode.flags.autoResolve === 'all' || (mode.flags.autoResolve === 'below_high' && risk !== 'high'))) {
    trace?.add('mode', 'decided', `mode ${mode.name} allows a ${risk}-risk ask`);
    return verdict({
      decision: 'allow',
      reason: `mode ${mode.name} allowed a ${risk}-risk call that would have asked: ${reason}`,
      risk,
      source: 'mode',
      rule,
    });
  }
  trace?.add('mode', 'passed', `mode ${mode.name} leaves a ${risk}-risk ask to a human`);
  if (request.interactive === false) {
    trace?.add('fallback', 'decided', `non-interactive: ask_fallback is ${ctx.askFallback}`);
    return verdict({
      decision: ctx.askFallback,
      reason: `${reason} (no human can answer a non-interactive call: ask_fallback is ${ctx.askFallback})`,
      risk,
      source: 'fallback',
      rule,
    });
  }
  return verdict({ decision: 'ask', reason, risk, source, rule }, true);
}

function protectedHitFor(
  call: NormalizedCall,
  analysis: ShellAnalysis | undefined,
  ctx: EngineContext,
  agentHome: string | undefined,
): ProtectedHit | undefined {
  const pathCtx = pathContext(call, ctx, agentHome);
  if (analysis) return protectedShellPath(analysis, pathCtx);
  let uncertain: ProtectedHit | undefined;
  for (const p of call.paths) {
    const hit = protectedPathFor(p, pathCtx, call.recursive, call.toolGlob, call.kind === 'read');
    if (hit?.certain) return hit;
    uncertain ??= hit;
  }
  // Strings elsewhere in an unknown tool's arguments: only a certain hit counts (a message text is no path).
  for (const p of call.mentionedPaths ?? []) {
    const hit = protectedPathFor(p, pathCtx);
    if (hit?.certain) return hit;
  }
  return uncertain;
}

function protectedAsk(hit: ProtectedHit): Ask {
  return {
    reason: `${hit.path} may reach a protected path (${hit.reason})`,
    risk: 'high',
    source: 'protected_path',
    hard: true,
  };
}

function pathContext(call: NormalizedCall, ctx: EngineContext, agentHome: string | undefined): PathContext {
  const pathCtx: PathContext = {
    home: ctx.home,
    cwd: call.cwd ?? ctx.home,
    dataDir: ctx.dataDir,
    extra: ctx.extraProtected,
    realpath: ctx.realpath,
  };
  if (agentHome !== undefined && agentHome !== ctx.home) pathCtx.agentHome = agentHome;
  return pathCtx;
}

function dangerAsk(findings: Finding[], trace: Trace | undefined): Ask | undefined {
  const risk = highestRisk(findings.map((f) => f.risk));
  if (!risk) {
    trace?.add('danger', 'passed', 'no danger finding');
    return undefined;
  }
  const top = findings.filter((f) => f.risk === risk);
  trace?.add('danger', 'decided', findings.map((f) => `${f.id} (${f.risk}) in \`${f.command ?? ''}\``).join('; '));
  return { reason: top.map((f) => f.reason).join('; '), risk, source: 'danger' };
}

function isWrite(call: NormalizedCall, analysis: ShellAnalysis | undefined, ctx: EngineContext): boolean {
  if (analysis) return !analysis.ok || !analysis.readOnly;
  if (call.kind === 'read' || call.kind === 'list' || call.kind === 'search' || call.kind === 'fetch') return false;
  if (call.kind === 'other') return !(ctx.readOnlyTools ?? []).some((t) => t.toLowerCase() === call.tool.toLowerCase());
  return true;
}
