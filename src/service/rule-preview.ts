// Replays the audit log against a candidate rule: which past calls would it have decided differently?
import { decide, type EngineContext } from '../engine/decide.ts';
import { compilePolicy, type Policy } from '../engine/rules/policy.ts';
import type { Rule } from '../engine/rules/rule.ts';
import { RISK_ORDER, type Decision, type Effect, type Risk } from '../engine/types.ts';
import type { AuditRow, Store } from '../store/types.ts';

/** The rule being tried (not saved). */
export interface CandidateRule {
  effect: Effect;
  pattern: string;
  risk?: Risk | null;
  scope?: string;
}

/** How far back, and how much, to replay. */
export interface RulePreviewOptions {
  /** ISO time: replay decisions from then on. */
  since: string;
  /** Most recent decision rows to replay (default 5000). */
  maxRows?: number;
  /** Examples to return (default 5). */
  examples?: number;
  now?: number;
}

/** One past call the candidate changes. */
export interface PreviewExample {
  seq: number;
  ts: string;
  tool: string;
  agent_id: string | null;
  /** The command (bash) or the arguments as JSON, shortened. */
  subject: string;
  /** What the call gets today without the rule, and with it. */
  before: Decision;
  after: Decision;
  /** What was recorded at the time (`allow/rule`, `ask/danger`, …). */
  recorded: string;
  reason: string;
}

/** The replay's report. */
export interface RulePreview {
  pattern: string;
  effect: Effect;
  since: string;
  /** Decision rows replayed. */
  scanned: number;
  /** True when older rows in the window were left out (`maxRows`). */
  truncated: boolean;
  /** Rows the candidate decides differently. */
  changed: number;
  changes: { from: Decision; to: Decision; count: number }[];
  examples: PreviewExample[];
  summary: string;
}

/** What the replay reads: the audit log, the engine, and the rules in force now. */
export interface RulePreviewDeps {
  store: Store;
  engine: EngineContext;
  rules: readonly Rule[];
}

// Rows written by people, the clock, agents or retention are not decisions the pipeline made.
const REPLAYABLE_SOURCES = new Set([
  'protected_path',
  'rule',
  'session_grant',
  'danger',
  'mode',
  'default',
  'fallback',
  'plugin',
]);
const VERB: Record<Decision, string> = { allow: 'allowed', deny: 'denied', ask: 'asked about' };
const PAGE = 1000;

/**
 * Replays every decision row since `options.since` twice through the real pipeline — with today's rules, and with
 * today's rules plus the candidate — and reports the calls whose decision differs. Comparing two replays (instead
 * of the recorded decision) isolates the candidate's effect from rule changes made since. Identical calls are
 * decided once. The candidate's pattern must already be valid (parsePattern).
 */
export async function previewRule(
  deps: RulePreviewDeps,
  candidate: CandidateRule,
  options: RulePreviewOptions,
): Promise<RulePreview> {
  const now = options.now ?? Date.now();
  const maxRows = options.maxRows ?? 5000;
  const baseline = compilePolicy(deps.rules, deps.engine.aliases, deps.engine.home);
  const position = deps.rules.reduce((max, r) => Math.max(max, r.position), 0) + 1;
  const rule: Rule = {
    id: 'candidate',
    effect: candidate.effect,
    pattern: candidate.pattern,
    risk: candidate.effect === 'ask' ? (candidate.risk ?? 'medium') : null,
    scope: candidate.scope ?? 'global',
    expiresAt: null,
    note: 'previewed, not saved',
    createdBy: null,
    createdAt: new Date(now).toISOString(),
    position,
    origin: 'db',
  };
  const withCandidate = compilePolicy([...deps.rules, rule], deps.engine.aliases, deps.engine.home);

  const cache = new Map<
    string,
    { before: Decision; beforeRisk: Risk | null; after: Decision; reason: string } | null
  >();
  const changes = new Map<string, { from: Decision; to: Decision; count: number }>();
  const changedRows: { row: AuditRow; before: Decision; beforeRisk: Risk | null; after: Decision; reason: string }[] =
    [];
  let scanned = 0;
  let truncated = false;
  let cursor: number | undefined;
  for (;;) {
    const page = await deps.store.queryAudit({ since: options.since, cursor, limit: PAGE });
    for (const row of page) {
      if (!REPLAYABLE_SOURCES.has(row.source) || !['allow', 'deny', 'ask'].includes(row.decision)) continue;
      if (scanned >= maxRows) {
        truncated = true;
        break;
      }
      scanned++;
      const key = [row.tool, row.agent_id ?? '', row.session_id ?? '', row.approval_id ? 'a' : '', row.args].join(
        '\u0000',
      );
      let result = cache.get(key);
      if (result === undefined) {
        result = await replay(deps, row, baseline, withCandidate, now);
        cache.set(key, result);
      }
      if (!result) continue;
      const change = `${result.before}>${result.after}`;
      const entry = changes.get(change) ?? { from: result.before, to: result.after, count: 0 };
      entry.count++;
      changes.set(change, entry);
      changedRows.push({ row, ...result });
    }
    if (truncated || page.length < PAGE) break;
    cursor = page[page.length - 1]!.seq;
  }

  const examples = pickExamples(changedRows, options.examples ?? 5);
  const list = [...changes.values()].sort((a, b) => b.count - a.count);
  return {
    pattern: candidate.pattern,
    effect: candidate.effect,
    since: options.since,
    scanned,
    truncated,
    changed: changedRows.length,
    changes: list,
    examples,
    summary: summarize(candidate, scanned, options.since, list, examples),
  };
}

