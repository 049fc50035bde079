// The compiled policy snapshot: rules and session grants, indexed by effect, tool and the literal parts of patterns.
import micromatch from 'micromatch';
import { canonicalTool, mcpToolName, type AliasIndex, type ToolKind } from '../catalog/tool-aliases.ts';
import type { Effect } from '../types.ts';
import { compileSpec, LINE_KEY_WORDS, type MatchSubject, type SpecMatcher } from './matcher.ts';
import { isPatternError, parsePattern, type PatternError, type Rule } from './rule.ts';

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

/** A compiled rule with what the index needs precomputed (expiry and scope are checked on every candidate). */
interface IndexedRule extends CompiledRule {
  /** Expiry in ms since the epoch; NaN when the rule does not expire (NaN <= now is false). */
  expiresMs: number;
  /** `global`, or the agent or session the rule is scoped to. */
  scopeKind: 'global' | 'agent' | 'session' | 'none';
  scopeId: string;
  /** For command globs found through the line index: the first word the command must have (as the spec requires). */
  firstWord?: string;
  /** Place in declaration order: rules of equal position (a settings file and the store) still have one order. */
  order: number;
}

type RuleList = IndexedRule[];

/**
 * The rules of one effect for one tool (or tool glob). A rule sits in exactly one list; a call looks up only the
 * lists its subject could match, so the cost of a decision depends on the rules that share its literal parts,
 * not on how many rules there are.
 */
interface Bucket {
  /** Rules with no spec (the whole tool) or a spec without literal parts to index: tested every time. */
  plain: RuleList;
  /** Command rules by the literal start of the line (`git log`, `npm run test`). */
  byLine: Map<string, RuleList>;
  /** Command rules with a literal first word but no usable line key. */
  byFirstWord: Map<string, RuleList>;
  /** Path rules by their literal leading directories. */
  byPath: Map<string, RuleList>;
  /** Domain rules by domain. */
  byDomain: Map<string, RuleList>;
}

/** Every bucket of one effect: exact tool names, tool globs, and a memo of which buckets serve a tool name. */
interface EffectIndex {
  exact: Map<string, Bucket>;
  globbed: Map<string, { isTool: (name: string) => boolean; bucket: Bucket }>;
  /** Tool name → its buckets (the exact one and every glob that matches it); bounded, rebuilt on demand. */
  toolBuckets: Map<string, Bucket[]>;
}

const TOOL_MEMO_SIZE = 1024;

/** Compiles rules (in declaration order) into a policy. Bad patterns are reported, not thrown. */
export function compilePolicy(rules: readonly Rule[], aliases: AliasIndex, home: string, version = 0): Policy {
  const errors: PatternError[] = [];
  const indexes: Record<Effect, EffectIndex> = { allow: newIndex(), deny: newIndex(), ask: newIndex() };
  const sorted = [...rules].sort((a, b) => a.position - b.position);
  for (const [order, rule] of sorted.entries()) {
    const parsed = parsePattern(rule.pattern);
    if (isPatternError(parsed)) {
      errors.push(parsed);
      continue;
    }
    const isGlob = /[*?]/.test(parsed.tool);
    const alias = isGlob ? undefined : canonicalTool(parsed.tool, aliases);
    const kind: ToolKind | 'any' = alias ? alias.kind : 'any';
    const compiled = indexedRule(
      rule,
      order,
      kind,
      parsed.spec === undefined ? undefined : compileSpec(parsed.spec, kind, home),
    );
    const index = indexes[rule.effect];
    if (!index) continue; // an effect the pipeline never asks for matches nothing, as before
    let bucket: Bucket;
    if (alias) {
      const key = alias.canonical.toLowerCase();
      bucket = index.exact.get(key) ?? newBucket();
      index.exact.set(key, bucket);
    } else {
      // Gemini's MCP spelling (`mcp_github_*`) is read as the canonical `mcp__github__*` (tool-aliases.ts).
      const glob = mcpToolName(parsed.tool).toLowerCase();
      let entry = index.globbed.get(glob);
      if (!entry) {
        entry = { isTool: micromatch.matcher(glob), bucket: newBucket() };
        index.globbed.set(glob, entry);
      }
      bucket = entry.bucket;
    }
    addToBucket(bucket, compiled);
  }

  return {
    version,
    rules: sorted,
    errors,
    firstMatch(effect, tool, subject, scope) {
      const index = indexes[effect];
      if (!index) return undefined;
      let best: IndexedRule | undefined;
      for (const bucket of bucketsFor(index, tool.toLowerCase())) best = scanBucket(bucket, subject, scope, best);
      return best;
    },
  };
}

function newIndex(): EffectIndex {
  return { exact: new Map(), globbed: new Map(), toolBuckets: new Map() };
}

function newBucket(): Bucket {
  return { plain: [], byLine: new Map(), byFirstWord: new Map(), byPath: new Map(), byDomain: new Map() };
}

function indexedRule(rule: Rule, order: number, kind: ToolKind | 'any', spec: SpecMatcher | undefined): IndexedRule {
  const scope = rule.scope;
  const scopeKind =
    scope === 'global'
      ? 'global'
      : scope.startsWith('agent:')
        ? 'agent'
        : scope.startsWith('session:')
          ? 'session'
          : 'none';
  const scopeId = scopeKind === 'agent' ? scope.slice(6) : scopeKind === 'session' ? scope.slice(8) : '';
  return {
    rule,
    kind,
    spec,
    expiresMs: rule.expiresAt ? Date.parse(rule.expiresAt) : Number.NaN,
    scopeKind,
    scopeId,
    order,
  };
}

