// The compiled policy snapshot: rules and session grants, indexed by tool and by the command's first word.
import micromatch from 'micromatch';
import { canonicalTool, type AliasIndex, type ToolKind } from '../catalog/tool-aliases.ts';
import type { Effect } from '../types.ts';
import { compileSpec, type MatchSubject, type SpecMatcher } from './matcher.ts';
import { isPatternError, parsePattern, ruleInScope, type PatternError, type Rule } from './rule.ts';

/** A rule ready to match. */
export interface CompiledRule {
  rule: Rule;
  kind: ToolKind | 'any';
  spec?: SpecMatcher;
}

/** Who is asking, and when: rules are scoped and may expire. */
export interface MatchScope {
  agentId?: string;
  sessionId?: string;
  now: number;
}

/** An immutable, compiled view of every rule and grant at one version of the database. */
export interface Policy {
  version: number;
  rules: readonly Rule[];
  /** Patterns that could not be compiled (kept out of matching, reported by lint and `rules list`). */
  errors: readonly PatternError[];
  /** The first rule (in declaration order) of this effect that matches the subject of a call to `tool`. */
  firstMatch(effect: Effect, tool: string, subject: MatchSubject, scope: MatchScope): CompiledRule | undefined;
}

interface Bucket {
  /** Rules with no spec (the whole tool) or a non-command spec: tested every time. */
  plain: CompiledRule[];
  /** Command rules anchored at a literal first word. */
  byFirstWord: Map<string, CompiledRule[]>;
  /** Command rules whose word sequence may start at any word. */
  anywhere: Map<string, CompiledRule[]>;
}

/** Compiles rules (in declaration order) into a policy. Bad patterns are reported, not thrown. */
export function compilePolicy(rules: readonly Rule[], aliases: AliasIndex, home: string, version = 0): Policy {
  const errors: PatternError[] = [];
  const exact = new Map<string, Bucket>();
  const globbed: { isTool: (name: string) => boolean; bucket: Bucket }[] = [];
  const sorted = [...rules].sort((a, b) => a.position - b.position);
  for (const rule of sorted) {
    const parsed = parsePattern(rule.pattern);
    if (isPatternError(parsed)) {
      errors.push(parsed);
      continue;
    }
    const isGlob = /[*?]/.test(parsed.tool);
    const alias = isGlob ? undefined : canonicalTool(parsed.tool, aliases);
    const kind: ToolKind | 'any' = alias ? alias.kind : 'any';
    const compiled: CompiledRule = { rule, kind, spec: parsed.spec === undefined ? undefined : compileSpec(parsed.spec, kind, home) };
    let bucket: Bucket;
    if (alias) {
      const key = alias.canonical.toLowerCase();
      bucket = exact.get(key) ?? newBucket();
      exact.set(key, bucket);
    } else {
      bucket = newBucket();
      const isTool = micromatch.matcher(parsed.tool.toLowerCase());
      globbed.push({ isTool, bucket });
    }
    addToBucket(bucket, compiled);
  }

  return {
    version,
    rules: sorted,
    errors,
    firstMatch(effect, tool, subject, scope) {
      let best: CompiledRule | undefined;
      const consider = (list: readonly CompiledRule[] | undefined) => {
        if (!list) return;
        for (const c of list) {
          if (best && c.rule.position >= best.rule.position) break;
          if (c.rule.effect !== effect || !ruleInScope(c.rule, scope.agentId, scope.sessionId, scope.now)) continue;
          if (!c.spec || c.spec.test(subject)) {
            best = c;
            break;
          }
        }
      };
      const scan = (bucket: Bucket | undefined) => {
        if (!bucket) return;
        consider(bucket.plain);
        const words = subject.words;
        if (words && words.length > 0) {
          consider(bucket.byFirstWord.get(words[0]!));
          if (bucket.anywhere.size > 0) for (const w of new Set(words)) consider(bucket.anywhere.get(w));
        }
      };
      const name = tool.toLowerCase();
      scan(exact.get(name));
      for (const g of globbed) if (g.isTool(name)) scan(g.bucket);
      return best;
    },
  };
}

function newBucket(): Bucket {
  return { plain: [], byFirstWord: new Map(), anywhere: new Map() };
}

function addToBucket(bucket: Bucket, compiled: CompiledRule): void {
  const spec = compiled.spec;
  if (spec?.key !== undefined && compiled.kind === 'shell') {
    const map = spec.anywhere ? bucket.anywhere : bucket.byFirstWord;
    const list = map.get(spec.key) ?? [];
    list.push(compiled);
    map.set(spec.key, list);
  } else {
    bucket.plain.push(compiled);
  }
}