async function replay(deps: RulePreviewDeps, row: AuditRow, baseline: Policy, withCandidate: Policy, now: number) {
  let args: unknown;
  try {
    args = JSON.parse(row.args);
  } catch {
    return null;
  }
  // The audit row has no cwd; an approval does, so asks replay relative paths where they were.
  const cwd = row.approval_id ? ((await deps.store.getApproval(row.approval_id))?.cwd ?? undefined) : undefined;
  const call = {
    tool: row.tool,
    args,
    agentId: row.agent_id ?? undefined,
    sessionId: row.session_id ?? undefined,
    cwd,
  };
  const before = decide({ call, now }, baseline, deps.engine);
  const after = decide({ call, now }, withCandidate, deps.engine);
  if (before.decision === after.decision) return null;
  return { before: before.decision, beforeRisk: before.risk, after: after.decision, reason: after.reason };
}

/** The most telling examples first: what was denied, then high-risk asks; one per distinct subject. */
function pickExamples(
  rows: { row: AuditRow; before: Decision; beforeRisk: Risk | null; after: Decision; reason: string }[],
  count: number,
): PreviewExample[] {
  const weight = (r: (typeof rows)[number]) =>
    (r.before === 'deny' ? 10 : r.before === 'ask' ? 5 : 0) + (r.beforeRisk ? RISK_ORDER[r.beforeRisk] : 0);
  const sorted = [...rows].sort((a, b) => weight(b) - weight(a) || b.row.seq - a.row.seq);
  const seen = new Set<string>();
  const out: PreviewExample[] = [];
  for (const r of sorted) {
    const subject = subjectOf(r.row);
    if (seen.has(subject)) continue;
    seen.add(subject);
    out.push({
      seq: r.row.seq,
      ts: r.row.ts,
      tool: r.row.tool,
      agent_id: r.row.agent_id,
      subject,
      before: r.before,
      after: r.after,
      recorded: `${r.row.decision}/${r.row.source}`,
      reason: r.reason,
    });
    if (out.length >= count) break;
  }
  return out;
}

function subjectOf(row: AuditRow): string {
  let text = row.args;
  try {
    const args = JSON.parse(row.args) as { command?: unknown; cmd?: unknown };
    const command = args?.command ?? args?.cmd;
    if (typeof command === 'string') text = command;
    else if (Array.isArray(command)) text = command.join(' ');
  } catch {
    // keep the raw text
  }
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function summarize(
  candidate: CandidateRule,
  scanned: number,
  since: string,
  changes: { from: Decision; to: Decision; count: number }[],
  examples: PreviewExample[],
): string {
  const head = `${candidate.effect} ${candidate.pattern}`;
  if (changes.length === 0) return `${head} would not have changed any of ${scanned} past call(s) since ${since}`;
  const byTo = new Map<Decision, number>();
  for (const c of changes) byTo.set(c.to, (byTo.get(c.to) ?? 0) + c.count);
  const parts = [...byTo].map(([to, n]) => {
    const shown = examples
      .filter((e) => e.after === to)
      .slice(0, 3)
      .map((e) => `\`${e.subject}\``);
    return `would have ${VERB[to]} ${n} past call(s)${shown.length ? `, including ${shown.join(', ')}` : ''}`;
  });
  return `${head} ${parts.join('; and ')} (of ${scanned} since ${since})`;
}
