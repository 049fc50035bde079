// Nested code of programs that run a command on each input: xargs, GNU parallel, find -exec and fd -x.
import { XARGS_WITH_ARG } from '../../catalog/flags.ts';
import type { Word } from '../word.ts';
import { literalWord, partlyUnknownWord, unknownWord } from '../word.ts';
import { PARALLEL_SOURCE, parallelCommand } from '../../catalog/danger-exec.ts';
import { disposableFindNames } from '../../catalog/delete-targets.ts';
import { findRootRange } from '../find-paths.ts';
import { dynamicPart, escapeLiteral } from '../template.ts';
import { firstOperand, script, text } from './support.ts';
import type { NestedCode, NestedEntry } from './support.ts';

/** The program `xargs ARGS` runs on its input (`echo` when none is named). */
export function xargsProgram(args: string[]): string {
  const i = firstOperand(args.map(literalWord), XARGS_WITH_ARG);
  return i < 0 ? 'echo' : args[i]!;
}

/** xargs's replace string: `-I R`, `-IR`, `--replace[=R]` or `-i[R]` (`{}` by default), or undefined without one. */
function xargsReplaceString(options: Word[]): string | undefined {
  let replace: string | undefined;
  for (let i = 0; i < options.length; i++) {
    const a = options[i]!.value;
    if (a === '-I') replace = options[++i]?.value;
    else if (a.startsWith('-I')) replace = a.slice(2);
    else if (a === '-i' || a === '--replace') replace = '{}';
    else if (a.startsWith('-i')) replace = a.slice(2);
    else if (a.startsWith('--replace=')) replace = a.slice('--replace='.length);
  }
  return replace === '' ? undefined : replace;
}

/** A path find reports below a root: the root, then something unknown (`~/projects/…`). */
function foundBelow(root: Word): Word {
  if (root.dynamic) return unknownWord('{}');
  return partlyUnknownWord(
    `${root.value.replace(/\/+$/, '')}/{}`,
    `${root.template.replace(/\/+$/, '')}/${dynamicPart('{}')}`,
  );
}

/** A word with an unknown item in place of each replace string (`~/{}/id_rsa` with unknown input). */
function placeholderWord(value: string, replace: string): Word {
  return partlyUnknownWord(value, value.split(replace).map(escapeLiteral).join(dynamicPart('{xargs input}')));
}

/** A replacement string of GNU parallel: `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{1}`, `{2.}`, … */
const PARALLEL_REPLACEMENT = /\{(\d*)(?:\.|\/|\/\/|\/\.)?\}/g;

/**
 * GNU parallel joins its command words and runs them in a shell, an input in place of each replacement string (or
 * one input of each source appended, quoted): `parallel rm -rf ::: ~` runs `rm -rf '/home/me'`. Inputs are the words
 * after `:::`, unknown lines of the files after `::::` or `-a`, or the lines of its stdin. Without a command, each
 * input is a command line (`parallel ::: 'make a' 'make b'`).
 */
function parallelCode(out: NestedCode[], args: Word[], stdin: string | undefined): void {
  const { start, end } = parallelCommand(args.map((w) => w.value));
  // One input (the first) of each source; `undefined` for an input that cannot be known.
  const sources: (Word | undefined)[][] = [];
  for (let i = end; i < args.length;) {
    let next = i + 1;
    while (next < args.length && !PARALLEL_SOURCE.test(args[next]!.value)) next++;
    sources.push(args[i]!.value.startsWith('::::') ? [undefined] : args.slice(i + 1, next));
    i = next;
  }
  if (sources.length === 0) {
    const fromFile = args.slice(0, start).some((w) => /^(-a|--arg-file)/.test(w.value));
    sources.push(
      !fromFile && stdin !== undefined
        ? stdin
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map(literalWord)
        : [undefined],
    );
  }
  if (start === end) {
    for (const input of sources.flat()) if (input) script(out, input);
    return;
  }
  const quoted = (input: Word | undefined) =>
    input === undefined || input.dynamic ? '"$PARALLEL_INPUT"' : `'${input.value.replace(/'/g, "'\\''")}'`;
  let replaced = false;
  const line = args
    .slice(start, end)
    .map((w) =>
      w.value.replace(PARALLEL_REPLACEMENT, (_m, n: string) => {
        replaced = true;
        return quoted(n ? sources[Number(n) - 1]?.[0] : sources[0]![0]);
      }),
    )
    .join(' ');
  text(out, replaced ? line : `${line} ${sources.map((s) => quoted(s[0])).join(' ')}`);
}

