// Nested code of editors and pagers: vim's `:!cmd` (in `-c`, `+cmd` and scripts), commands an editor reads from
// stdin (`ed`, `ex -s`, `vim -es`), and man's pager.
import type { CommandView } from '../view.ts';
import { EDITOR_SHELL, editorCommands } from '../../catalog/danger-exec.ts';
import { optionValues, script, text } from './support.ts';
import type { NestedCode, NestedEntry } from './support.ts';

/** The editors and pagers `EDITORS` (catalog/danger-exec.ts) names: their commands come from the command line. */
const COMMAND_LINE_EDITORS = [
  'view',
  'gvim',
  'rvim',
  'rview',
  'vimdiff',
  'vim.basic',
  'vim.tiny',
  'vim.nox',
  'vim.gtk',
  'vim.gtk3',
  'less',
  'more',
];
/** Of those, the ones that also read commands from stdin (`ex -s`, `vim -es`). */
const VI_EDITORS = ['vim', 'vi', 'nvim', 'ex'];

/** `vim -c '!cmd'`, `+':!cmd'`, `less +'!cmd'`: the shell commands in the editor's commands on its command line. */
function commandLineEscapes(out: NestedCode[], view: CommandView): void {
  for (const cmd of editorCommands(view.args)) {
    const m = EDITOR_SHELL.exec(cmd);
    if (m) text(out, m[1] ?? m[2]!);
  }
}

/** An editor reading its commands from stdin (`ed`, `ex -s`, `vim -es`): `!cmd` runs a shell command. */
function stdinEscapes(out: NestedCode[], view: CommandView): void {
  if (view.stdin?.text === undefined) return;
  for (const line of view.stdin.text.split('\n')) {
    const m = EDITOR_SHELL.exec(line);
    if (m) text(out, m[1] ?? m[2]!);
  }
}

export const EDITOR_ENTRIES: NestedEntry[] = [
  {
    programs: VI_EDITORS,
    nested(out, view) {
      commandLineEscapes(out, view);
      stdinEscapes(out, view);
    },
  },
  {
    programs: COMMAND_LINE_EDITORS,
    nested(out, view) {
      commandLineEscapes(out, view);
    },
  },
  {
    programs: ['ed'],
    nested(out, view) {
      stdinEscapes(out, view);
    },
  },
  {
    programs: ['man'],
    nested(out, _view, args) {
      for (const w of optionValues(args, '-P', '--pager')) script(out, w);
    },
  },
];
