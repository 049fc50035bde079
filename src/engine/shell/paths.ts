// The paths one command touches: its arguments (and `--opt=value` values), redirection targets, and the
// files a `find` over a home would reach when its name pattern targets secrets.
import micromatch from 'micromatch';
import type { ShellPath } from './types.ts';
import type { CommandView, Redirect } from './view.ts';
import { literalWord, type Word } from './word.ts';
import { PRINTERS } from '../catalog/programs.ts';
import { optionValue } from '../catalog/flags.ts';
import { inlineCode } from '../catalog/inline-code.ts';
import { EDITORS } from '../catalog/danger-exec.ts';
import { editorFiles } from './editor-files.ts';
import { sedReadFiles, sedScripts, sedWriteFiles } from '../catalog/sed-script.ts';
import { decodePercent, fileUrlPath } from '../file-url.ts';
import { gitCommand } from '../catalog/danger-git.ts';
import { PROTECTED_IN_HOME } from '../catalog/protected-dirs.ts';
import { DEEP, escapeLiteral, expandTilde, templateHasGlob, templateIsDynamic, templateValue } from './template.ts';

/** Programs whose first operand is a pattern or a program text, not a file. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sed', 'awk', 'gawk', 'mawk', 'jq', 'yq', 'perl', 'git']);
/** File names that are secrets wherever they are. */
const SECRET_NAMES = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_rsa.pub', 'x.pem', 'x.key', 'credentials', 'config', 'known_hosts', 'authorized_keys', '.netrc', 'secring.gpg', 'pubring.kbx', 'credentials.db', 'access_tokens.db', 'application_default_credentials.json', 'kubeconfig', 'tokens.json'];
const SECRET_DIRS = /(^|[^a-z])(ssh|aws|kube|gnupg|gcloud|netrc|id_)/i;

function shellPath(word: Word | string, kind: ShellPath['kind'], view: CommandView, base: string | undefined, template?: string): ShellPath {
  const t = template ?? (typeof word === 'string' ? word : word.template);
  const p: ShellPath = { path: templateValue(t).replace(DEEP, '**'), kind, glob: templateHasGlob(t) || t.includes(DEEP), dynamic: templateIsDynamic(t), command: view.text, template: t };
  if (base !== undefined) p.base = base;
  return p;
}

/** A word a loop or a glob reads as paths outside any command (`for f in ~/.ssh/*`). */
export function wordPath(word: Word, command: string, base: string | undefined): ShellPath {
  const p: ShellPath = { path: templateValue(word.template), kind: 'argument', glob: word.glob, dynamic: word.dynamic, command, template: word.template };
  if (base !== undefined) p.base = base;
  return p;
}

/**
 * The path an exported or prefix assignment hands the programs it starts (`K=~/.aws/credentials python3 …`), when its
 * value is one static word naming a place from the root or the home; `GIT_DIR` and `GIT_WORK_TREE` hand git a whole
 * tree (`GIT_WORK_TREE=$HOME git add .`).
 */
export function assignedPaths(name: string, words: Word[], command: string, base: string | undefined, home: string): ShellPath[] {
  if (words.length !== 1 || words[0]!.dynamic) return [];
  const word = words[0]!;
  if (/^(GIT_DIR|GIT_WORK_TREE)$/.test(name)) return word.value === '' ? [] : [treePath(word, command, base, expandTilde(word.template, home))];
  // `KUBECONFIG=~/.kube/config:~/.kube/staging.yaml`: a list of paths (each part from the root, the home or with a `/`).
  const parts = word.template.includes(':') && !word.template.includes('://') ? word.template.split(':') : [word.template];
  const out: ShellPath[] = [];
  for (const part of parts) {
    const template = expandTilde(part, home);
    // A path from the root or the home, or a relative one with a directory in it (`.aws/credentials` after `cd ~`).
    if (template.startsWith('/') || (template.includes('/') && !template.includes('=') && !/^[a-z][\w+.-]*:/i.test(template))) out.push({ ...wordPath(word, command, base), path: templateValue(template), template });
  }
  return out;
}

