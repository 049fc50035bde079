// What every nested-code entry shares: the entry's shape, and helpers that add code and read options.
import { writtenContents, type CommandView } from '../view.ts';
import { literalWord, type Word } from '../word.ts';
import { suffixWord } from '../unwrap.ts';

/** Code a command runs: a script to parse (with `$0 $1 …` when given), or an argv to analyse as a command. */
export type NestedCode =
  { kind: 'script'; word: Word; positional?: Word[]; base?: string } | { kind: 'argv'; words: Word[] };

/**
 * One program's (or one family of aliases') knowledge of the code it runs in turn. `nested` adds that code to `out`;
 * `args` are the words after the program's name; `stdinItems` the words xargs would append, when known.
 */
export interface NestedEntry {
  programs: readonly string[];
  nested(out: NestedCode[], view: CommandView, args: Word[], stdinItems?: string[]): void;
}

/** Adds a word as code; with `fromProcess`, only a `<(…)` whose output is known counts (its output is the code). */
export function script(out: NestedCode[], w: Word | undefined, fromProcess = false): void {
  if (!w) return;
  if (!fromProcess) out.push({ kind: 'script', word: w });
  else if (w.processOutput !== undefined) text(out, w.processOutput);
}

/** Adds known text as code. */
export function text(out: NestedCode[], s: string): void {
  out.push({ kind: 'script', word: literalWord(s) });
}

/** The command's stdin as code (here-doc, here-string, evaluable pipe); unknown parts make it dynamic code. */
export function stdinScript(out: NestedCode[], view: CommandView): void {
  const stdin = view.stdin;
  if (!stdin || stdin.text === undefined) return;
  if (stdin.dynamic) out.push({ kind: 'script', word: { ...literalWord(stdin.text), dynamic: true } });
  else text(out, stdin.text);
}

/** A script file this command line wrote with known contents earlier: its contents are the code. */
export function writtenScript(out: NestedCode[], view: CommandView, file: Word | undefined): void {
  const contents = writtenContents(view.written, file);
  if (contents !== undefined) text(out, contents);
}

/** The arguments after a leading `--` (`trap -- 'cmd' EXIT`, `eval -- 'cmd'`). */
export function afterDashes(args: Word[]): Word[] {
  return args[0]?.value === '--' ? args.slice(1) : args;
}

/**
 * Every value of the options, however each is written: `-C cmd`, `-Ccmd`, `--filter cmd`, `--filter=cmd`, in the
 * order given. A value written in the option's word is a word of its own.
 */
export function optionValues(args: Word[], ...options: string[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w.value === '--') break;
    for (const option of options) {
      if (w.value === option) {
        if (args[i + 1]) out.push(args[++i]!);
        break;
      }
      const at = option.startsWith('--')
        ? w.value.startsWith(`${option}=`)
          ? option.length + 1
          : -1
        : w.value.startsWith(option) && w.value.length > option.length
          ? option.length
          : -1;
      if (at > 0) {
        out.push(suffixWord(w, at));
        break;
      }
    }
  }
  return out;
}

/** Where the first operand is, past options (`withArg` take a value) and a `--`, or -1. */
export function firstOperand(args: Word[], withArg: string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '--') return i + 1 < args.length ? i + 1 : -1;
    if (a.startsWith('-') && a.length > 1) {
      if (withArg.includes(a)) i++;
      continue;
    }
    return i;
  }
  return -1;
}
