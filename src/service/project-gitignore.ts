// Reads a project's .gitignore for the engine (which does no I/O): bounded in size, cached by mtime.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Options for `projectGitignore`. */
export interface ProjectGitignoreOptions {
  /** Files larger than this are not read (a .gitignore is a few hundred bytes; 32 KiB is generous). */
  maxBytes?: number;
  /** Directories remembered at once. */
  maxEntries?: number;
}

/** Commands that may delete something: only these need the .gitignore (a stat per decision otherwise). */
const MAY_DELETE = /\b(rm|rimraf|find)\b/;

/**
 * A reader of `<cwd>/.gitignore`: its lines, or undefined when there is none, it is too large or unreadable. A
 * directory's lines are read again only when the file's mtime or size changes.
 */
export function projectGitignore({ maxBytes = 32 * 1024, maxEntries = 64 }: ProjectGitignoreOptions = {}): (
  cwd: string,
  command: string,
) => readonly string[] | undefined {
  const cache = new Map<string, { stamp: string; lines: readonly string[] | undefined }>();
  return (cwd, command) => {
    if (!MAY_DELETE.test(command) || !cwd.startsWith('/')) return undefined;
    const file = join(cwd, '.gitignore');
    let stamp: string;
    try {
      const s = statSync(file, { throwIfNoEntry: false });
      if (!s?.isFile()) return undefined;
      stamp = `${s.mtimeMs}:${s.size}`;
      if (s.size > maxBytes) return undefined;
    } catch {
      return undefined;
    }
    const hit = cache.get(cwd);
    if (hit?.stamp === stamp) return hit.lines;
    let lines: readonly string[] | undefined;
    try {
      lines = readFileSync(file, 'utf8').slice(0, maxBytes).split(/\r?\n/);
    } catch {
      lines = undefined;
    }
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.delete(cwd);
    cache.set(cwd, { stamp, lines });
    return lines;
  };
}