function treePath(word: Word, command: string, base: string | undefined, template: string): ShellPath {
  const t = below(template);
  return { ...wordPath(word, command, base), path: templateValue(t).replace(DEEP, '**'), glob: true, template: t };
}

/** A template for everything below a directory's template (`~/src/` → `~/src/**`). */
function below(template: string): string {
  return `${template.replace(/\/+$/, '')}/${DEEP}`;
}

/** Index of the first unescaped `=` in a template, or -1. */
function assignmentSplit(t: string): number {
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '\\') { i++; continue; }
    if (t[i] === '=') return i;
  }
  return -1;
}

/** Every path the command reads or writes, as ShellPaths relative to `base` (the directory after `cd`). */
export function commandPaths(view: CommandView, redirects: Redirect[], base: string | undefined): ShellPath[] {
  const out: ShellPath[] = [];
  for (const r of redirects) if (r.target && !/^\d+$|^-$/.test(r.target.value)) out.push(shellPath(r.target, 'redirect', view, base));
  const { program } = view;
  // `test -f ~/.ssh/id_rsa` asks whether a file exists, as `[ -f … ]` does: no file is read.
  if (PRINTERS.has(program) || program === 'test' || view.words.length === 0) return out;
  const kind: ShellPath['kind'] = program === 'cd' || program === 'pushd' ? 'cwd' : 'argument';
  // The pattern (or code) given by an option — also glued to it (`-e.`, `--regexp=.`, perl's `-pe1`) — leaves no
  // pattern operand: the first operand is then a file.
  let skipPattern = PATTERN_FIRST.has(program) && !view.args.some((a) => PATTERN_GIVEN.test(a) || (program === 'perl' && /^-[a-zA-Z0-9]*[eE]/.test(a)));
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
        out.push(shellPath(word, kind, view, base, WORKS_IN_DIRECTORY.has(program) && word.value.startsWith('-C') ? below(path) : path));
      }
      if (eq > 0 && WORKS_IN_DIRECTORY.has(program) && /^--(directory|work-tree|git-dir)=/.test(word.value)) out.push(shellPath(word, kind, view, base, below(expandTilde(t.slice(eq + 1), view.home))));
      // `docker run --volume=~/.ssh:/k`, `--mount=type=bind,src=…`: as the two-word forms below.
      if (eq > 0 && CONTAINER_RUNNERS.has(program) && /^--(volume|mount)=/.test(word.value)) out.push(...volumePaths(word, t.slice(eq + 1), kind, view, base));
      continue;
    }
    // `git -C DIR`, `tar -C DIR`/`--directory DIR`, `make -C DIR`, `--work-tree DIR`: a directory the command works
    // in, read below (and no subcommand or pattern).
    if (w > 1 && DIRECTORY_OPTIONS.has(view.words[w - 1]!.value) && DIRECTORY_PROGRAMS.has(program)) {
      // tar's `-C DIR` is where the members named after it are found (tarMembers), or where an archive is unpacked.
      out.push(shellPath(word, kind, view, base, WORKS_IN_DIRECTORY.has(program) ? below(t) : undefined));
      continue;
    }
    // `kubectl --kubeconfig "$KUBECONFIG" get pods`: the tool's own default credentials handed back to it (it reads
    // them by itself anyway), not a file read for the agent; a named kubeconfig (`/etc/kubernetes/admin.conf`) counts.
    if (KUBE_TOOLS.has(program) && view.words[w - 1]!.value === '--kubeconfig' && /^"?\$\{?KUBECONFIG\}?"?$/.test(word.source)) continue;
    // awk's `-v name=value`, `-F sep`: an option's value, not its program.
    if (skipPattern && !(AWK.test(program) && /^(-v|-F|--assign|--field-separator)$/.test(view.words[w - 1]!.value))) { skipPattern = false; continue; }
    out.push(shellPath(word, kind, view, base));
    if (eq > 0 && /^[A-Za-z_][\w.-]*$/.test(t.slice(0, eq))) out.push(shellPath(word, kind, view, base, expandTilde(t.slice(eq + 1), view.home)));
    // `-v ~/.ssh:/keys`, `--mount type=bind,src=…`: most words have neither.
    if (t.includes(':') || (CONTAINER_RUNNERS.has(program) && t.includes('='))) out.push(...volumePaths(word, t, kind, view, base));
  }
  // `curl -d @file`, `-F name=@file` (quoted too: the program splits at `=`), `--data-urlencode name@file`,
  // `gh api -F body=@file`, HTTPie's `field@/path`: the file after `@` is read and sent.
  for (let i = 0, n = out.length; i < n; i++) {
    const t = out[i]!.template;
    const at = t === undefined ? null : /^(?:[\w.\\[\]-]*\\?=)?@(?=.)|^[\w.-]+@(?=[~/.]|\\~)/.exec(t);
    if (at) out.push(shellPath(t!.slice(at[0].length), out[i]!.kind, view, base, expandTilde(t!.slice(at[0].length).replace(/^\\~/, '~'), view.home)));
  }
  for (const p of pathsInText(view)) out.push(shellPath(p, 'argument', view, base, expandTilde(escapeLiteral(p), view.home)));
  // Files vim's commands open: the editor expands globs in them (`:e ~/.ss?/id_rsa`).
  if (EDITORS.test(program)) for (const p of editorFiles(view, view.home)) out.push(shellPath(p, 'argument', view, base, escapeLiteral(p).replace(/\\([*?[\]])/g, '$1')));
  // `curl file:///root/.ssh/id_rsa`, `lynx -dump file://…`, `git clone file:///…`: the local file a file: URL names.
  for (let w = 1; w < view.words.length; w++) {
    const word = view.words[w]!;
    if (!word.dynamic && /^file:/i.test(word.value)) for (const t of fileUrlTemplates(word.value)) out.push(shellPath(word, 'argument', view, base, t));
  }
  for (const code of inlineCode(view)) out.push(...codePaths(code.code, view, base));
  if (program === 'find') out.push(...findSecretPaths(view, base));
  else if (LOCATE.has(program)) out.push(...locateSecretPaths(view, base));
  // `cd ~ && python3 -m http.server`, `git add -A` in the home: everything below a directory is served or committed.
  const tree = wholeTreeUsed(view);
  if (tree !== undefined) out.push(shellPath(tree, 'argument', view, base, below(tree === '.' ? '.' : expandTilde(escapeLiteral(tree), view.home))));
  if (readsRecursively(view)) {
    // Everything below each operand is read: a home (or /) given here reaches its ~/.ssh and friends.
    const rest = view.words.slice(view.program === 'git' ? 2 : 1);
    // find's paths are the words before its first expression (`find . -name x -exec cat {} +`), after its options.
    const found = view.program === 'find' ? findRootRange(view.args) : undefined;
    const operands = found ? rest.slice(found.start, found.end) : treeOperands(view.program, rest);
    if (program === 'tar' || program === 'bsdtar') {
      for (const m of tarMembers(rest, operands, view.home)) out.push(shellPath(m.word, 'argument', view, base, below(m.template)));
    } else for (const w of copySources(program, view.words.slice(1), operands)) out.push(shellPath(w, 'argument', view, base, below(w.template)));
    // A search given only its pattern (`cd ~ && grep -r BEGIN`), or a find given no path, reads the directory it runs in.
    const searchesCwd = SEARCHERS.has(view.program) ? operands.length <= (view.args.some((a) => /^(-e|-f|--regexp|--file)/.test(a)) ? 0 : 1) : view.program === 'find' && operands.length === 0;
    if (searchesCwd) out.push(shellPath('.', 'argument', view, base, `./${DEEP}`));
  }
  return out;
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
  const alternatives = brace ? brace[1]!.split(',').map((alt) => decoded.slice(0, brace.index) + alt + decoded.slice(brace.index + brace[0].length)) : [decoded];
  return alternatives.map((p) => escapeLiteral(p).replace(/\\([*?[\]])/g, '$1'));
}

