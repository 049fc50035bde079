// The paths one command touches: redirection targets, its operands and option values (what each program's operands
// are comes from its entry in operands.ts), files named inside its text or by `@file` and `file:` URLs, paths in
// inline code, and the trees it reads whole.
import type { ShellPath } from './types.ts';
import type { CommandView, Redirect } from './view.ts';
import type { Word } from './word.ts';
import { PRINTERS } from '../catalog/programs.ts';
import { POWERSHELL, inlineCode, powershellPaths } from '../catalog/inline-code.ts';
import { EDITORS } from '../catalog/danger-exec.ts';
import { editorFiles } from './editor-files.ts';
import { decodePercent, fileUrlPath } from '../file-url.ts';
import { PROTECTED_IN_HOME } from '../catalog/protected-dirs.ts';
import { DEEP, escapeLiteral, expandTilde, templateIsDynamic, templateValue } from './template.ts';
import { below, shellPath, treePath, wordPath } from './shell-path.ts';
import { operandEntryFor } from './operands.ts';
import { plainOperands } from './operands/support.ts';

export { wordPath } from './shell-path.ts';
export { treeOperands } from './operands.ts';
export { findRootRange, findRoots, LIST_FILTERS, listedTreePaths, NAMES_ONLY, namesSecret } from './find-paths.ts';

/**
 * The path an exported or prefix assignment hands the programs it starts (`K=~/.aws/credentials python3 …`), when its
 * value is one static word naming a place from the root or the home; `GIT_DIR` and `GIT_WORK_TREE` hand git a whole
 * tree (`GIT_WORK_TREE=$HOME git add .`).
 */
export function assignedPaths(
  name: string,
  words: Word[],
  command: string,
  base: string | undefined,
  home: string,
): ShellPath[] {
  if (words.length !== 1 || words[0]!.dynamic) return [];
  const word = words[0]!;
  if (/^(GIT_DIR|GIT_WORK_TREE)$/.test(name))
    return word.value === '' ? [] : [treePath(word, command, base, expandTilde(word.template, home))];
  // `KUBECONFIG=~/.kube/config:~/.kube/staging.yaml`: a list of paths (each part from the root, the home or with a `/`).
  const parts =
    word.template.includes(':') && !word.template.includes('://') ? word.template.split(':') : [word.template];
  const out: ShellPath[] = [];
  for (const part of parts) {
    const template = expandTilde(part, home);
    // A path from the root or the home, or a relative one with a directory in it (`.aws/credentials` after `cd ~`).
    if (
      template.startsWith('/') ||
      (template.includes('/') && !template.includes('=') && !/^[a-z][\w+.-]*:/i.test(template))
    )
      out.push({ ...wordPath(word, command, base), path: templateValue(template), template });
  }
  return out;
}

/** Index of the first unescaped `=` in a template, or -1. */
function assignmentSplit(t: string): number {
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '\\') {
      i++;
      continue;
    }
    if (t[i] === '=') return i;
  }
  return -1;
}

/** An option that gives the pattern or the program, so that no operand is one: `-e P`, `-eP`, `--regexp=P`, `--source=P`. */
const PATTERN_GIVEN = /^(-e|-f|--regexp|--file|--expression|--source)$|^-[ef].|^--(regexp|expression|file|source)=/;
/** A path glued to a one-letter option, after an optional `@` (`-Fname=@path` is the `=` split's): the path is group 1. */
const GLUED_PATH = /^-[a-zA-Z]@?([/~].*)$/;
/** Options that name the directory a program works in (for the programs whose entry has `directory`). */
const DIRECTORY_OPTIONS = new Set(['-C', '--directory', '--work-tree', '--git-dir']);

