// Protected paths: decides whether a file tool's path, or any path a bash command touches, reaches a protected place.
import { posix } from 'node:path';
import micromatch from 'micromatch';
import type { ShellAnalysis, ShellPath } from './shell/types.ts';
import { DATA_DIR_REASON, EXTRA_REASON, OTHER_HOMES, PROTECTED_IN_HOME, PROTECTED_ON_SYSTEM } from './catalog/protected-dirs.ts';
import { DEEP, DYN_CLOSE, DYN_OPEN, escapeLiteral, expandTilde } from './shell/template.ts';
import { namesSecret } from './shell/paths.ts';

/** What the matcher needs to know about the call. */
export interface PathContext {
  home: string;
  cwd: string;
  dataDir?: string;
  extra?: string[];
  /**
   * The agent's own home when it is not the sidecar's (a container, another user): its credential places are
   * protected too. It only adds protection: the sidecar's home and the other homes stay protected whatever it is.
   */
  agentHome?: string;
  /** Injected by the service: resolves symlinks where the path exists. */
  realpath?: (p: string) => string | undefined;
}

/** A protected place a path reaches. */
export interface ProtectedHit {
  path: string;
  protectedBy: string;
  reason: string;
  /** False: the path might reach it (an unresolvable variable), so the engine asks instead of denying. */
  certain: boolean;
}

/** A path segment: literal name, glob over one name, any number of names (`DEEP`), or unknown text (a variable). */
type Seg = { kind: 'lit'; text: string } | { kind: 'glob'; pattern: string } | { kind: 'deep' } | { kind: 'dyn'; pattern?: string };
/** A protected root's segment: a literal name, a pattern over one name (`/home/*`), or `**`. */
type RootSeg = { kind: 'lit'; text: string } | { kind: 'pat'; pattern: string; isMatch: (name: string) => boolean } | { kind: 'globstar' };
interface Root { segs: RootSeg[]; protectedBy: string; reason: string; open?: (name: string) => boolean }

/**
 * The roots, indexed by their names as a tree: a path whose names are literal is compared only with the roots along
 * its own names (`/home/me/work/app.ts` with none of the ~340 credential places in the homes, whose next name is
 * `.ssh`, `.aws`, …). A root's pattern name (`/home/*`) is a branch that literal names matching it follow; a name of
 * the path that is not literal (a variable, a glob, `**`) takes every root below. Lists keep declaration order, so
 * the first root reached is the same as when every root is tried.
 */
interface RootSet {
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
let lastRoots: { home: string; agentHome: string | undefined; dataDir: string | undefined; extra: string[]; cwd: string | undefined; roots: RootSet } | undefined;

/** The protected roots for a context: the six credential places in every home, the data dir, the extras. */
function protectedRoots(ctx: PathContext): RootSet {
  const last = lastRoots;
  if (last && last.home === ctx.home && last.agentHome === ctx.agentHome && last.dataDir === ctx.dataDir && (last.cwd === undefined || last.cwd === ctx.cwd) && sameList(last.extra, ctx.extra)) return last.roots;
  const configured = ctx.extra ?? [];
  const relative = [ctx.dataDir ?? '/', ...configured].some((p) => !expandHome(p, ctx.home).startsWith('/'));
  const key = [ctx.home, ctx.agentHome ?? '', relative ? ctx.cwd : '', ctx.dataDir ?? '', ...configured].join('\u0000');
  let roots = rootsCache.get(key);
  if (!roots) {
    if (rootsCache.size >= ROOTS_CACHE_SIZE) rootsCache.clear();
    roots = rootSet(buildRoots(ctx));
    rootsCache.set(key, roots);
  }
  lastRoots = { home: ctx.home, agentHome: ctx.agentHome, dataDir: ctx.dataDir, extra: [...configured], cwd: relative ? ctx.cwd : undefined, roots };
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
function rootsFor(cand: Seg[], roots: RootSet): readonly Root[] {
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
  if (seg === undefined || seg.kind !== 'lit') { for (const r of at.below) found.add(r); return; }
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
      const root: Root = { segs: rootSegs(`${dir}/${entry.relative}`), protectedBy: `${label}/${entry.relative}`, reason: entry.reason };
      if (entry.open) root.open = micromatch.matcher(`{${entry.open.join(',')}}`, { dot: true });
      roots.push(root);
    }
  }
  for (const entry of PROTECTED_ON_SYSTEM) roots.push({ segs: rootSegs(entry.path), protectedBy: entry.path, reason: entry.reason });
  if (ctx.dataDir) roots.push({ segs: rootSegs(resolveLiteral(ctx.dataDir, ctx)), protectedBy: ctx.dataDir, reason: DATA_DIR_REASON });
  for (const extra of ctx.extra ?? []) roots.push({ segs: rootSegs(resolveLiteral(extra, ctx)), protectedBy: extra, reason: EXTRA_REASON });
  return roots;
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
    else if (micromatch.scan(s).isGlob) out.push({ kind: 'pat', pattern: s, isMatch: micromatch.matcher(s, { dot: true }) });
    else out.push({ kind: 'lit', text: s });
  }
  return out;
}

