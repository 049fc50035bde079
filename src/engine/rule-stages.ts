// The rule stages of the pipeline: deny, ask and allow rules and session grants, matched against each simple command
// of a shell call (in the forms each effect meets) or against a file tool's paths, a fetch's URL, other arguments.
import type { NormalizedCall } from './normalize.ts';
import { absolutePath, relativeToDir } from './paths.ts';
import type { MatchSubject } from './rules/matcher.ts';
import type { CompiledRule, MatchScope, Policy } from './rules/policy.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/types.ts';
import type { Trace } from './trace.ts';
import type { Effect } from './types.ts';
import type { Ask, EngineContext, RuleRef } from './decide.ts';
import { fetchUrls } from './call-findings.ts';

/** Deny rules: for bash, any simple command in any of its forms (as written, unwrapped, program basename). */
export function denyRuleFor(
  call: NormalizedCall,
  analysis: ShellAnalysis | undefined,
  subjects: readonly MatchSubject[],
  policy: Policy,
  scope: MatchScope,
): CompiledRule | undefined {
  if (analysis) {
    const whole = policy.firstMatch('deny', call.tool, {}, scope);
    if (whole) return whole;
    for (const cmd of analysis.commands) {
      for (const subject of commandSubjects(cmd, true)) {
        const rule = policy.firstMatch('deny', call.tool, subject, scope);
        if (rule) return rule;
      }
    }
    return undefined;
  }
  return firstForSubjects('deny', call, subjects, policy, scope);
}

export interface Coverage {
  all: boolean;
  rules: CompiledRule[];
  coveredTexts: Set<string>;
  /** The commands (their text) a session grant covers: ask rules pass over them. */
  grantedTexts: Set<string>;
  /** A session grant covers the whole call. */
  grantedAll: boolean;
}

/**
 * Allow rules and grants: for bash each simple command must be covered as written — wrappers included, so an allow
 * of `git status` does not cover `sudo git status` (deny and ask rules, by contrast, also meet the unwrapped forms).
 */
export function allowCoverage(
  call: NormalizedCall,
  analysis: ShellAnalysis | undefined,
  subjects: readonly MatchSubject[],
  policy: Policy,
  scope: MatchScope,
): Coverage {
  const coveredTexts = new Set<string>();
  const grantedTexts = new Set<string>();
  if (analysis) {
    const whole = policy.firstMatch('allow', call.tool, {}, scope);
    if (whole && analysis.ok) {
      for (const cmd of analysis.commands) coveredTexts.add(cmd.text);
      const granted = whole.rule.origin === 'grant';
      return {
        all: true,
        rules: [whole],
        coveredTexts,
        grantedTexts: granted ? coveredTexts : grantedTexts,
        grantedAll: granted,
      };
    }
    const rules: CompiledRule[] = [];
    let all = analysis.ok && analysis.commands.length > 0;
    const hardTexts = new Set(analysis.findings.filter((f) => f.hard).map((f) => f.command));
    for (const cmd of analysis.commands) {
      const [asWritten] = commandSubjects(cmd, false);
      const coverable = cmd.literal && !hardTexts.has(cmd.text);
      let rule = coverable ? policy.firstMatch('allow', call.tool, asWritten!, scope) : undefined;
      // A rule about the command's words does not cover a file its redirection writes, unless it names a redirection.
      if (rule && cmd.writes?.length && !rule.rule.pattern.includes('>')) rule = undefined;
      if (rule) {
        rules.push(rule);
        coveredTexts.add(cmd.text);
        if (rule.rule.origin === 'grant') grantedTexts.add(cmd.text);
      } else all = false;
    }
    return { all, rules, coveredTexts, grantedTexts, grantedAll: all && rules.every((r) => r.rule.origin === 'grant') };
  }
  const rule = call.problem ? undefined : firstForSubjects('allow', call, subjects, policy, scope);
  return {
    all: rule !== undefined,
    rules: rule ? [rule] : [],
    coveredTexts,
    grantedTexts,
    grantedAll: rule?.rule.origin === 'grant',
  };
}

/**
 * Ask rules, checked before allow rules (an ask rule asks even when an allow rule matches too): for bash, any simple
 * command in any of its forms, as deny rules are; a command a session grant covers is passed over.
 */