/** Options of the archivers and image builders whose value is no input tree (the archive written, a tag, a pattern). */
const TREE_OPTION_VALUES: Record<string, Set<string>> = {
  tar: new Set(['-f', '--file', '-C', '--directory', '-T', '--files-from', '-X', '--exclude-from', '--exclude', '-I', '--use-compress-program', '-g', '--listed-incremental', '-V', '--label']),
  zip: new Set(['-x', '-i', '-b', '-n', '-P', '-t', '-tt', '-TT', '-O', '--out']),
  docker: new Set(['-t', '--tag', '-f', '--file', '--build-arg', '--target', '--platform', '--label', '--cache-from', '--cache-to', '--network', '--secret', '--ssh', '-o', '--output', '--iidfile', '--progress', '--build-context', '--add-host', '-m', '--memory', '--shm-size', '--ulimit']),
};
TREE_OPTION_VALUES.bsdtar = TREE_OPTION_VALUES.tar!;
TREE_OPTION_VALUES.podman = TREE_OPTION_VALUES.docker!;
TREE_OPTION_VALUES.buildah = TREE_OPTION_VALUES.docker!;

/**
 * The operands a whole-tree reader reads below: its non-option words, less the values of its options that name no
 * input (`tar czf "$OUT" dist`: the archive written; `zip -r out.zip dist`: the zip file, its first operand; `docker
 * build -t "$IMAGE" .`: the tag).
 */