/** Characters micromatch reads as syntax: escaped in a glob segment's pattern when the template had them quoted. */
const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/;

/**
 * Splits an escaped template into segments (escapes make quoted glob characters literal). One pass, no closure:
 * a segment without escapes is sliced from the template instead of being built a character at a time.
 */
function templateSegs(template: string): Seg[] {
  const segs: Seg[] = [];
  let from = 0;
  let escaped = false;
  let glob = false;
  let dyn = false;
  let deep = false;
  for (let i = 0; i <= template.length; i++) {
    const c = template[i];
    if (c === '\\' && i + 1 < template.length) { escaped = true; i++; continue; }
    if (c === DYN_OPEN) {
      const end = template.indexOf(DYN_CLOSE, i);
      i = end < 0 ? template.length - 1 : end;
      dyn = true;
      continue;
    }
    if (c === DEEP) { deep = true; continue; }
    if (c === '*' || c === '?' || c === '[') { glob = true; continue; }
    if (c !== '/' && c !== undefined) continue;
    // The end of a segment: template[from, i).
    // A name partly unknown (`.s${x}sh`, `.${x:-ssh}`): its known parts make a pattern (`.s*sh`, `.*`) for one name.
    // Known parts that say nothing (`$IMAGE:$TAG`, `$NAME.json`: see namesPart) leave the name wholly unknown.
    if (dyn) { const pattern = dynPattern(template, from, i); segs.push(pattern === undefined || !namesPart(pattern) ? { kind: 'dyn' } : { kind: 'dyn', pattern }); }
    else if (deep) segs.push({ kind: 'deep' });
    else if (glob) segs.push({ kind: 'glob', pattern: escaped ? segmentPattern(template, from, i) : template.slice(from, i) });
    else {
      const text = escaped ? segmentText(template, from, i) : template.slice(from, i);
      if (text === '..') { const last = segs.pop(); if (last && last.kind !== 'lit') segs.push(last, { kind: 'dyn' }); }
      else if (text !== '' && text !== '.') segs.push({ kind: 'lit', text });
    }
    from = i + 1;
    escaped = glob = dyn = deep = false;
  }
  return segs;
}

/** A segment's literal text: escapes removed (no DYN or DEEP markers inside: those segments are not literal). */
function segmentText(template: string, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) text += template[i] === '\\' && i + 1 < to ? template[++i] : template[i];
  return text;
}

/** A glob segment's micromatch pattern: escaped characters that micromatch reads as syntax stay escaped. */
function segmentPattern(template: string, from: number, to: number): string {
  let pattern = '';
  for (let i = from; i < to; i++) {
    const c = template[i]!;
    if (c === '\\' && i + 1 < to) {
      const n = template[++i]!;
      pattern += GLOB_SYNTAX.test(n) ? '\\' + n : n;
    } else pattern += c;
  }
  return pattern;
}

/** The pattern of a segment with unknown parts and known ones (each unknown part a `*`), or undefined if all unknown. */
function dynPattern(template: string, from: number, to: number): string | undefined {
  let pattern = '';
  let known = false;
  for (let i = from; i < to; i++) {
    const c = template[i]!;
    if (c === DYN_OPEN) {
      const end = template.indexOf(DYN_CLOSE, i);
      i = end < 0 ? to : end;
      if (!pattern.endsWith('*')) pattern += '*';
    } else if (c === '\\' && i + 1 < to) {
      const n = template[++i]!;
      pattern += GLOB_SYNTAX.test(n) ? '\\' + n : n;
      known = true;
    } else if (c !== DEEP) {
      pattern += c;
      known = true;
    }
  }
  return known ? pattern : undefined;
}

/** Steps `reaches` may take for one candidate and root (globstars and unknown parts branch). */
const REACH_BUDGET = 2000;

/**
 * Could some concrete path matching `cand` be `root` or lie under it? A `dyn` segment may stand for any
 * number of names but, to keep `$DIR/file` from matching everything, never for the root's last name:
 * an unresolvable path only counts when its literal part names the protected entry (`$X/.ssh/id_rsa`).
 */