/** Every path the command reads or writes, as ShellPaths relative to `base` (the directory after `cd`). */
export function commandPaths(view: CommandView, redirects: Redirect[], base: string | undefined): ShellPath[] {
  const out: ShellPath[] = [];
  for (const r of redirects)
    if (r.target && !/^\d+$|^-$/.test(r.target.value)) out.push(shellPath(r.target, 'redirect', view, base));
  const { program } = view;
  // `test -f ~/.ssh/id_rsa` asks whether a file exists, as `[ -f … ]` does: no file is read.
  if (PRINTERS.has(program) || program === 'test' || view.words.length === 0) return out;
  const entry = operandEntryFor(program);
  operandPaths(out, view, base);
  // `curl -d @file`, `-F name=@file` (quoted too: the program splits at `=`), `--data-urlencode name@file`,
  // `gh api -F body=@file`, HTTPie's `field@/path`: the file after `@` is read and sent.
  for (let i = 0, n = out.length; i < n; i++) {
    const t = out[i]!.template;
    const at = t === undefined ? null : /^(?:[\w.\\[\]-]*\\?=)?@(?=.)|^[\w.-]+@(?=[~/.]|\\~)/.exec(t);
    if (at)
      out.push(
        shellPath(
          t!.slice(at[0].length),
          out[i]!.kind,
          view,
          base,
          expandTilde(t!.slice(at[0].length).replace(/^\\~/, '~'), view.home),
        ),
      );
  }
  for (const p of entry?.textPaths?.(view) ?? [])
    out.push(shellPath(p, 'argument', view, base, expandTilde(escapeLiteral(p), view.home)));
  // Files vim's commands open: the editor expands globs in them (`:e ~/.ss?/id_rsa`).
  if (EDITORS.test(program)) {
    for (const p of editorFiles(view, view.home))
      out.push(shellPath(p, 'argument', view, base, escapeLiteral(p).replace(/\\([*?[\]])/g, '$1')));
  }
  // `curl file:///root/.ssh/id_rsa`, `lynx -dump file://…`, `git clone file:///…`: the local file a file: URL names.
  for (let w = 1; w < view.words.length; w++) {
    const word = view.words[w]!;
    if (!word.dynamic && /^file:/i.test(word.value))
      for (const t of fileUrlTemplates(word.value)) out.push(shellPath(word, 'argument', view, base, t));
  }
  for (const code of inlineCode(view)) {
    out.push(...codePaths(code.code, view, base));
    // (PowerShell names paths as bare words: `Get-Content ~/.ssh/id_rsa`, `gc $env:USERPROFILE\.aws\credentials`.)
    if (POWERSHELL.test(code.language))
      for (const p of powershellPaths(code.code))
        out.push(shellPath(p, 'argument', view, base, expandTilde(p[0] + escapeLiteral(p.slice(1)), view.home)));
  }
  if (entry?.listedSecrets) out.push(...entry.listedSecrets(view, base));
  // `cd ~ && python3 -m http.server`, `git add -A` in the home: everything below a directory is served or committed.
  const tree = entry?.wholeTree?.(view);
  if (tree !== undefined)
    out.push(
      shellPath(tree, 'argument', view, base, below(tree === '.' ? '.' : expandTilde(escapeLiteral(tree), view.home))),
    );
  if (entry?.readsTree?.(view.args)) {
    // Everything below each operand is read: a home (or /) given here reaches its ~/.ssh and friends.
    const rest = view.words.slice(1);
    const operands = entry.treeOperands?.(rest) ?? plainOperands(rest);
    const reads =
      entry.treeReads?.(rest, operands, view.home) ?? operands.map((word) => ({ word, template: word.template }));
    for (const m of reads) out.push(shellPath(m.word, 'argument', view, base, below(m.template)));
    if (entry.searchesCwd?.(operands, view.args)) out.push(shellPath('.', 'argument', view, base, `./${DEEP}`));
  }
  return out;
}