export const EACH_INPUT_ENTRIES: NestedEntry[] = [
  {
    programs: ['xargs'],
    nested(out, view, args, stdinItems) {
      const i = firstOperand(args, XARGS_WITH_ARG);
      const cmd = i < 0 ? [literalWord('echo')] : args.slice(i);
      const replace = xargsReplaceString(args.slice(0, i < 0 ? args.length : i));
      // Unknown items: below the root of a find whose list is piped in (`find ~/projects … | xargs -I{} git -C {} …`).
      const listing = view.stdin?.listing;
      // `find . -type d -name .mypy_cache -print0 | xargs -0 rm -rf`: what it lists is that name below the root, as
      // for `find … -exec rm -rf {} +` (disposable-output.ts).
      const disposable = view.stdin?.listedBy ? disposableFindNames(view.stdin.listedBy) : undefined;
      const items =
        stdinItems?.map(literalWord) ??
        (listing?.length === 1 && disposable !== undefined
          ? disposable.map((name) => literalWord(`${listing[0]!.replace(/\/+$/, '')}/**/${name}`))
          : [listing?.length === 1 ? foundBelow(literalWord(listing[0]!)) : unknownWord('{xargs input}')]);
      // `-I D cat ~/D/credentials`: the replace string stands for the item wherever it is in a word.
      const replaced = (w: Word) => {
        if (!w.value.includes(replace!)) return w;
        if (stdinItems?.length) return literalWord(w.value.split(replace!).join(stdinItems[0]!));
        return w.value === replace ? items[0]! : placeholderWord(w.value, replace!);
      };
      out.push({ kind: 'argv', words: replace !== undefined ? cmd.map(replaced) : [...cmd, ...items] });
    },
  },
  {
    programs: ['parallel'],
    nested(out, view, args) {
      parallelCode(out, args, view.stdin?.text);
    },
  },
  {
    programs: ['find'],
    nested(out, view, args) {
      // `find ~/projects -type d -exec git -C {} status \;`: each found path is below the root (one static root known).
      const { start, end: rootsEnd } = findRootRange(view.args);
      const roots = args.slice(start, rootsEnd);
      for (let i = 0; i < args.length; i++) {
        if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!.value)) continue;
        const end = args.findIndex((w, k) => k > i && (w.value === ';' || w.value === '+'));
        // `find . -name __pycache__ -exec rm -rf {} +`: what it finds is that name below the root (disposable-output.ts).
        // (`\( -name bin -o -name obj \)`: each name below the root.)
        const disposable = disposableFindNames(view.args);
        const found =
          disposable !== undefined && roots.length === 1 && !roots[0]!.dynamic
            ? disposable.map((name) => literalWord(`${roots[0]!.value.replace(/\/+$/, '')}/**/${name}`))
            : [/^-(exec|ok)$/.test(args[i]!.value) && roots.length === 1 ? foundBelow(roots[0]!) : unknownWord('{}')];
        const cmd = args.slice(i + 1, end < 0 ? undefined : end).flatMap((w) => (w.value === '{}' ? found : [w]));
        if (cmd.length) out.push({ kind: 'argv', words: cmd });
        if (end > 0) i = end;
      }
    },
  },
  {
    programs: ['fd', 'fdfind'],
    nested(out, _view, args) {
      // `fd PATTERN DIR -x cmd` / `-X cmd`: the command runs on every file found (or on all at once).
      const x = args.findIndex((w) => /^(-x|-X|--exec|--exec-batch)$/.test(w.value));
      if (x < 0 || x + 1 >= args.length) return;
      const cmd = args.slice(x + 1).filter((w) => w.value !== ';');
      const placeholder = (w: Word) => /^\{[./]*\}$/.test(w.value);
      const words = cmd.some(placeholder)
        ? cmd.map((w) => (placeholder(w) ? unknownWord('{}') : w))
        : [...cmd, unknownWord('{fd results}')];
      out.push({ kind: 'argv', words });
    },
  },
];
