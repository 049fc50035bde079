// A .gitignore's patterns, applied to a path relative to the directory the file is in (gitignore(5), the parts used).
import micromatch from 'micromatch';

interface IgnoreRule {
  negate: boolean;
  dirOnly: boolean;
  /** Matches the whole relative path (the pattern has a `/` before its end), else any one segment's name. */
  anchored: boolean;
  test: (path: string) => boolean;
  /** The first segment of an anchored pattern, as a matcher (a negation re-including below a path starts there). */
  head: (segment: string) => boolean;
}

/** Lines longer than this, or more lines than MAX_RULES, are not read (the service bounds the file's size too). */
const MAX_LINE = 512;
const MAX_RULES = 1_000;

/** Patterns that ignore everything (`*`, `/*`, `**`): a project that ignores all says nothing about what is disposable. */
const EVERYTHING = /^\/?(\*\*?\/?)+$/;

/** The rules of a .gitignore's lines; comments, blank lines and catch-all patterns left out. */
export function compileGitignore(lines: readonly string[]): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of lines.slice(0, MAX_RULES)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#') || line.length > MAX_LINE) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    line = line.replace(/^\\([#!])/, '$1');
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.replace(/\/+$/, '');
    if (line === '' || (!negate && EVERYTHING.test(line))) continue;
    const anchored = line.includes('/');
    const pattern = line.replace(/^\//, '');
    rules.push({
      negate,
      dirOnly,
      anchored,
      test: micromatch.matcher(pattern, { dot: true }),
      head: micromatch.matcher(pattern.split('/')[0]!, { dot: true }),
    });
  }
  return rules;
}

/**
 * Whether git ignores `segments` (a path inside the directory): some directory on the way, or the path itself
 * (taken to be a directory when `dir`), is matched last by a pattern that is not a negation. Any negation that
 * could re-include something below the path (`!build/keep.txt`, or an unanchored `!keep`) makes the answer no.
 */
export function ignoredByGitignore(rules: readonly IgnoreRule[], segments: readonly string[]): boolean {
  for (let k = 1; k <= segments.length; k++) {
    const path = segments.slice(0, k).join('/');
    let ignored = false;
    for (const r of rules) if (matches(r, path, segments[k - 1]!)) ignored = !r.negate;
    if (ignored) return !rules.some((r) => r.negate && (!r.anchored || r.head(segments[0]!)));
  }
  return false;
}

function matches(r: IgnoreRule, path: string, name: string): boolean {
  return r.anchored ? r.test(path) : r.test(name);
}