/** The command's operands and option values that are paths, as its entry in operands.ts says. */
function operandPaths(out: ShellPath[], view: CommandView, base: string | undefined): void {
  const entry = operandEntryFor(view.program);
  const kind: ShellPath['kind'] = entry?.movesTo ? 'cwd' : 'argument';
  const worksIn = entry?.directory === 'tree';
  // The pattern (or code) given by an option — also glued to it (`-e.`, `--regexp=.`, perl's `-pe1`) — leaves no
  // pattern operand: the first operand is then a file.
  let skipPattern =
    entry?.patternFirst === true && !view.args.some((a) => PATTERN_GIVEN.test(a) || entry.codeGiven?.test(a) === true);
  for (let w = 1; w < view.words.length; w++) {
    const word = view.words[w]!;
    const t = word.template;
    const eq = assignmentSplit(t);
    if (word.value.startsWith('-')) {
      if (eq > 0) out.push(shellPath(word, kind, view, base, expandTilde(t.slice(eq + 1), view.home)));
      // A path glued to a short option: `curl -d@/root/x`, `-T/root/x`, `xargs -a/root/x`.
      const glued = GLUED_PATH.exec(word.value);
      if (glued && !word.dynamic) {
        const path = expandTilde(escapeLiteral(glued[1]!), view.home);
        out.push(shellPath(word, kind, view, base, worksIn && word.value.startsWith('-C') ? below(path) : path));
      }
      if (eq > 0 && worksIn && /^--(directory|work-tree|git-dir)=/.test(word.value)) {
        out.push(shellPath(word, kind, view, base, below(expandTilde(t.slice(eq + 1), view.home))));
      }
      // `docker run --volume=~/.ssh:/k`, `--mount=type=bind,src=…`: as the two-word forms below.
      if (eq > 0 && entry?.mountsVolumes && /^--(volume|mount)=/.test(word.value))
        out.push(...volumePaths(word, t.slice(eq + 1), kind, view, base));
      continue;
    }
    // `git -C DIR`, `tar -C DIR`/`--directory DIR`, `make -C DIR`, `--work-tree DIR`: a directory the command works
    // in, read below (and no subcommand or pattern).
    if (w > 1 && DIRECTORY_OPTIONS.has(view.words[w - 1]!.value) && entry?.directory !== undefined) {
      // tar's `-C DIR` is where the members named after it are found (tarMembers), or where an archive is unpacked.
      out.push(shellPath(word, kind, view, base, worksIn ? below(t) : undefined));
      continue;
    }
    // `kubectl --kubeconfig "$KUBECONFIG" get pods`: the tool's own default credentials handed back to it (it reads
    // them by itself anyway), not a file read for the agent; a named kubeconfig (`/etc/kubernetes/admin.conf`) counts.
    if (
      entry?.ownKubeconfig &&
      view.words[w - 1]!.value === '--kubeconfig' &&
      /^"?\$\{?KUBECONFIG\}?"?$/.test(word.source)
    )
      continue;
    if (skipPattern && !entry?.valuesBeforePattern?.test(view.words[w - 1]!.value)) {
      skipPattern = false;
      continue;
    }
    out.push(shellPath(word, kind, view, base));
    if (eq > 0 && /^[A-Za-z_][\w.-]*$/.test(t.slice(0, eq)))
      out.push(shellPath(word, kind, view, base, expandTilde(t.slice(eq + 1), view.home)));
    // `-v ~/.ssh:/keys`, `--mount type=bind,src=…`: most words have neither.
    if (t.includes(':') || (entry?.mountsVolumes && t.includes('=')))
      out.push(...volumePaths(word, t, kind, view, base));
  }
}

/**
 * The paths a `file:` URL reads, as templates: percent-escapes decoded, curl's URL globs kept (`[r-t]` live, `{a,b}`
 * as two paths).
 */
function fileUrlTemplates(url: string): string[] {
  const path = /[[\]{}*?]/.test(url) ? url.replace(/^file:(\/\/[^/]*)?/i, '') : fileUrlPath(url);
  if (!path) return [];
  const decoded = decodePercent(path);
  const brace = /\{([^{}]*)\}/.exec(decoded);
  const alternatives = brace
    ? brace[1]!
        .split(',')
        .map((alt) => decoded.slice(0, brace.index) + alt + decoded.slice(brace.index + brace[0].length))
    : [decoded];
  return alternatives.map((p) => escapeLiteral(p).replace(/\\([*?[\]])/g, '$1'));
}

