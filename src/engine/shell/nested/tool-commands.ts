// Nested code of tools whose options or own language run a shell command: sed's `e`, tar's and zip's command
// options, split --filter, the shell escapes of database clients, gdb and m4.
import { literalWord } from '../word.ts';
import { sedExecCommands, sedScripts } from '../../catalog/sed-script.ts';
import { treeOperands } from '../operands.ts';
import { optionValues, script, text } from './support.ts';
import type { NestedEntry } from './support.ts';

export const TOOL_COMMAND_ENTRIES: NestedEntry[] = [
  {
    programs: ['sed'],
    nested(out, view) {
      for (const s of sedScripts(view.args)) for (const cmd of sedExecCommands(s)) if (cmd) text(out, cmd);
    },
  },
  {
    programs: ['tar'],
    nested(out, _view, args) {
      // `--checkpoint-action=exec=cmd`, `--to-command=cmd`, `-I cmd` / `--use-compress-program=cmd` run a command.
      const commandOptions = [
        '--to-command',
        '--use-compress-program',
        '-I',
        '--info-script',
        '-F',
        '--new-volume-script',
      ];
      for (const w of optionValues(args, ...commandOptions)) script(out, w);
      for (const w of args) {
        const m = /^--checkpoint-action=(?:exec|shell)=(.*)$/s.exec(w.value);
        if (m) text(out, m[1]!);
      }
      // `tar --remove-files -cf /dev/null ~/src`: the files go into no archive and are deleted, as `rm -r` of them
      // would (into a real archive they are kept there).
      const intoNull = args.some(
        (w, i) => w.value === '/dev/null' && /^-[a-zA-Z]*f$|^--file$/.test(args[i - 1]?.value ?? ''),
      );
      if (args.some((w) => w.value === '--remove-files') && intoNull) {
        const operands = treeOperands('tar', args);
        if (operands.length) out.push({ kind: 'argv', words: [literalWord('rm'), literalWord('-r'), ...operands] });
      }
    },
  },
  {
    programs: ['zip'],
    nested(out, _view, args) {
      for (const w of optionValues(args, '-TT', '--unzip-command')) script(out, w);
    },
  },
  {
    programs: ['split'],
    nested(out, _view, args) {
      for (const w of optionValues(args, '--filter')) script(out, w);
    },
  },
  {
    programs: ['psql', 'mysql', 'mariadb'],
    nested(out, view, args) {
      // `psql -c '\! cmd'`, `mysql -e 'system cmd'` (or `\! cmd`): the client runs a shell command.
      const given = optionValues(args, '-c', '--command', '-e', '--execute').map((w) => w.value);
      const lines = [...given, ...(view.stdin?.text?.split('\n') ?? [])];
      for (const line of lines) {
        for (const part of line.split(/;\s*/)) {
          const m = /^\s*(?:\\!|system\s)\s*(.*)$/s.exec(part);
          if (m && m[1]!.trim()) text(out, m[1]!);
        }
      }
    },
  },
  {
    programs: ['sqlite3'],
    nested(out, view, args) {
      // `.shell cmd` / `.system cmd` in the arguments or on stdin.
      const lines = [...args.map((w) => w.value), ...(view.stdin?.text?.split('\n') ?? [])];
      for (const line of lines) {
        const m = /^\s*\.(?:shell|system)\s+(.*)$/s.exec(line);
        if (m) text(out, m[1]!);
      }
    },
  },
  {
    programs: ['gdb'],
    nested(out, _view, args) {
      // `gdb -batch -ex 'shell cmd'` (or `!cmd`).
      for (const w of optionValues(args, '-ex', '--eval-command')) {
        const m = /^\s*(?:shell\s+|!)(.*)$/s.exec(w.value);
        if (m) text(out, m[1]!);
      }
    },
  },
  {
    programs: ['m4'],
    nested(out, view, args) {
      // `syscmd(cmd)`, `esyscmd(cmd)` in m4 input run a shell command.
      const input = [...args.map((w) => w.value), view.stdin?.text ?? ''].join('\n');
      for (const m of input.matchAll(/\be?syscmd\(([^)]*)\)/g)) text(out, m[1]!);
    },
  },
];
