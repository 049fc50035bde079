// Reads sed scripts enough to see the GNU `e` command and the `e` flag of `s`, which run shell commands, and the
// `w` command and flag, which write a file.
import { operands } from './flags.ts';

/** The sed scripts of a command line: every -e/--expression, else the first operand. */
export function sedScripts(args: string[]): string[] {
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? '');
    else if (a.startsWith('--expression=')) scripts.push(a.slice(13));
    else if (a === '-f' || a === '--file') return [];
  }
  if (scripts.length) return scripts;
  const first = operands(args, ['-l', '--line-length'])[0];
  return first === undefined ? [] : [first];
}

/** What may stand before a sed command: a separator, an address (number, $, /re/) or a range of two, and `!`. */
const ADDRESS = String.raw`(?:^|[;\n{}])\s*(?:\d+|\$|\/(?:[^/\\]|\\.)*\/)?(?:,\s*(?:\d+|\$|\/(?:[^/\\]|\\.)*\/))?\s*!?\s*`;
/** `e cmd` (up to end of line or `;`, or a bare `e`), `w FILE` / `W FILE` and `r FILE` / `R FILE` (to the end of the line). */
const E_COMMAND = new RegExp(ADDRESS + String.raw`e(?:\s+([^\n;]*)|(?=$|[;\n}]))`, 'g');
const W_COMMAND = new RegExp(ADDRESS + String.raw`[wW]\s+([^\n]+)`, 'g');
const R_COMMAND = new RegExp(ADDRESS + String.raw`[rR]\s+([^\n]+)`, 'g');

/** `s/re/replacement/` with any delimiter (group 1), up to its flags. */
const S_COMMAND = String.raw`s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1`;
/** An `s` command with the `e` flag (run the pattern space as a command). */
const S_EXEC_FLAG = new RegExp(String.raw`(?:^|[;\n])\s*[^;\n]*` + S_COMMAND + '[gpiImM0-9w]*e');
/** An `s` command with the `w FILE` flag (group 2: the file, to the end of the line). */
const S_WRITE_FLAG = new RegExp(S_COMMAND + String.raw`[gpiImMe0-9]*w\s*([^\n]+)`, 'g');

/** The shell commands of `e cmd` commands in a sed script (empty string for a bare `e`). */
export function sedExecCommands(script: string): string[] {
  const out: string[] = [];
  for (const m of script.matchAll(E_COMMAND)) out.push((m[1] ?? '').trim());
  return out;
}

/** True when a sed invocation will run a shell command (`e` command, `s///e` flag). */
export function sedExecutes(args: string[]): boolean {
  return sedScripts(args).some((s) => sedExecCommands(s).length > 0 || S_EXEC_FLAG.test(s));
}

/** The files a sed script writes: `w FILE` / `W FILE` commands and the `w FILE` flag of `s` (the name runs to the end of the line). */
export function sedWriteFiles(script: string): string[] {
  const out: string[] = [];
  for (const m of script.matchAll(W_COMMAND)) out.push(m[1]!.trim());
  for (const m of script.matchAll(S_WRITE_FLAG)) out.push(m[2]!.trim());
  return out.filter((f) => f !== '' && f !== '/dev/stdout' && f !== '/dev/stderr');
}

/** The files a sed script reads into its output: `r FILE` / `R FILE` commands (the name runs to the end of the line). */
export function sedReadFiles(script: string): string[] {
  const out: string[] = [];
  for (const m of script.matchAll(R_COMMAND)) out.push(m[1]!.trim());
  return out.filter((f) => f !== '' && f !== '/dev/stdin');
}