export function treeOperands(program: string, rest: Word[]): Word[] {
  const withValue = TREE_OPTION_VALUES[program];
  const out: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!.value;
    if (a.startsWith('-')) {
      // `-czf FILE`, tar's old-style `czf FILE`: a cluster ending in f takes the archive's name.
      if (withValue?.has(a) || ((program === 'tar' || program === 'bsdtar') && /^-?[a-zA-Z]*f$/.test(a) && !a.startsWith('--'))) i++;
      continue;
    }
    if ((program === 'tar' || program === 'bsdtar') && i === 0 && /^[a-zA-Z]*[ctrux][a-zA-Z]*$/.test(a)) { if (a.endsWith('f')) i++; continue; }
    out.push(rest[i]!);
  }
  return program === 'zip' ? out.slice(1) : out;
}

/**
 * tar's members with the directory they are read from: a relative member after `-C DIR` (`--directory DIR`,
 * `-CDIR`, `--directory=DIR`) is DIR's (`tar czf x.tgz -C ~ .config/app` reads ~/.config/app, not ~).
 */
function tarMembers(rest: Word[], members: Word[], home: string): { word: Word; template: string }[] {
  const out: { word: Word; template: string }[] = [];
  let dir: string | undefined;
  const wanted = new Set(members);
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    const v = word.value;
    if (v === '-C' || v === '--directory') dir = rest[++i] ? expandTilde(rest[i]!.template, home).replace(/\/+$/, '') : dir;
    else if (/^-C./.test(v)) dir = expandTilde(word.template.slice(2), home).replace(/\/+$/, '');
    else if (v.startsWith('--directory=')) dir = expandTilde(word.template.slice('--directory='.length), home).replace(/\/+$/, '');
    else if (wanted.has(word)) out.push({ word, template: dir === undefined || /^[/~]/.test(word.template) ? word.template : `${dir}/${word.template}` });
  }
  return out;
}

/**
 * The operands a copy reads: all but the destination (`cp -r src ~/`, `rsync -a dist /tmp/`, `scp -r d host:`),
 * which is only written; with `-t DIR` / `--target-directory=DIR` every operand is a source.
 */
function copySources(program: string, words: Word[], operands: Word[]): Word[] {
  if (program !== 'cp' && program !== 'scp' && program !== 'rsync') return operands;
  if (program === 'cp') {
    const target = words.findIndex((w) => w.value === '-t' || w.value === '--target-directory');
    if (target >= 0) return operands.filter((w) => w !== words[target + 1]);
    if (words.some((w) => w.value.startsWith('--target-directory=') || /^-t./.test(w.value))) return operands;
  }
  return operands.length > 1 ? operands.slice(0, -1) : operands;
}

