// What every operand entry shares: the entry's shape, and helpers that read options and operands.
import type { ShellPath } from '../types.ts';
import type { CommandView } from '../view.ts';
import type { Word } from '../word.ts';

/** A word of a tree reader read below, at a template (a tar member after `-C DIR` is DIR's). */
export interface TreeRead {
  word: Word;
  template: string;
}

/**
 * One program's (or one family of aliases') knowledge of which of its operands are paths, and how it reads them.
 * Every field is optional: a program without an entry has every operand and option value taken for a path.
 */
export interface OperandEntry {
  programs: readonly string[];
  /** Its operand is the directory it moves to (`cd`, `pushd`). */
  movesTo?: true;
  /** Its first operand is a pattern or a program's text, not a file, unless an option gave it (`-e P`, `--regexp=P`). */
  patternFirst?: true;
  /** Options besides `-e`/`-f`/`--regexp` that give the code, so that no operand is it (perl's `-e`, `-pe1`). */
  codeGiven?: RegExp;
  /** Options whose value comes before the pattern and is not it (awk's `-v name=value`, `-F sep`). */
  valuesBeforePattern?: RegExp;
  /**
   * `-C DIR` (`--directory`, `--work-tree`, `--git-dir`) names where it works: all of it is used (`tree`: git, make)
   * or only the members named after it (`members`: tar).
   */
  directory?: 'tree' | 'members';
  /** Runs containers: its volume and mount sources are whole trees the container can read. */
  mountsVolumes?: true;
  /** Reads a kubeconfig itself: `--kubeconfig "$KUBECONFIG"` hands it back its own default, no new file. */
  ownKubeconfig?: true;
  /** Paths inside its own text or listed on its stdin (sed's `r`/`w`, SQL strings, socat addresses, `cpio -o`). */
  textPaths?(view: CommandView): string[];
  /** The secret files a name pattern of its lists (`find ~ -name id_rsa`, `locate id_rsa`). */
  listedSecrets?(view: CommandView, base: string | undefined): ShellPath[];
  /** The directory it hands over whole (served, staged for a commit), when it does. */
  wholeTree?(view: CommandView): string | undefined;
  /** Whether this call reads everything below its tree operands (hidden files included). */
  readsTree?(args: string[]): boolean;
  /** Its tree operands among the words after its name (default: the words that are no option). */
  treeOperands?(rest: Word[]): Word[];
  /** What it reads of its tree operands (default: each operand, as written). */
  treeReads?(rest: Word[], operands: Word[], home: string): TreeRead[];
  /** Whether, reading trees, it also reads the directory it runs in (a search given only its pattern). */
  searchesCwd?(operands: Word[], args: string[]): boolean;
}

/** A cluster of short options (digits too: `zip -r9`, `scp -3r`) containing one of the letters. */
export function hasShort(args: string[], letters: RegExp): boolean {
  return args.some((a) => /^-[a-zA-Z0-9]+$/.test(a) && letters.test(a.slice(1)));
}

/** The words that are no option (`-x`, `--long`); option values are not told apart. */
export function plainOperands(rest: Word[]): Word[] {
  return rest.filter((w) => !w.value.startsWith('-'));
}

/** The non-blank lines of the command's known stdin, trimmed (a file list: `find … | cpio -o`). */
export function stdinLines(view: CommandView): string[] {
  if (view.stdin?.text === undefined) return [];
  return view.stdin.text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim());
}

/** The words after the last one (a copy's destination): all of them when there is only one. */
export function allButLast(operands: Word[]): Word[] {
  return operands.length > 1 ? operands.slice(0, -1) : operands;
}
