// The protected roots of a context (the credential places in every home, the system's, the data dir, the extras),
// kept as a tree of names so that a path is compared only with the roots along its own names.
import micromatch from 'micromatch';
import {
  DATA_DIR_REASON,
  EXTRA_REASON,
  OTHER_HOMES,
  PROTECTED_IN_HOME,
  PROTECTED_ON_SYSTEM,
} from './catalog/protected-dirs.ts';
import type { Seg } from './path-segments.ts';
import type { PathContext } from './protected-paths.ts';

/** A protected root's segment: a literal name, a pattern over one name (`/home/*`), or `**`. */
export type RootSeg =
  | { kind: 'lit'; text: string }
  | { kind: 'pat'; pattern: string; isMatch: (name: string) => boolean }
  | { kind: 'globstar' };
export interface Root {
  segs: RootSeg[];
  protectedBy: string;
  reason: string;
  open?: (name: string) => boolean;
  /** The names right inside it a command that only reads may read (`~/.ssh/config`). */
  readable?: (name: string) => boolean;
}

/**
 * The roots, indexed by their names as a tree: a path whose names are literal is compared only with the roots along
 * its own names (`/home/me/work/app.ts` with none of the ~340 credential places in the homes, whose next name is
 * `.ssh`, `.aws`, …). A root's pattern name (`/home/*`) is a branch that literal names matching it follow; a name of
 * the path that is not literal (a variable, a glob, `**`) takes every root below. Lists keep declaration order, so
 * the first root reached is the same as when every root is tried.
 */
export interface RootSet {
  all: readonly Root[];
  tree: RootNode;
}

interface RootNode {
  /** Roots ending here, and roots whose next name is `**` (compared in full from here). */
  here: Root[];
  names: Map<string, RootNode>;
  patterns: { pattern: string; isMatch: (name: string) => boolean; node: RootNode }[];
  /** Every root at or below this node. */
  below: Root[];
}

// Roots depend only on the home, the data dir and the extras (and on the cwd when one of those is relative).
// Building them costs a micromatch.scan per segment, more than the matching itself, so they are kept.
const rootsCache = new Map<string, RootSet>();
const ROOTS_CACHE_SIZE = 256;

/** The settings the last roots were built for (one server has one home, data dir and extras): no key to build. */
let lastRoots:
  | {
      home: string;
      agentHome: string | undefined;
      dataDir: string | undefined;
      extra: string[];
      cwd: string | undefined;
      roots: RootSet;
    }
  | undefined;

/** The protected roots for a context: the six credential places in every home, the data dir, the extras. */
export function protectedRoots(ctx: PathContext): RootSet {
  const last = lastRoots;
  if (
    last &&
    last.home === ctx.home &&
    last.agentHome === ctx.agentHome &&
    last.dataDir === ctx.dataDir &&
    (last.cwd === undefined || last.cwd === ctx.cwd) &&
    sameList(last.extra, ctx.extra)
  )
    return last.roots;
  const configured = ctx.extra ?? [];
  const relative = [ctx.dataDir ?? '/', ...configured].some((p) => !expandHome(p, ctx.home).startsWith('/'));
  const key = [ctx.home, ctx.agentHome ?? '', relative ? ctx.cwd : '', ctx.dataDir ?? '', ...configured].join('\u0000');
  let roots = rootsCache.get(key);
  if (!roots) {
    if (rootsCache.size >= ROOTS_CACHE_SIZE) rootsCache.clear();
    roots = rootSet(buildRoots(ctx));
    rootsCache.set(key, roots);
  }
  lastRoots = {
    home: ctx.home,
    agentHome: ctx.agentHome,
    dataDir: ctx.dataDir,
    extra: [...configured],
    cwd: relative ? ctx.cwd : undefined,
    roots,
  };
  return roots;
}

function sameList(kept: readonly string[], now: readonly string[] | undefined): boolean {
  const list = now ?? [];
  if (kept.length !== list.length) return false;
  for (let i = 0; i < list.length; i++) if (kept[i] !== list[i]) return false;
  return true;
}