/**
 * The local side of a container's volume: `-v ~/.ssh:/keys` (`SRC:DST`, the part before the colon) and `--mount
 * type=bind,src=/root,dst=/h` — readable as a whole tree (`docker run -v ~:/h …` reaches ~/.ssh). For other programs
 * a `SRC:DST` pair's source is a path.
 */
function volumePaths(word: Word, t: string, kind: ShellPath['kind'], view: CommandView, base: string | undefined): ShellPath[] {
  const out: ShellPath[] = [];
  const container = CONTAINER_RUNNERS.has(view.program);
  const colon = t.indexOf(':');
  if (colon > 0 && !t.includes('://') && /^[~/.$\u0000]/.test(t)) {
    const source = expandTilde(t.slice(0, colon), view.home);
    // (Not a source only known at run time: `-v $PWD:/app` is the usual way to mount the project.)
    const tree = container && !templateIsDynamic(source);
    out.push(shellPath(word, kind, view, base, tree ? below(source) : source));
  }
  // (`volume-opt=device=/root/.ssh` binds a host directory through a local volume.)
  const mountSource = container ? /(?:^|,)(?:src|source|volume-opt=device|device)=([^,]+)/.exec(templateValue(t)) : null;
  if (mountSource) out.push(shellPath(mountSource[1]!, kind, view, base, below(expandTilde(escapeLiteral(mountSource[1]!), view.home))));
  return out;
}

/** A cluster of short options (digits too: `zip -r9`, `scp -3r`) containing one of the letters. */
function hasShort(args: string[], letters: RegExp): boolean {
  return args.some((a) => /^-[a-zA-Z0-9]+$/.test(a) && letters.test(a.slice(1)));
}

/** Programs that run containers (their volume sources are whole trees the container can read). */
const CONTAINER_RUNNERS = new Set(['docker', 'podman', 'nerdctl']);
/** Programs whose `-C DIR` (or `--directory`, `--work-tree`) names a directory they work in. */
const DIRECTORY_PROGRAMS = new Set(['git', 'tar', 'bsdtar', 'make', 'gmake']);
/** Of those, the ones that use all of it (tar only reads the members named after `-C`). */
const WORKS_IN_DIRECTORY = new Set(['git', 'make', 'gmake']);
const DIRECTORY_OPTIONS = new Set(['-C', '--directory', '--work-tree', '--git-dir']);

/** Tools that read a kubeconfig themselves. */
const KUBE_TOOLS = new Set(['kubectl', 'k', 'oc', 'helm', 'k9s', 'kubectx', 'kubens', 'stern', 'kustomize', 'flux', 'argocd']);
/** awk's family (its first operand is the program). */
const AWK = /^(awk|gawk|mawk|nawk|busybox-awk|goawk)$/;
/** Database clients whose SQL may read a file on the machine. */
const SQL_FILE_READERS = /^(sqlite3|duckdb|psql|mysql|mariadb)$/;

/**
 * Paths written inside a program's own text: the files sed's `r`/`w` commands read and write, quoted paths in SQL
 * (`readfile('/path')`, `load_file('/path')`, `\copy t from '/path'`), socat's `FILE:`/`OPEN:` addresses, and the
 * lines `cpio -o`, `tar -T -`, `zip -@` read from stdin.
 */
function pathsInText(view: CommandView): string[] {
  const { program } = view;
  const out: string[] = [];
  if (program === 'sed') for (const script of sedScripts(view.args)) out.push(...sedReadFiles(script), ...sedWriteFiles(script));
  else if (SQL_FILE_READERS.test(program)) {
    for (const text of [...view.args, view.stdin?.text ?? '']) for (const m of text.matchAll(/'([/~][^'\n]*)'/g)) out.push(m[1]!);
  } else if (program === 'socat') {
    for (const a of view.args) { const m = /^(?:FILE|OPEN|GOPEN|CREATE|CREAT):([^,]+)/i.exec(a); if (m) out.push(m[1]!); }
  }
  if (view.stdin?.text !== undefined && readsPathsFromStdin(view)) for (const line of view.stdin.text.split('\n')) if (line.trim() !== '') out.push(line.trim());
  return out;
}

