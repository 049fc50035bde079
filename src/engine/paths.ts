// Pure path helpers: `~` expansion and resolution against a working directory (no file system access).
import { isAbsolute, relative, resolve } from 'node:path';

/** An empty, `.` or `..` segment, or a trailing slash: what `resolve` would rewrite (most paths have none). */
const NOT_NORMAL = /\/(?:\.{1,2})?(?:\/|$)/;

/** Expands a leading `~`, `$HOME` or `${HOME}` to `home`. */
export function expandHome(path: string, home: string): string {
  if (path === '~' || path.startsWith('~/')) return home + path.slice(1);
  if (path === '$HOME' || path.startsWith('$HOME/')) return home + path.slice(5);
  if (path === '${HOME}' || path.startsWith('${HOME}/')) return home + path.slice(7);
  return path;
}

/** The absolute form of a path argument: `~` expanded, resolved against `cwd` (or `home` without one), `..` collapsed. */
export function absolutePath(path: string, home: string, cwd?: string): string {
  const expanded = expandHome(path, home);
  // On the decision path for every path of every call: an absolute path that is already normal is its own
  // resolution, and a plain relative one (`src/app.ts`) joined to a normal absolute base is too.
  if (isNormalAbsolute(expanded)) return expanded;
  const base = cwd ? expandHome(cwd, home) : home;
  if (isNormalAbsolute(base) && isPlainRelative(expanded)) return base === '/' ? '/' + expanded : `${base}/${expanded}`;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
}

/** The path relative to `cwd` when it lies inside it, else undefined. */
export function relativeTo(abs: string, cwd: string | undefined, home: string): string | undefined {
  if (!cwd) return undefined;
  return relativeToDir(abs, absolutePath(cwd, home));
}

/**
 * `relativeTo` with the directory already absolute (a decision resolves its cwd once for all its paths). Both
 * normal: the answer is a slice (`..` first means outside, as `relative` would say for any path not under `dir`).
 */
export function relativeToDir(abs: string, dir: string): string | undefined {
  let rel: string;
  if (isNormalAbsolute(abs) && isNormalAbsolute(dir)) {
    if (abs === dir) return '.';
    if (dir === '/') rel = abs.slice(1);
    else if (abs.startsWith(dir) && abs.charCodeAt(dir.length) === 47 /* / */) rel = abs.slice(dir.length + 1);
    else return undefined;
  } else rel = relative(dir, abs);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? undefined : rel;
}

/** An absolute path `resolve` returns unchanged: no empty, `.` or `..` segment and no trailing slash. */
function isNormalAbsolute(path: string): boolean {
  return path.charCodeAt(0) === 47 /* / */ && (path.length === 1 || !NOT_NORMAL.test(path));
}

/** A non-empty relative path without empty, `.` or `..` segments or a trailing slash. */
function isPlainRelative(path: string): boolean {
  return path !== '' && path.charCodeAt(0) !== 47 && !NOT_NORMAL.test('/' + path);
}