function reaches(cand: Seg[], root: RootSeg[], i: number, j: number, budget: { left: number }): boolean {
  if (--budget.left < 0) return false;
  if (j === root.length) return true;
  if (i === cand.length) {
    for (let k = j; k < root.length; k++) if (root[k]!.kind !== 'globstar') return false;
    return true;
  }
  const c = cand[i]!;
  const r = root[j]!;
  if (r.kind === 'globstar') return reaches(cand, root, i, j + 1, budget) || reaches(cand, root, i + 1, j, budget);
  // A name with known parts is one name matching its pattern (and, unknown, may stand for more names too).
  if (c.kind === 'dyn' && c.pattern !== undefined && (r.kind === 'lit' ? globMatcher(c.pattern)(r.text) : globsMayMeet(c.pattern, r.pattern)) && reaches(cand, root, i + 1, j + 1, budget)) return true;
  if (c.kind === 'deep' || c.kind === 'dyn') {
    if (reaches(cand, root, i + 1, j, budget)) return true;
    const absorbable = c.kind === 'deep' || j < root.length - 1;
    return absorbable && reaches(cand, root, i, j + 1, budget);
  }
  let compatible: boolean;
  if (c.kind === 'lit') compatible = r.kind === 'lit' ? c.text === r.text : r.isMatch(c.text);
  else compatible = r.kind === 'lit' ? globMatcher(c.pattern)(r.text) : globsMayMeet(c.pattern, r.pattern);
  return compatible && reaches(cand, root, i + 1, j + 1, budget);
}

/**
 * Whether the known parts of a partly unknown name say something about it: a literal beginning or end of two
 * characters or more, an extension aside (`.s${x}sh`, `id_$k`, `${x}_rsa` do; `$IMAGE:$TAG`, `$NAME.json`,
 * `$A@$B` do not). Only such a name is taken for a protected one: `$OUT_DIR/$NAME.json` is not the registry logins.
 */
function namesPart(pattern: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return true;
  const head = pattern.slice(0, star);
  const tail = pattern.slice(pattern.lastIndexOf('*') + 1).replace(/^\.[A-Za-z0-9]{1,6}$/, '');
  return head.length >= 2 || tail.length >= 2;
}

/**
 * Whether two glob patterns over one name may match a common name. Exact intersection is not worth its cost here:
 * they cannot when their literal beginnings or their literal ends disagree (`*:` and `ssh_host_*_key` cannot: one
 * name does not end in both `:` and `_key`); otherwise they may.
 */
function globsMayMeet(a: string, b: string): boolean {
  const head = (p: string) => p.slice(0, p.search(GLOB_CHAR) < 0 ? p.length : p.search(GLOB_CHAR));
  const tail = (p: string) => { let k = p.length; while (k > 0 && !GLOB_CHAR.test(p[k - 1]!)) k--; return p.slice(k); };
  const [ha, hb, ta, tb] = [head(a), head(b), tail(a), tail(b)];
  return (ha.startsWith(hb) || hb.startsWith(ha)) && (ta.endsWith(tb) || tb.endsWith(ta));
}

/** Characters that make a glob segment match more than its own text. */
const GLOB_CHAR = /[*?[\]{}()!+@\\]/;

/** Compiled glob segments of paths (compiling one costs more than the rest of a check): the last 256 are kept. */
const GLOB_MATCHERS = new Map<string, (name: string) => boolean>();