/** `cpio -o`, `tar -T -` / `--files-from=-`, `zip -@`, `rsync --files-from=-`: paths come from stdin. */
function readsPathsFromStdin(view: CommandView): boolean {
  const { program, args } = view;
  if (program === 'cpio') return args.some((a) => /^-[a-zA-Z]*o/.test(a) || a === '--create');
  if (program === 'tar' || program === 'bsdtar') return args.some((a, i) => (a === '-T' && args[i + 1] === '-') || a === '--files-from=-' || (a === '--files-from' && args[i + 1] === '-'));
  if (program === 'zip') return args.includes('-@');
  if (program === 'rsync') return args.some((a) => a === '--files-from=-');
  return false;
}

/** An option that gives the pattern or the program, so that no operand is one: `-e P`, `-eP`, `--regexp=P`, `--source=P`. */
const PATTERN_GIVEN = /^(-e|-f|--regexp|--file|--expression|--source)$|^-[ef].|^--(regexp|expression|file|source)=/;
/** A path glued to a one-letter option, after an optional `@` (`-Fname=@path` is the `=` split's): the path is group 1. */
const GLUED_PATH = /^-[a-zA-Z]@?([/~].*)$/;

/** Recursive searches whose first operand is the pattern, not a path. */
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'git']);

/** Commands that read (or copy, or archive) whole trees, hidden files included. */
/**
 * The directory a command hands over whole, when it does: a web server serving it (`python3 -m http.server
 * [--directory D]`, `php -S … -t D`, `busybox httpd -h D`, `http-server D`, `serve D`, the cwd by default) or
 * `git add -A` / `git add DIR` staging everything below it for a commit and a push.
 */
function wholeTreeUsed(view: CommandView): string | undefined {
  const { program, args } = view;
  if (/^python[\d.]*$/.test(program) && args.includes('-m') && args[args.indexOf('-m') + 1] === 'http.server') return optionValue(args, ['--directory', '-d']) ?? '.';
  if (program === 'php' && args.includes('-S')) return optionValue(args, ['-t']) ?? '.';
  // busybox httpd serves `-h DIR` (or the cwd); apache's httpd is told its root with -d/-f/-k and friends.
  if (program === 'httpd') return optionValue(args, ['-h']) ?? (args.some((a) => /^-[kdDeECcStvVMX]$/.test(a)) ? undefined : '.');
  if (program === 'http-server' || program === 'serve') return args.find((a) => !a.startsWith('-')) ?? '.';
  const git = program === 'git' ? gitCommand(args) : undefined;
  if (git?.[0] === 'add') {
    const paths = git.slice(1).filter((a) => !a.startsWith('-'));
    if (paths.length === 0) return args.some((a) => a === '-A' || a === '--all') ? '.' : undefined;
    return paths.find((p) => p === '.' || p === '*' || p.endsWith('/') || p === '~' || p === '..');
  }
  return undefined;
}

