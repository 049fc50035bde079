// Pure path helpers: `~` expansion and resolution against a working directory (no file system access).
import { isAbsolute, relative, resolve } from 'node:path';

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
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd ? expandHome(cwd, home) : home, expanded);
}

/** The path relative to `cwd` when it lies inside it, else undefined. */
export function relativeTo(abs: string, cwd: string | undefined, home: string): string | undefined {
  if (!cwd) return undefined;
  const rel = relative(absolutePath(cwd, home), abs);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? undefined : rel;
}