function globMatcher(pattern: string): (name: string) => boolean {
  let isMatch = GLOB_MATCHERS.get(pattern);
  if (!isMatch) {
    // Bash negates a bracket with `!` (`.s[!x]h`), micromatch with `^`.
    isMatch = micromatch.matcher(pattern.replace(/\[!/g, '[^'), { dot: false });
    if (GLOB_MATCHERS.size >= 256) GLOB_MATCHERS.delete(GLOB_MATCHERS.keys().next().value!);
    GLOB_MATCHERS.set(pattern, isMatch);
  }
  return isMatch;
}

/** The absolute template of a path, resolved against a directory (itself relative to cwd); `..` still in it. */
function absoluteTemplate(template: string, base: string | undefined, ctx: PathContext): string {
  const expanded = knownVariables(expandTilde(template, ctx.home), ctx);
  // A leading variable may itself be absolute (`$X/.aws/credentials`): its dyn segment stands for any prefix.
  if (expanded.startsWith('/') || expanded.startsWith(DYN_OPEN)) return expanded;
  const dir = base === undefined ? ctx.cwd : base.startsWith('/') ? base : `${ctx.cwd}/${base}`;
  return `${escapeLiteral(dir.replace(/^~(?=\/|$)/, ctx.home))}/${expanded}`;
}

/**
 * The literal names an absolute template starts with, as a path (escapes removed, `..` kept: after a symlink it
 * climbs from the link's target, not from where the link is), and the template from the first name that is not
 * literal (a glob, a variable, `**`) on. `/tmp/h/**` → `/tmp/h` and `**`.
 */
function literalPrefix(template: string): { prefix: string; rest: string } {
  let prefix = '';
  let from = 0;
  let text = '';
  for (let i = 0; i <= template.length; i++) {
    const c = template[i];
    if (c === '\\' && i + 1 < template.length) { text += template[++i]; continue; }
    if (c === DYN_OPEN || c === DEEP || c === '*' || c === '?' || c === '[') return { prefix, rest: template.slice(from) };
    if (c !== '/' && c !== undefined) { text += c; continue; }
    if (text !== '') prefix += `/${text}`;
    text = '';
    from = i + 1;
  }
  return { prefix, rest: '' };
}

// toolgate's own variable names its data directory: `cat "$TOOLGATE_DATA_DIR/tokens.json"` is a certain hit.
const DATA_DIR_VARIABLE = new RegExp(`^${DYN_OPEN}\\$(?:TOOLGATE_DATA_DIR|\\\\\\{TOOLGATE_DATA_DIR\\\\\\})${DYN_CLOSE}`);

/** Replaces a leading variable whose value toolgate knows (its data directory) by that value. */
function knownVariables(template: string, ctx: PathContext): string {
  return ctx.dataDir && template.startsWith(DYN_OPEN) ? template.replace(DATA_DIR_VARIABLE, escapeLiteral(ctx.dataDir)) : template;
}

/** `/proc/<pid>/root` (a way back to `/` through any process's root) or `…/cwd`, in a template (`/proc/$$/root`, a glob for the pid, `/proc/self/task/1/cwd`). */
const PROC_LINK = /^\/proc\/(?:[^/]+\/task\/)?[^/]+\/(root|cwd)(?=\/|$)/;

/** The realpath of a literal path, or of its nearest existing ancestor with the rest appended. */
function realpathNearest(path: string, realpath: (p: string) => string | undefined): string | undefined {
  let head = path;
  let tail = '';
  while (head !== '' && head !== '/') {
    const real = realpath(head);
    if (real !== undefined) return real + tail;
    const cut = head.lastIndexOf('/');
    tail = head.slice(cut) + tail;
    head = head.slice(0, cut);
  }
  return undefined;
}

/** The first protected root a template reaches (also through symlinks), or undefined. */
/** `/proc/<a word not known before it runs>/environ` (the template marks the unknown part with U+0000 … U+0001). */
const PROC_ENVIRON_OF_ANY_PID = /^\/proc\/\u0000[^\u0001/]*\u0001\/environ$/;

function check(template: string, display: string, base: string | undefined, ctx: PathContext, roots: RootSet): ProtectedHit | undefined {
  const absolute = absoluteTemplate(template, base, ctx);
  const segs = templateSegs(absolute);
  // `/proc/$(pidof postgres)/environ`: whatever pid the substitution gives, it names a process's environment.
  let certain = PROC_ENVIRON_OF_ANY_PID.test(absolute);
  if (!certain) { certain = true; for (const s of segs) if (s.kind === 'dyn') certain = false; }
  const candidates: { segs: Seg[]; certain: boolean }[] = [{ segs, certain }];
  // `/proc/<pid>/root/…` is `/…`; `/proc/<pid>/cwd/…` is below some directory (any pid: `self`, `$$`, a glob).
  const proc = PROC_LINK.exec(template);
  if (proc) {
    const rest = template.slice(proc[0].length);
    if (proc[1] === 'root') {
      const below = templateSegs(rest || '/');
      candidates.push({ segs: below, certain: !below.some((s) => s.kind === 'dyn') });
    } else candidates.push({ segs: templateSegs(`${DEEP}${rest}`), certain: false });
  }
  // Through symlinks on the host: the literal names the path starts with, resolved where they exist, with the rest
  // below them. `grep -r x /tmp/h` after `ln -s ~ /tmp/h` reads the home (`**` below it reaches ~/.ssh), and
  // `/tmp/p/../.toolgate` after `ln -s ~/proj /tmp/p` is ~/.toolgate, not /tmp/.toolgate.
  if (ctx.realpath) {
    const { prefix, rest } = literalPrefix(absolute);
    const real = prefix === '' ? undefined : realpathNearest(prefix, ctx.realpath);
    // A path without symlinks is its own realpath: the same segments would reach the same roots.
    if (real && real !== posix.resolve(prefix)) candidates.push({ segs: templateSegs(rest === '' ? escapeLiteral(real) : `${escapeLiteral(real)}/${rest}`), certain });
  }
  // Each root gets its own budget of steps (one object, reset per root).
  const budget = { left: 0 };
  for (const cand of candidates) {
    for (const root of rootsFor(cand.segs, roots)) {
      budget.left = REACH_BUDGET;
      if (root.open && openInside(cand.segs, root)) continue;
      if (reaches(cand.segs, root.segs, 0, 0, budget)) return { path: display, protectedBy: root.protectedBy, reason: root.reason, certain: cand.certain };
    }
  }
  return undefined;
}

/** A literal path naming one of the files a protected directory leaves open, right inside it (`~/.ssh/id_rsa.pub`). */
function openInside(segs: Seg[], root: Root): boolean {
  if (segs.length !== root.segs.length + 1 || !segs.every((s) => s.kind === 'lit')) return false;
  const last = segs.at(-1) as { kind: 'lit'; text: string };
  if (!root.open!(last.text)) return false;
  const budget = { left: REACH_BUDGET };
  return reaches(segs.slice(0, -1), root.segs, 0, 0, budget);
}

/** What rawTemplate rewrites: variables, and characters a template reads as syntax. */
const RAW_SPECIAL = /[$\\{},=~]/;

/** Template of a path as a file tool gives it: `~`, `$HOME`, `${HOME}` expand; other variables are unknown. */
function rawTemplate(raw: string, home: string): string {
  if (!RAW_SPECIAL.test(raw)) return raw; // most paths: nothing to expand or escape
  let out = '';
  const re = /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g;
  let last = 0;
  for (const m of raw.matchAll(re)) {
    out += raw.slice(last, m.index).replace(/[\\{},=~]/g, '\\$&');
    out += m[1] === 'HOME' ? escapeLiteral(home) : DYN_OPEN + escapeLiteral(m[0]) + DYN_CLOSE;
    last = m.index + m[0].length;
  }
  out += raw.slice(last).replace(/[\\{},=~]/g, '\\$&');
  return raw.startsWith('~') ? '~' + out.slice(2) : out;
}

/**
 * The protected place a file tool's path argument reaches (with `recursive`, or anything below it), if any. With
 * `toolGlob` the path is a pattern the tool expands (Glob; see toolGlobTemplate).
 */
export function protectedPathFor(rawPath: string, ctx: PathContext, recursive = false, toolGlob = false): ProtectedHit | undefined {
  let template = rawTemplate(rawPath, ctx.home);
  if (toolGlob) template = toolGlobTemplate(template);
  return check(recursive ? `${template.replace(/\/+$/, '')}/${DEEP}` : template, rawPath, undefined, ctx, protectedRoots(ctx));
}

/**
 * What a file tool's glob can list, as a template. It lists names, not contents: like `find DIR -name PATTERN`, a
 * glob whose last part names no secret (`~/**\/*.ts`) shows only what is in the directory before its first glob
 * part, which is checked itself; one that names a secret or a secret place (`**\/id_rsa`, `~/.aws/*`) is read as
 * the tool expands it: `**` for any directories, `*` and `?` matching a leading dot.
 */
function toolGlobTemplate(template: string): string {
  const segments = template.split('/');
  const first = segments.findIndex((s) => /[*?[]/.test(s));
  if (first < 0) return template;
  if (!namesSecret(segments.at(-1)!, template)) return segments.slice(0, first).join('/') || '.';
  return segments.map((s) => (s === '**' ? DEEP : /^[*?[]/.test(s) ? `{.,}${s}` : s)).join('/');
}

/** The first certain protected hit among the paths a bash command touches, else the first uncertain one. */
export function protectedShellPath(analysis: ShellAnalysis, ctx: PathContext): ProtectedHit | undefined {
  const roots = protectedRoots(ctx);
  let uncertain: ProtectedHit | undefined;
  for (const p of analysis.paths) {
    const hit = check(shellPathTemplate(p), p.path, p.base, ctx, roots);
    if (hit?.certain) return hit;
    uncertain ??= hit;
  }
  return uncertain;
}

function shellPathTemplate(p: ShellPath): string {
  if (p.template !== undefined) return p.template;
  return p.glob || p.dynamic ? rawTemplate(p.path, '') : escapeLiteral(p.path);
}