function readsRecursively(view: CommandView): boolean {
  const { program, args } = view;
  switch (program) {
    case 'grep': case 'egrep': case 'fgrep': return hasShort(args, /[rR]/) || args.includes('--recursive') || args.includes('--dereference-recursive') || args.includes('--directories=recurse') || args.some((a, i) => a === '-d' && args[i + 1] === 'recurse');
    case 'ugrep': case 'ug': case 'sift': return hasShort(args, /[rR]/) || args.includes('--recursive');
    case 'pt': return args.includes('--hidden');
    // `-u -u` is `-uu`; `--unrestricted` twice likewise.
    case 'rg': return args.some((a) => a === '--hidden' || a === '-uu' || a === '-uuu' || a === '-.') || args.filter((a) => a === '-u' || a === '--unrestricted').length >= 2;
    case 'ag': return args.some((a) => a === '--hidden' || a === '-u' || a === '--unrestricted' || a === '-a' || a === '--all-types');
    case 'ack': return true;
    case 'git': return args[0] === 'grep';
    // `find DIR -exec cat {} +` reads every file below DIR.
    case 'find': return args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a));
    case 'cp': case 'scp': return hasShort(args, /[rRa]/) || args.includes('--recursive') || args.includes('--archive');
    case 'rsync': return hasShort(args, /[ra]/) || args.includes('--recursive') || args.includes('--archive');
    case 'tar': case 'bsdtar': return args.some((a) => /^-?[a-zA-Z]*[cru][a-zA-Z]*$/.test(a) && !a.startsWith('--')) || args.includes('--create') || args.includes('--append') || args.includes('--update');
    case 'zip': return hasShort(args, /r/) || args.includes('--recurse-paths');
    case '7z': case '7za': return args[0] === 'a';
    // Archives, images and backups of whole trees; uploads of whole trees to storage.
    case 'pax': return args.includes('-w');
    case 'python': case 'python3': return args[0] === '-m' && /^(zipfile|tarfile)$/.test(args[1] ?? '') && args.includes('-c');
    case 'mksquashfs': case 'genisoimage': case 'mkisofs': case 'xorriso': return true;
    case 'borg': return args.includes('create');
    case 'restic': return args.includes('backup');
    case 'duplicity': case 'rdiff-backup': return true;
    case 'rclone': return args.some((a) => /^(sync|copy|move|copyto|bisync)$/.test(a));
    case 'aws': return args[0] === 's3' && (args[1] === 'sync' || (/^(cp|mv)$/.test(args[1] ?? '') && args.includes('--recursive')));
    case 'gsutil': return args.some((a) => a === 'rsync' || a === '-r' || a === '-R') ;
    case 'azcopy': return args.includes('--recursive') || args.some((a) => a.startsWith('--recursive='));
    case 's3cmd': return args.includes('sync') || (args.includes('put') && hasShort(args, /r/)) || args.includes('--recursive');
    case 'mc': return args.includes('mirror') || (args.includes('cp') && (hasShort(args, /r/) || args.includes('--recursive')));
    // `docker build DIR` sends all of DIR to the daemon as the build context.
    case 'docker': case 'podman': case 'buildah': return args[0] === 'build' || (args[0] === 'image' && args[1] === 'build');
    default: return false;
  }
}

/** Protected names as they appear in code that builds a path from the home (`homedir() + '/.ssh/id_rsa'`). */
// Entries may be globs (`.minikube/*.key`): regex characters are escaped and `*` matches within one name.
const PROTECTED_IN_CODE = new RegExp(`(^|/)(${PROTECTED_IN_HOME.map((e) => e.relative.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('|')})(/|$)`);

/** Paths in the string literals of inline code: absolute or `~` paths, and protected names joined to a home. */
function codePaths(code: string, view: CommandView, base: string | undefined): ShellPath[] {
  const out: ShellPath[] = [];
  for (const m of code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g)) {
    const literal = m[1] ?? m[2] ?? '';
    if (/^[~/]/.test(literal)) out.push(shellPath(literal, 'argument', view, base, expandTilde(literal[0] + escapeLiteral(literal.slice(1)), view.home)));
    const named = PROTECTED_IN_CODE.exec(literal);
    if (named) {
      out.push(shellPath(literal, 'argument', view, base, `${escapeLiteral(view.home)}/${escapeLiteral(literal.slice(named.index + named[1]!.length))}`));
    }
  }
  return out;
}

/** Compiled `-name` patterns: compiling one costs more than the rest of a command's analysis. */
const NAME_MATCHERS = new Map<string, (name: string) => boolean>();

/** A case-insensitive, dot-matching glob matcher for a `find -name` pattern (the last 256 are kept). */
function nameMatcher(pattern: string): (name: string) => boolean {
  let isMatch = NAME_MATCHERS.get(pattern);
  if (!isMatch) {
    isMatch = micromatch.matcher(pattern, { dot: true, nocase: true });
    if (NAME_MATCHERS.size >= 256) NAME_MATCHERS.delete(NAME_MATCHERS.keys().next().value!);
    NAME_MATCHERS.set(pattern, isMatch);
  }
  return isMatch;
}

/** Whether a file-name pattern (`id_*`) matches a secret's name, or the whole pattern names a secret place (`.ssh`). */
export function namesSecret(namePattern: string, whole: string): boolean {
  const isMatch = nameMatcher(namePattern);
  return SECRET_NAMES.some((n) => isMatch(n)) || SECRET_DIRS.test(whole);
}