function rootSet(all: Root[]): RootSet {
  const node = (): RootNode => ({ here: [], names: new Map(), patterns: [], below: [] });
  const tree = node();
  for (const root of all) {
    let at = tree;
    at.below.push(root);
    for (const seg of root.segs) {
      if (seg.kind === 'globstar') break;
      let next: RootNode | undefined;
      if (seg.kind === 'lit') {
        next = at.names.get(seg.text);
        if (!next) at.names.set(seg.text, (next = node()));
      } else {
        next = at.patterns.find((p) => p.pattern === seg.pattern)?.node;
        if (!next) at.patterns.push({ pattern: seg.pattern, isMatch: seg.isMatch, node: (next = node()) });
      }
      at = next;
      at.below.push(root);
    }
    at.here.push(root);
  }
  return { all, tree };
}

/** The roots a candidate may reach (a superset; `reaches` decides), in declaration order. */
export function rootsFor(cand: Seg[], roots: RootSet): readonly Root[] {
  const found = new Set<Root>();
  collectRoots(roots.tree, cand, 0, found);
  if (found.size === 0) return NO_ROOTS;
  return found.size === roots.all.length ? roots.all : roots.all.filter((r) => found.has(r));
}

const NO_ROOTS: readonly Root[] = [];

/** Adds the roots at `at` the candidate's names from `i` on may lead to (every root below, past a name not literal). */
function collectRoots(at: RootNode, cand: Seg[], i: number, found: Set<Root>): void {
  for (const r of at.here) found.add(r);
  const seg = cand[i];
  if (seg === undefined || seg.kind !== 'lit') {
    for (const r of at.below) found.add(r);
    return;
  }
  const named = at.names.get(seg.text);
  if (named) collectRoots(named, cand, i + 1, found);
  for (const p of at.patterns) if (p.isMatch(seg.text)) collectRoots(p.node, cand, i + 1, found);
}

function buildRoots(ctx: PathContext): Root[] {
  const roots: Root[] = [];
  const homes = [{ dir: ctx.home, label: '~' }, ...OTHER_HOMES.map((h) => ({ dir: h, label: h }))];
  if (ctx.agentHome && ctx.agentHome !== ctx.home) homes.push({ dir: ctx.agentHome, label: ctx.agentHome });
  for (const { dir, label } of homes) {
    for (const entry of PROTECTED_IN_HOME) {
      const root: Root = {
        segs: rootSegs(`${dir}/${entry.relative}`),
        protectedBy: `${label}/${entry.relative}`,
        reason: entry.reason,
      };
      if (entry.open) root.open = namesMatcher(entry.open);
      if (entry.readable) root.readable = namesMatcher(entry.readable);
      roots.push(root);
    }
  }
  for (const entry of PROTECTED_ON_SYSTEM)
    roots.push({ segs: rootSegs(entry.path), protectedBy: entry.path, reason: entry.reason });
  if (ctx.dataDir)
    roots.push({ segs: rootSegs(resolveLiteral(ctx.dataDir, ctx)), protectedBy: ctx.dataDir, reason: DATA_DIR_REASON });
  for (const extra of ctx.extra ?? [])
    roots.push({ segs: rootSegs(resolveLiteral(extra, ctx)), protectedBy: extra, reason: EXTRA_REASON });
  return roots;
}

/** A matcher for any of some globs over one name (`{a,b}`; a single name alone: `{config}` is no brace expansion). */
function namesMatcher(names: readonly string[]): (name: string) => boolean {
  return micromatch.matcher(names.length === 1 ? names[0]! : `{${names.join(',')}}`, { dot: true });
}

function expandHome(path: string, home: string): string {
  return path.replace(/^~(?=\/|$)/, home).replace(/^\$\{?HOME\}?(?=\/|$)/, home);
}

function resolveLiteral(path: string, ctx: PathContext): string {
  const expanded = expandHome(path, ctx.home);
  return expanded.startsWith('/') ? expanded : `${ctx.cwd}/${expanded}`;
}

function rootSegs(path: string): RootSeg[] {
  const out: RootSeg[] = [];
  for (const s of path.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else if (s === '**') out.push({ kind: 'globstar' });
    else if (micromatch.scan(s).isGlob)
      out.push({ kind: 'pat', pattern: s, isMatch: micromatch.matcher(s, { dot: true }) });
    else out.push({ kind: 'lit', text: s });
  }
  return out;
}
