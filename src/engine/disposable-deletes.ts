// Recursive deletes of disposable build output inside the working directory are not asked about (issue 26).
import type { ShellAnalysis } from './shell/types.ts';
import type { Finding } from './types.ts';
import { absolutePath, relativeToDir } from './paths.ts';
import { disposablePath, neverDisposable } from './catalog/disposable-output.ts';
import { compileGitignore, ignoredByGitignore } from './gitignore.ts';
import { isSystemPath } from './catalog/sensitive-targets.ts';

/** What the judgement needs of the call: the engine reads no file, the service hands it what it read. */
export interface DeleteContext {
  home: string;
  /** The call's working directory (absolute); without one nothing is disposable. */
  cwd: string | undefined;
  /** Resolves symlinks where the path exists (the service's `realpath`). */
  realpath?: (path: string) => string | undefined;
  /** The lines of `<cwd>/.gitignore`, when the service could read it. */
  gitignore?: readonly string[];
  /** The service found a credential in a remote URL of the project's git config (a finding `when` it counts). */
  remoteCredentials?: boolean;
}

/** Characters that leave a path unknown or reaching elsewhere: variables, substitutions, find's `{}`, home, history. */
const UNKNOWN = /[$`\\{}!]|\0/;

/**
 * The findings without the deletes whose every path is disposable build output inside the working directory
 * (findings carrying `deletes`, from `rm -r`, `rimraf`, `find -delete` / `-exec rm`). The `deletes` field never
 * leaves: kept findings are copied without it.
 */
export function withoutDisposableDeletes(
  findings: Finding[],
  analysis: ShellAnalysis | undefined,
  ctx: DeleteContext,
): Finding[] {
  if (!findings.some((f) => f.deletes || f.inProject || f.overwrites || f.when)) return findings;
  const unknowable = movesUnknowably(analysis);
  const disposable = unknowable ? undefined : pathJudge(ctx, true);
  const inside = unknowable ? undefined : pathJudge(ctx, false);
  // `rm -rf deps && mix deps.get`: the call fetches the Mix dependencies again itself.
  const refetches = analysis?.commands.some((c) => c.program === 'mix' && c.argv[1] === 'deps.get') ?? false;
  const out: Finding[] = [];
  for (const f of findings) {
    if (f.when === 'remote-credentials' && !ctx.remoteCredentials) continue;
    if (!f.deletes && !f.inProject && !f.overwrites && !f.when) out.push(f);
    else if (f.overwrites && inside && f.overwrites.every((p) => notThere(p, f.presumedNew ?? [], inside, ctx)))
      continue;
    else if (
      f.deletes &&
      disposable &&
      inside &&
      f.deletes.every(
        (p) => disposable(p) || ((dotnetBin(p, f.deletes!) || mixDeps(p, f.deletes!, refetches)) && inside(p)),
      )
    )
      continue;
    else if (f.inProject && inside && f.inProject.every(inside)) continue;
    else {
      const { deletes: _d, inProject: _i, overwrites: _o, presumedNew: _n, when: _w, ...kept } = f;
      out.push(kept);
    }
  }
  return out;
}

/**
 * `rm -rf bin/ obj/`: a `bin` deleted with the `obj` beside it is .NET's build output (MSBuild writes both; a `bin`
 * alone may hold a project's scripts, so it alone stays asked about unless the .gitignore says it is output).
 */
function dotnetBin(path: string, deleted: readonly string[]): boolean {
  const p = path.replace(/\/+$/, '');
  if (!/(^|\/)bin$/.test(p)) return false;
  const obj = p.replace(/bin$/, 'obj');
  return deleted.some((q) => q.replace(/\/+$/, '') === obj);
}

/**
 * `rm -rf _build deps`: a `deps` deleted with the `_build` beside it is a Mix (Elixir) project's fetched
 * dependencies — `mix deps.get` fetches them again from mix.lock. So is a `deps` the same call fetches again
 * (`rm -rf deps && mix deps.get`). A `deps` alone may be anything, so it stays asked.
 */
function mixDeps(path: string, deleted: readonly string[], refetched: boolean): boolean {
  const p = path.replace(/\/+$/, '');
  if (!/(^|\/)deps$/.test(p)) return false;
  if (refetched && /^(\.\/)?deps$/.test(p)) return true;
  const build = p.replace(/deps$/, '_build');
  return deleted.some((q) => q.replace(/\/+$/, '') === build);
}

/**
 * `cd -`, `popd` and `pushd` with no directory go where the shell was before the call, which the analysis does not
 * know: it takes them for the working directory, so no delete after one is judged disposable.
 */
function movesUnknowably(analysis: ShellAnalysis | undefined): boolean {
  return (
    analysis?.commands.some(
      (c) =>
        c.program === 'popd' ||
        ((c.program === 'cd' || c.program === 'pushd') &&
          (c.argv[1] === '-' || (c.program === 'pushd' && c.argv.length === 1))),
    ) ?? true
  );
}

/**
 * A test of one path, for this call's directory: inside it (and, with `disposable`, build output); undefined when
 * the directory itself is no project.
 */
function pathJudge(ctx: DeleteContext, disposable: boolean): ((path: string) => boolean) | undefined {
  if (ctx.cwd === undefined) return undefined;
  const cwd = absolutePath(ctx.cwd, ctx.home);
  // A home, `/` or a directory right below `/` is no project: `rm -rf ~/build` from home stays asked.
  if (cwd === absolutePath(ctx.home, ctx.home) || /^\/[^/]*$/.test(cwd) || isSystemPath(cwd)) return undefined;
  const realCwd = ctx.realpath?.(cwd) ?? cwd;
  let ignores: ReturnType<typeof compileGitignore> | undefined;
  return (path) => {
    if (path === '' || UNKNOWN.test(path) || path.includes('~', 1) || path.split('/').includes('..')) return false;
    const rel = relativeToDir(absolutePath(path, ctx.home, cwd), cwd);
    if (rel === undefined || rel === '.') return false;
    const segments = rel.split('/');
    // `chmod +x .git/hooks/pre-commit` turns a hook on: git's own directory is never just project files.
    if (segments.includes('.git')) return false;
    // A glob that may match `..` or `.` (`.*`, `.?`, `[.]*`: bash before 5.2 lets `.*` match `..`) can leave the directory.
    // (`._*` cannot: after its dot comes a plain character.)
    if (segments.some((s) => /[*?[\]]/.test(s) && /^[.?[]/.test(s) && !/^\.[^.*?[\]]/.test(s))) return false;
    // Symlinks: the part before any glob must resolve inside the (resolved) working directory.
    const firstGlob = segments.findIndex((s) => /[*?[\]]/.test(s));
    const known = firstGlob < 0 ? segments : segments.slice(0, firstGlob);
    if (known.length > 0 && ctx.realpath) {
      const real = ctx.realpath(`${cwd}/${known.join('/')}`);
      if (real !== undefined && relativeToDir(real, realCwd) === undefined) return false;
      if (real !== undefined && relativeToDir(real, realCwd) === '.') return false;
    }
    if (!disposable || disposablePath(segments)) return true;
    if (!ctx.gitignore?.length || firstGlob === 0) return false;
    ignores ??= compileGitignore(ctx.gitignore);
    return !known.some(neverDisposable) && ignoredByGitignore(ignores, known);
  };
}

/**
 * A file written that holds nothing yet. The service's `realpath` tells: nothing at the path while its directory is
 * there. When it cannot tell — the engine on its own, or a directory this host does not have (the agent may run on
 * another machine than the sidecar) — the entry's guess by name decides (`presumedNew`: `of=fixtures/blank.img` is
 * made, `of=README.md` or `data/users.csv` is there), for a file inside the project or in /tmp; one elsewhere is there.
 */
function notThere(
  path: string,
  presumedNew: readonly string[],
  inside: (path: string) => boolean,
  ctx: DeleteContext,
): boolean {
  if (UNKNOWN.test(path) || ctx.cwd === undefined) return false;
  const abs = absolutePath(path, ctx.home, ctx.cwd);
  if (ctx.realpath) {
    if (ctx.realpath(abs) !== undefined) return false;
    const dir = abs.replace(/\/[^/]*$/, '') || '/';
    if (ctx.realpath(dir) !== undefined) return true;
  }
  return presumedNew.includes(path) && (inside(path) || /^\/(var\/)?tmp\//.test(abs));
}