/** Programs that list every indexed path containing a pattern (`locate id_rsa | xargs cat`). */
const LOCATE = new Set(['locate', 'plocate', 'mlocate', 'slocate']);

/** `locate id_rsa`: the secret files anywhere that the pattern (a substring, or a glob) would list. */
function locateSecretPaths(view: CommandView, base: string | undefined): ShellPath[] {
  const out: ShellPath[] = [];
  for (const w of view.words.slice(1)) {
    if (w.value.startsWith('-') || w.value === '') continue;
    const pattern = w.value.replace(/^.*\//, '') || w.value;
    if (!namesSecret(/[*?[]/.test(pattern) ? pattern : `*${pattern}*`, w.value)) continue;
    out.push(shellPath(w, 'argument', view, base, `/${DEEP}/${escapeLiteral(pattern)}`));
  }
  return out;
}

/** `find ~ -name id_rsa`: the secret files under each search root the name pattern would reach. */
/**
 * Where find's roots are among its arguments: after its leading options (`-L`, `-H`, `-P`, `-D opts`, `-O3`:
 * `find -L ~ -type f` follows links from the home) and before its first expression.
 */
export function findRootRange(args: readonly string[]): { start: number; end: number } {
  let start = 0;
  while (start < args.length && /^-([HLP]|O\d*|D)$/.test(args[start]!)) start += args[start] === '-D' ? 2 : 1;
  start = Math.min(start, args.length);
  const end = args.findIndex((a, i) => i >= start && /^[-(!]/.test(a));
  return { start, end: end < 0 ? args.length : end };
}

/** A find's roots (`.` when none is given). */
export function findRoots(args: readonly string[]): string[] {
  const { start, end } = findRootRange(args);
  return end > start ? args.slice(start, end) : ['.'];
}

/** Stages a file list passes through on its way to xargs (`find ~ -type f | head | xargs cat`). */
export const LIST_FILTERS: ReadonlySet<string> = new Set(['head', 'tail', 'grep', 'egrep', 'sort', 'uniq', 'shuf', 'sed', 'awk', 'cat', 'tr']);
/** What xargs may run on a list of names without reading the files: names, metadata, sizes. */
export const NAMES_ONLY: ReadonlySet<string> = new Set([...PRINTERS, 'basename', 'dirname', 'realpath', 'readlink', 'stat', 'ls', 'du', 'file', 'test', '[']);

/**
 * `find ~ -type f | xargs cat`: what find lists, when no name test narrows it, is everything below its roots — and
 * the command xargs runs on the list reads it all (the walker calls this for a find piped into xargs). Roots from
 * the command's argv (resolved words).
 */
export function listedTreePaths(findArgs: string[], command: string, base: string | undefined): ShellPath[] {
  // A name test narrows the list to names the protected-path check judges (findSecretPaths); times and sizes do not.
  if (findArgs.some((a) => /^-(i?name|i?path|wholename|iwholename|i?regex)$/.test(a))) return [];
  return findRoots(findArgs).map((root) => treePath(literalWord(root), command, base, escapeLiteral(root)));
}

function findSecretPaths(view: CommandView, base: string | undefined): ShellPath[] {
  const words = view.words.slice(1);
  const { start, end } = findRootRange(view.args);
  const roots = words.slice(start, end);
  const out: ShellPath[] = [];
  for (let i = 0; i < words.length - 1; i++) {
    if (!/^-(i?name|i?path|wholename|iwholename|regex|iregex)$/.test(words[i]!.value)) continue;
    const pattern = words[i + 1]!.value;
    if (!namesSecret(pattern.replace(/^.*\//, '') || pattern, pattern)) continue;
    for (const root of roots.length ? roots : [{ template: '.' } as Word]) {
      const leaf = pattern.replace(/^\*\//, '').replace(/^\/+/, '');
      out.push(shellPath(root.template, 'argument', view, base, `${root.template.replace(/\/+$/, '')}/${DEEP}/${leaf}`));
    }
  }
  return out;
}