function addToBucket(bucket: Bucket, compiled: IndexedRule): void {
  const spec = compiled.spec;
  if (spec && compiled.kind === 'shell' && spec.key !== undefined) {
    if (spec.lineKey !== undefined) {
      compiled.firstWord = spec.key;
      return push(bucket.byLine, spec.lineKey, compiled);
    }
    return push(bucket.byFirstWord, spec.key, compiled);
  }
  if (spec?.pathKey !== undefined && isPathKind(compiled.kind)) return push(bucket.byPath, spec.pathKey, compiled);
  if (spec?.domainKey !== undefined && compiled.kind === 'fetch')
    return push(bucket.byDomain, spec.domainKey, compiled);
  bucket.plain.push(compiled);
}

function isPathKind(kind: ToolKind | 'any'): boolean {
  return kind === 'read' || kind === 'write' || kind === 'edit' || kind === 'list' || kind === 'search';
}

function push(map: Map<string, RuleList>, key: string, rule: IndexedRule): void {
  const list = map.get(key);
  if (list) list.push(rule);
  else map.set(key, [rule]);
}

function bucketsFor(index: EffectIndex, name: string): Bucket[] {
  let buckets = index.toolBuckets.get(name);
  if (buckets) return buckets;
  buckets = [];
  const exact = index.exact.get(name);
  if (exact) buckets.push(exact);
  for (const { isTool, bucket } of index.globbed.values()) if (isTool(name)) buckets.push(bucket);
  if (index.toolBuckets.size >= TOOL_MEMO_SIZE) index.toolBuckets.clear();
  index.toolBuckets.set(name, buckets);
  return buckets;
}

/** The earliest matching rule among the bucket's candidates for this subject, or `best` when none comes before it. */
function scanBucket(
  bucket: Bucket,
  subject: MatchSubject,
  scope: MatchScope,
  best: IndexedRule | undefined,
): IndexedRule | undefined {
  best = firstIn(bucket.plain, subject, scope, best);
  const words = subject.words;
  if (words && words.length > 0) {
    if (bucket.byFirstWord.size > 0) best = firstIn(bucket.byFirstWord.get(words[0]!), subject, scope, best);
    if (bucket.byLine.size > 0) best = scanLine(bucket.byLine, subject.line ?? words.join(' '), subject, scope, best);
  }
  if (bucket.byPath.size > 0) {
    if (subject.absPath !== undefined) best = scanPath(bucket.byPath, subject.absPath, subject, scope, best);
    if (subject.relPath !== undefined) best = scanPath(bucket.byPath, subject.relPath, subject, scope, best);
  }
  if (bucket.byDomain.size > 0 && subject.host !== undefined) {
    const host = subject.host;
    best = firstIn(bucket.byDomain.get(host), subject, scope, best);
    for (let i = host.indexOf('.'); i >= 0; i = host.indexOf('.', i + 1))
      best = firstIn(bucket.byDomain.get(host.slice(i + 1)), subject, scope, best);
  }
  return best;
}

/** Line keys: the line cut before each of its first LINE_KEY_WORDS spaces, and the whole line when it is shorter. */
function scanLine(
  map: Map<string, RuleList>,
  line: string,
  subject: MatchSubject,
  scope: MatchScope,
  best: IndexedRule | undefined,
): IndexedRule | undefined {
  let spaces = 0;
  for (let i = line.indexOf(' '); i >= 0; i = line.indexOf(' ', i + 1)) {
    best = firstIn(map.get(line.slice(0, i)), subject, scope, best);
    if (++spaces === LINE_KEY_WORDS) return best;
  }
  return firstIn(map.get(line), subject, scope, best);
}

/** Path keys: every leading run of segments of the path (`/a`, `/a/b`, …, the whole path). */
function scanPath(
  map: Map<string, RuleList>,
  path: string,
  subject: MatchSubject,
  scope: MatchScope,
  best: IndexedRule | undefined,
): IndexedRule | undefined {
  for (let i = path.indexOf('/', 1); i >= 0; i = path.indexOf('/', i + 1))
    best = firstIn(map.get(path.slice(0, i)), subject, scope, best);
  return firstIn(map.get(path), subject, scope, best);
}

/** The first rule of a list (in declaration order) that is in scope and matches, if it comes before `best`. */
function firstIn(
  list: RuleList | undefined,
  subject: MatchSubject,
  scope: MatchScope,
  best: IndexedRule | undefined,
): IndexedRule | undefined {
  if (!list) return best;
  for (const c of list) {
    if (best && c.order >= best.order) break;
    if (!inScope(c, scope)) continue;
    if (c.firstWord !== undefined && subject.words?.[0] !== c.firstWord) continue;
    if (!c.spec || c.spec.test(subject)) return c;
  }
  return best;
}

/** Same answer as ruleInScope (rule.ts), from the precomputed expiry and scope. */
function inScope(c: IndexedRule, scope: MatchScope): boolean {
  if (c.expiresMs <= scope.now) return false;
  switch (c.scopeKind) {
    case 'global':
      return true;
    case 'agent':
      return c.scopeId === scope.agentId;
    case 'session':
      return c.scopeId === scope.sessionId;
    default:
      return false;
  }
}
