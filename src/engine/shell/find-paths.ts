// What find and locate list: find's roots, the secret files a name pattern would reach below them (or anywhere, for
// locate), and the whole trees a find with no name test hands to xargs.
import micromatch from 'micromatch';
import type { ShellPath } from './types.ts';
import type { CommandView } from './view.ts';
import { literalWord, type Word } from './word.ts';
import { PRINTERS } from '../catalog/programs.ts';
import { DEEP, escapeLiteral } from './template.ts';
import { shellPath, treePath } from './shell-path.ts';

/** File names that are secrets wherever they are. */
const SECRET_NAMES = [
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_rsa.pub',
  'x.pem',
  'x.key',
  'credentials',
  'config',
  'known_hosts',
  'authorized_keys',
  '.netrc',
  'secring.gpg',
  'pubring.kbx',
  'credentials.db',
  'access_tokens.db',
  'application_default_credentials.json',
  'kubeconfig',
  'tokens.json',
];
const SECRET_DIRS = /(^|[^a-z])(ssh|aws|kube|gnupg|gcloud|netrc|id_)/i;

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

/** `locate id_rsa`: the secret files anywhere that the pattern (a substring, or a glob) would list. */
export function locateSecretPaths(view: CommandView, base: string | undefined): ShellPath[] {
  const out: ShellPath[] = [];
  for (const w of view.words.slice(1)) {
    if (w.value.startsWith('-') || w.value === '') continue;
    const pattern = w.value.replace(/^.*\//, '') || w.value;
    if (!namesSecret(/[*?[]/.test(pattern) ? pattern : `*${pattern}*`, w.value)) continue;
    out.push(shellPath(w, 'argument', view, base, `/${DEEP}/${escapeLiteral(pattern)}`));
  }
  return out;
}

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
export const LIST_FILTERS: ReadonlySet<string> = new Set([
  'head',
  'tail',
  'grep',
  'egrep',
  'sort',
  'uniq',
  'shuf',
  'sed',
  'awk',
  'cat',
  'tr',
]);
/** What xargs may run on a list of names without reading the files: names, metadata, sizes. */
export const NAMES_ONLY: ReadonlySet<string> = new Set([
  ...PRINTERS,
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'stat',
  'ls',
  'du',
  'file',
  'test',
  '[',
]);

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

/** `find ~ -name id_rsa`: the secret files under each search root the name pattern would reach. */
export function findSecretPaths(view: CommandView, base: string | undefined): ShellPath[] {
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
      out.push(
        shellPath(root.template, 'argument', view, base, `${root.template.replace(/\/+$/, '')}/${DEEP}/${leaf}`),
      );
    }
  }
  return out;
}
