// Reads a project's git config for the engine (which does no I/O): whether a remote URL holds a credential
// (`url = https://user:TOKEN@github.com/o/r.git`), so that printing it (`git remote -v`) is judged a secret read.
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Options for `projectRemoteCredentials`. */
export interface ProjectRemoteCredentialsOptions {
  /** Config files larger than this are not read (a repository's config is a few hundred bytes). */
  maxBytes?: number;
  /** Directories remembered at once. */
  maxEntries?: number;
  /** How many directories up from the working directory the repository's `.git` is looked for. */
  maxDepth?: number;
}

/** Commands that may print a remote's URL: only these need the config (a stat or two per decision otherwise). */
const MAY_PRINT_REMOTE = /\bremote\b|\bconfig\b|\.git\/config/;

/**
 * A URL with a credential in it: a password after the user (`https://user:pw@host`), or a user that is a token
 * (`https://ghp_…@github.com`, `https://x-access-token:…@`, `https://oauth2:…@gitlab.com`, a long opaque string).
 */
const CREDENTIAL_URL = /^\s*(push)?url\s*=\s*"?[a-z][a-z0-9+.-]*:\/\/([^/@\s"]+)@/i;
const TOKEN_USER = /^(gh[pousr]_|github_pat_|glpat-|x-access-token|oauth2|gitlab-ci-token)|^[A-Za-z0-9_-]{30,}$/;

/** Whether a git config's text holds a remote URL with a credential in it. */
export function configHasRemoteCredential(text: string): boolean {
  for (const line of text.split(/\r?\n/)) {
    const user = CREDENTIAL_URL.exec(line)?.[2];
    if (user !== undefined && (/:[^:]+/.test(user) || TOKEN_USER.test(user))) return true;
  }
  return false;
}

/**
 * A reader of the git config of the repository `cwd` is in (its `.git` directory, or the one a `.git` file points
 * to, and a worktree's common directory): true when a remote URL there holds a credential. A file's answer is read
 * again only when its mtime or size changes.
 */
export function projectRemoteCredentials({
  maxBytes = 64 * 1024,
  maxEntries = 64,
  maxDepth = 8,
}: ProjectRemoteCredentialsOptions = {}): (cwd: string, command: string) => boolean {
  const cache = new Map<string, { stamp: string; found: boolean }>();
  const read = (file: string): boolean => {
    const s = statSync(file, { throwIfNoEntry: false });
    if (!s?.isFile() || s.size > maxBytes) return false;
    const stamp = `${s.mtimeMs}:${s.size}`;
    const hit = cache.get(file);
    if (hit?.stamp === stamp) return hit.found;
    const found = configHasRemoteCredential(readFileSync(file, 'utf8').slice(0, maxBytes));
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.delete(file);
    cache.set(file, { stamp, found });
    return found;
  };
  return (cwd, command) => {
    if (!MAY_PRINT_REMOTE.test(command) || !isAbsolute(cwd)) return false;
    try {
      const gitDir = findGitDir(cwd, maxDepth);
      if (gitDir === undefined) return false;
      if (read(join(gitDir, 'config'))) return true;
      // A linked worktree keeps the remotes in the main repository's config (`commondir`).
      const common = statSync(join(gitDir, 'commondir'), { throwIfNoEntry: false })?.isFile()
        ? readFileSync(join(gitDir, 'commondir'), 'utf8').trim()
        : undefined;
      return common !== undefined && common !== '' && read(join(resolve(gitDir, common), 'config'));
    } catch {
      return false;
    }
  };
}

/** The git directory of the repository `cwd` is in: the first `.git` up the tree (a directory, or a `gitdir:` file). */
function findGitDir(cwd: string, maxDepth: number): string | undefined {
  let dir = cwd;
  for (let depth = 0; depth <= maxDepth; depth++) {
    const dotGit = join(dir, '.git');
    const s = statSync(dotGit, { throwIfNoEntry: false });
    if (s?.isDirectory()) return dotGit;
    if (s?.isFile() && s.size < 4096) {
      const target = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      return target ? resolve(dir, target) : undefined;
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}