/**
 * The local side of a container's volume: `-v ~/.ssh:/keys` (`SRC:DST`, the part before the colon) and `--mount
 * type=bind,src=/root,dst=/h` — readable as a whole tree (`docker run -v ~:/h …` reaches ~/.ssh). For other programs
 * a `SRC:DST` pair's source is a path.
 */
function volumePaths(
  word: Word,
  t: string,
  kind: ShellPath['kind'],
  view: CommandView,
  base: string | undefined,
): ShellPath[] {
  const out: ShellPath[] = [];
  const container = operandEntryFor(view.program)?.mountsVolumes === true;
  const colon = t.indexOf(':');
  if (colon > 0 && !t.includes('://') && /^[~/.$\u0000]/.test(t)) {
    const source = expandTilde(t.slice(0, colon), view.home);
    // (Not a source only known at run time: `-v $PWD:/app` is the usual way to mount the project.)
    const tree = container && !templateIsDynamic(source);
    out.push(shellPath(word, kind, view, base, tree ? below(source) : source));
  }
  // (`volume-opt=device=/root/.ssh` binds a host directory through a local volume.)
  const mountSource = container
    ? /(?:^|,)(?:src|source|volume-opt=device|device)=([^,]+)/.exec(templateValue(t))
    : null;
  if (mountSource)
    out.push(
      shellPath(mountSource[1]!, kind, view, base, below(expandTilde(escapeLiteral(mountSource[1]!), view.home))),
    );
  return out;
}

/** Protected names as they appear in code that builds a path from the home (`homedir() + '/.ssh/id_rsa'`). */
// Entries may be globs (`.minikube/*.key`): regex characters are escaped and `*` matches within one name.
const PROTECTED_IN_CODE = new RegExp(
  `(^|/)(${PROTECTED_IN_HOME.map((e) => e.relative.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('|')})(/|$)`,
);

/** A `/proc/<pid>/environ` (or `mem`) path code builds from a pid it is given: group 1 or 2 is the file. */
const PROC_PATH_IN_CODE =
  /["'`]\/proc\/?["'`]\s*[+,.]\s*[^;\n]{1,60}?[+,.]\s*["'`]\/?(environ|mem)["'`]|`\/proc\/\$\{[^`}]{1,40}\}\/(environ|mem)`/;

/** Paths in the string literals of inline code: absolute or `~` paths, and protected names joined to a home. */
function codePaths(code: string, view: CommandView, base: string | undefined): ShellPath[] {
  const out: ShellPath[] = [];
  for (const m of code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g)) {
    const literal = m[1] ?? m[2] ?? '';
    if (/^[~/]/.test(literal))
      out.push(
        shellPath(
          literal,
          'argument',
          view,
          base,
          expandTilde(literal[0] + escapeLiteral(literal.slice(1)), view.home),
        ),
      );
    const named = PROTECTED_IN_CODE.exec(literal);
    if (named) {
      out.push(
        shellPath(
          literal,
          'argument',
          view,
          base,
          `${escapeLiteral(view.home)}/${escapeLiteral(literal.slice(named.index + named[1]!.length))}`,
        ),
      );
    }
  }
  // A process's environment or memory by a path built around its pid (round 7): `'/proc/' + pid + '/environ'`,
  // `os.path.join('/proc', pid, 'environ')`, `` `/proc/${pid}/mem` ``, PHP's and Perl's `"/proc/" . $pid . "/environ"`.
  const proc = PROC_PATH_IN_CODE.exec(code);
  if (proc) out.push(shellPath(proc[0], 'argument', view, base, escapeLiteral(`/proc/{pid}/${proc[1] ?? proc[2]}`)));
  return out;
}