export function askRuleFor(
  call: NormalizedCall,
  analysis: ShellAnalysis | undefined,
  subjects: readonly MatchSubject[],
  granted: Set<string>,
  grantedAll: boolean,
  policy: Policy,
  scope: MatchScope,
  trace: Trace | undefined,
): Ask | undefined {
  let rule: CompiledRule | undefined;
  if (grantedAll) rule = undefined;
  else if (analysis) {
    rule = policy.firstMatch('ask', call.tool, {}, scope);
    for (const cmd of analysis.commands) {
      if (rule) break;
      if (granted.has(cmd.text)) continue;
      for (const subject of commandSubjects(cmd, true))
        if ((rule = policy.firstMatch('ask', call.tool, subject, scope))) break;
    }
  } else rule = firstForSubjects('ask', call, subjects, policy, scope);
  if (!rule) {
    trace?.add('ask_rules', 'passed', `no ask rule matched${triedRules(policy, 'ask')}`);
    return undefined;
  }
  const risk = rule.rule.risk ?? 'medium';
  trace?.add('ask_rules', 'decided', `matched ${rule.rule.pattern} (risk ${risk})`);
  return { reason: `rule ${rule.rule.pattern} asks for a human`, risk, source: 'rule', rule: ruleRef(rule) };
}

/** The forms a simple command is matched in: as written; with `loose`, also unwrapped and by program basename. */
export function commandSubjects(cmd: SimpleCommand, loose: boolean): MatchSubject[] {
  const subjects: MatchSubject[] = [{ words: cmd.words, line: cmd.words.join(' ') }];
  if (!loose) return subjects;
  if (cmd.argv.length && cmd.argv !== cmd.words && cmd.argv.join(' ') !== subjects[0]!.line)
    subjects.push({ words: cmd.argv, line: cmd.argv.join(' ') });
  if (cmd.program && cmd.argv[0] !== cmd.program) {
    const named = [cmd.program, ...cmd.argv.slice(1)];
    subjects.push({ words: named, line: named.join(' ') });
  }
  return subjects;
}

/**
 * What rules match a non-shell call against: one subject per path (absolute, and relative to the cwd when inside
 * it), else its URL and host, else its arguments.
 */
export function callSubjects(call: NormalizedCall, ctx: EngineContext): MatchSubject[] {
  const text = call.canonicalArgs;
  if (call.paths.length > 0) {
    const cwd = call.cwd ? absolutePath(call.cwd, ctx.home) : undefined;
    return call.paths.map((p) => {
      const absPath = absolutePath(p, ctx.home, call.cwd);
      return { absPath, relPath: cwd === undefined ? undefined : relativeToDir(absPath, cwd), text };
    });
  }
  if (call.url !== undefined) return fetchUrls(call).map((url) => ({ url, host: hostOf(url), text }));
  return [{ text }];
}

/** Non-shell tools: the first rule matching any of the call's paths (or its URL, or its args). */
export function firstForSubjects(
  effect: Effect,
  call: NormalizedCall,
  subjects: readonly MatchSubject[],
  policy: Policy,
  scope: MatchScope,
): CompiledRule | undefined {
  if (call.paths.length > 0 || subjects.length > 1) {
    // Every path (URL) of the call must match for an allow; any one suffices for deny and ask.
    let first: CompiledRule | undefined;
    for (const subject of subjects) {
      const rule = policy.firstMatch(effect, call.tool, subject, scope);
      if (effect !== 'allow' && rule) return rule;
      if (effect === 'allow' && !rule) return undefined;
      first ??= rule;
    }
    return first;
  }
  return policy.firstMatch(effect, call.tool, subjects[0]!, scope);
}

/** For the trace only (built lazily): the rules of one effect that were tried, as patterns. */
export function triedRules(policy: Policy, effect: Effect): string {
  const patterns = policy.rules.filter((r) => r.effect === effect).map((r) => r.pattern);
  if (patterns.length === 0) return ` (there are no ${effect} rules)`;
  const shown = patterns.slice(0, 8).join(', ');
  return ` (tried ${patterns.length}: ${shown}${patterns.length > 8 ? `, … ${patterns.length - 8} more` : ''})`;
}

export function ruleRef(c: CompiledRule): RuleRef {
  return { id: c.rule.id, pattern: c.rule.pattern, effect: c.rule.effect };
}

export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
