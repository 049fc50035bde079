// Protected paths: decides whether a file tool's path, or any path a bash command touches, reaches a protected place.
// The roots are protected-roots.ts's, a path's segments path-segments.ts's, the comparison path-reach.ts's.
import { posix } from 'node:path';
import type { ShellAnalysis, ShellPath } from './shell/types.ts';
import { DEEP, DYN_CLOSE, DYN_OPEN, escapeLiteral, expandTilde } from './shell/template.ts';
import { namesSecret } from './shell/find-paths.ts';
import { templateSegs, type Seg } from './path-segments.ts';
import { protectedRoots, rootsFor, type RootSet } from './protected-roots.ts';
import { openInside, reaches, REACH_BUDGET } from './path-reach.ts';

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
  let escaped = false;
  for (let i = 0; i <= template.length; i++) {
    const c = template[i];
    if (c === '\\' && i + 1 < template.length) {
      escaped = true;
      i++;
      continue;
    }
    if (c === DYN_OPEN || c === DEEP || c === '*' || c === '?' || c === '[')
      return { prefix, rest: template.slice(from) };
    if (c !== '/' && c !== undefined) continue;
    // A name without escapes is sliced from the template, not built a character at a time.
    if (i > from) prefix += `/${escaped ? unescaped(template, from, i) : template.slice(from, i)}`;
    escaped = false;
    from = i + 1;
  }
  return { prefix, rest: '' };
}

/** template[from, to) with its escapes removed. */
function unescaped(template: string, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) text += template[i] === '\\' && i + 1 < to ? template[++i] : template[i];
  return text;
}

/** Names `.` and `..`, or an empty one: what makes posix.resolve of an absolute path differ from the path. */
const NOT_NORMAL = /\/\.{0,2}(?:\/|$)/;

// toolgate's own variable names its data directory: `cat "$TOOLGATE_DATA_DIR/tokens.json"` is a certain hit.
const DATA_DIR_VARIABLE = new RegExp(
  `^${DYN_OPEN}\\$(?:TOOLGATE_DATA_DIR|\\\\\\{TOOLGATE_DATA_DIR\\\\\\})${DYN_CLOSE}`,
);

/** Replaces a leading variable whose value toolgate knows (its data directory) by that value. */
function knownVariables(template: string, ctx: PathContext): string {
  return ctx.dataDir && template.startsWith(DYN_OPEN)
    ? template.replace(DATA_DIR_VARIABLE, escapeLiteral(ctx.dataDir))
    : template;
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

/** `/proc/<a word not known before it runs>/environ` or `mem` (the template marks the unknown part with U+0000 … U+0001). */
const PROC_FILE_OF_ANY_PID = /^\/proc\/\u0000[^\u0001/]*\u0001\/(environ|mem)$/;

/** The first protected root a template reaches (also through symlinks), or undefined. */
function check(
  template: string,
  display: string,
  base: string | undefined,
  ctx: PathContext,
  roots: RootSet,
  reading = false,
): ProtectedHit | undefined {
  const absolute = absoluteTemplate(template, base, ctx);
  const segs = templateSegs(absolute);
  // `/proc/$(pidof postgres)/environ`: whatever pid the substitution gives, it names a process's environment.
  let certain = PROC_FILE_OF_ANY_PID.test(absolute);
  if (!certain) {
    certain = true;
    for (const s of segs) if (s.kind === 'dyn') certain = false;
  }
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
    if (real && real !== (NOT_NORMAL.test(prefix) ? posix.resolve(prefix) : prefix))
      candidates.push({
        segs: templateSegs(rest === '' ? escapeLiteral(real) : `${escapeLiteral(real)}/${rest}`),
        certain,
      });
  }
  // Each root gets its own budget of steps (one object, reset per root).
  const budget = { left: 0 };
  for (const cand of candidates) {
    for (const root of rootsFor(cand.segs, roots)) {
      budget.left = REACH_BUDGET;
      if (root.open && openInside(cand.segs, root)) continue;
      if (reading && root.readable && openInside(cand.segs, root, root.readable)) continue;
      if (reaches(cand.segs, root.segs, 0, 0, budget))
        return { path: display, protectedBy: root.protectedBy, reason: root.reason, certain: cand.certain };
    }
  }
  return undefined;
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
export function protectedPathFor(
  rawPath: string,
  ctx: PathContext,
  recursive = false,
  toolGlob = false,
  reading = false,
): ProtectedHit | undefined {
  let template = rawTemplate(rawPath, ctx.home);
  if (toolGlob) template = toolGlobTemplate(template);
  return check(
    recursive ? `${template.replace(/\/+$/, '')}/${DEEP}` : template,
    rawPath,
    undefined,
    ctx,
    protectedRoots(ctx),
    reading && !recursive && !toolGlob,
  );
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
  // A command that only reads may read a protected directory's readable files (`cat ~/.ssh/config`).
  const reading = analysis.ok && analysis.readOnly;
  let uncertain: ProtectedHit | undefined;
  for (const p of analysis.paths) {
    const hit = check(shellPathTemplate(p), p.path, p.base, ctx, roots, reading && p.kind !== 'redirect');
    if (hit?.certain) return hit;
    uncertain ??= hit;
  }
  return uncertain;
}

function shellPathTemplate(p: ShellPath): string {
  if (p.template !== undefined) return p.template;
  return p.glob || p.dynamic ? rawTemplate(p.path, '') : escapeLiteral(p.path);
}
