// Finds the code a command runs in turn: one table entry per program (or family of aliases) in nested/*.ts says how
// that program runs nested code; the rules here hold for every command (exported bash functions, a script run by its
// path, shell strings in inline interpreter code, a shell with -c anywhere in the argv).
import type { CommandView } from './view.ts';
import { programName } from './unwrap.ts';
import { SHELLS } from '../catalog/programs.ts';
import { inlineCode, shellStringsIn } from '../catalog/inline-code.ts';
import { script, stdinScript, text, writtenScript, type NestedCode, type NestedEntry } from './nested/support.ts';
import { SHELL_ENTRIES } from './nested/shells.ts';
import { EACH_INPUT_ENTRIES } from './nested/each-input.ts';
import { REMOTE_ENTRIES } from './nested/remote.ts';
import { GIT_ENTRIES } from './nested/git.ts';
import { EDITOR_ENTRIES } from './nested/editors.ts';
import { TOOL_COMMAND_ENTRIES } from './nested/tool-commands.ts';
import { SCHEDULER_ENTRIES } from './nested/schedulers.ts';
import { DEV_TOOL_ENTRIES } from './nested/dev-tools.ts';

export type { NestedCode, NestedEntry } from './nested/support.ts';
export { optionValues } from './nested/support.ts';
export { loginHome } from './nested/remote.ts';
export { xargsProgram } from './nested/each-input.ts';

/** Every program's entry, family by family (a program is in one entry only). */
export const NESTED_ENTRIES: readonly NestedEntry[] = [
  ...SHELL_ENTRIES,
  ...EACH_INPUT_ENTRIES,
  ...REMOTE_ENTRIES,
  ...GIT_ENTRIES,
  ...EDITOR_ENTRIES,
  ...TOOL_COMMAND_ENTRIES,
  ...SCHEDULER_ENTRIES,
  ...DEV_TOOL_ENTRIES,
];

/** The entries by program name; a name in two entries is a mistake caught when the module loads. */
const ENTRY_OF = new Map<string, NestedEntry>();
for (const entry of NESTED_ENTRIES) {
  for (const program of entry.programs) {
    if (ENTRY_OF.has(program)) throw new Error(`nested code: ${program} has two entries`);
    ENTRY_OF.set(program, entry);
  }
}

/** The entry that knows how a program runs nested code, if one does. */
export function nestedEntryFor(program: string): NestedEntry | undefined {
  return ENTRY_OF.get(program);
}

/** The nested code of one command; `stdinItems` are the words xargs would append, when known. */
export function nestedCode(view: CommandView, stdinItems?: string[]): NestedCode[] {
  const out: NestedCode[] = [];
  const { program, words } = view;
  ENTRY_OF.get(program)?.nested(out, view, words.slice(1), stdinItems);
  // `env 'BASH_FUNC_f%%=() { cmd; }' bash -c f`: a function a child bash imports and may run.
  for (const w of words) {
    if (!w.value.startsWith('BASH_FUNC_')) continue;
    const m = /^BASH_FUNC_[^=]*=\s*\(\)\s*(\{[\s\S]*\})\s*$/.exec(w.value);
    if (m) text(out, m[1]!);
  }
  // `./x.sh` after `cat > x.sh <<'EOF' … EOF`: a script file run by its path.
  if (view.words[0]?.value.includes('/')) writtenScript(out, view, view.words[0]);
  for (const code of inlineCode(view)) for (const s of shellStringsIn(code.code, code.language)) text(out, s);
  if (!SHELLS.has(program)) shellInArgv(out, view);
  return out;
}

/**
 * `docker exec c sh -c '…'`, `kubectl exec p -- bash -c '…'`: a shell with -c anywhere in the argv; a shell last (or
 * with -s) reads the command's stdin: `kubectl exec -i p -- sh <<'EOF' … EOF`, `ssh host bash < x.sh`.
 */
function shellInArgv(out: NestedCode[], view: CommandView): void {
  const { words } = view;
  for (let i = 1; i < words.length; i++) {
    if (!SHELLS.has(programName(words[i]!.value))) continue;
    const next = words[i + 1]?.value;
    const code = words[i + 2];
    if (
      next !== undefined &&
      /^-[a-zA-Z]*c[a-zA-Z]*$/.test(next) &&
      code &&
      !out.some((n) => n.kind === 'script' && n.word === code)
    ) {
      script(out, code);
      break;
    }
    if (
      (next === undefined || next === '-s' || next === '-') &&
      !out.some((n) => n.kind === 'script' && n.word.value === view.stdin?.text)
    ) {
      stdinScript(out, view);
      break;
    }
  }
}
