// Nested code of git: command lines in its settings (`-c alias.x='!cmd'`, `git config core.pager cmd`) and the
// subcommands and options that run a command (`rebase --exec`, `bisect run`, `submodule foreach`, `ext::`).
import type { Word } from '../word.ts';
import { literalWord } from '../word.ts';
import { joinWords } from '../unwrap.ts';
import { gitCommand, gitConfigAssignment, gitConfigCommand } from '../../catalog/danger-git.ts';
import { optionValues, script, text } from './support.ts';
import type { NestedCode, NestedEntry } from './support.ts';

/** Where git's subcommand is in its arguments, after its global options (`-C dir`, `-c k=v`), or -1. */
function gitSubcommandAt(args: Word[]): number {
  const rest = gitCommand(args.map((w) => w.value));
  return rest.length === 0 ? -1 : args.length - rest.length;
}

/** `git -c alias.x='!cmd' x`, `-c core.sshCommand=cmd`: settings given before the subcommand that are command lines. */
function settingCommands(out: NestedCode[], args: Word[], at: number): void {
  // (Global options only: after the subcommand `-c` is another option, as in `git commit -c HEAD`.)
  for (let i = 0; i < (at < 0 ? args.length : at); i++) {
    const w = args[i]!;
    const setting = w.value === '-c' ? args[++i] : /^-c./.test(w.value) ? w : undefined;
    if (!setting || setting.dynamic) continue;
    const assignment = setting === w ? w.value.slice(2) : setting.value;
    const eq = assignment.indexOf('=');
    const cmd = eq > 0 ? gitConfigCommand(assignment.slice(0, eq), assignment.slice(eq + 1)) : undefined;
    if (cmd !== undefined) text(out, cmd);
  }
}

/** `git config core.pager cmd`: a setting stored that git will run. */
function configCommand(out: NestedCode[], args: Word[], at: number): void {
  if (at < 0 || args[at]!.value !== 'config') return;
  const rest = args.slice(at + 1);
  const set = gitConfigAssignment(rest.map((x) => x.value));
  const cmd = set && !rest.slice(set.keyAt).some((x) => x.dynamic) ? gitConfigCommand(set.key, set.value) : undefined;
  if (cmd !== undefined) text(out, cmd);
}

/** Git subcommands and options that run a command: `rebase --exec`, `bisect run`, `submodule foreach`, `--upload-pack`, `ext::`. */
function subcommandCommands(out: NestedCode[], args: Word[], at: number): void {
  if (at < 0) return;
  const sub = args[at]!.value;
  const rest = args.slice(at + 1);
  if (sub === 'rebase') for (const w of optionValues(rest, '--exec', '-x')) script(out, w);
  else if (sub === 'bisect' && rest[0]?.value === 'run' && rest.length > 1)
    out.push({ kind: 'argv', words: rest.slice(1) });
  else if (sub === 'submodule' && rest[0]?.value === 'foreach') {
    const cmd = rest.slice(1).filter((w) => w.value !== '--recursive' && w.value !== '-q' && w.value !== '--quiet');
    if (cmd.length) out.push({ kind: 'script', word: joinWords(cmd) });
  } else if (sub === 'difftool' || sub === 'mergetool')
    for (const w of optionValues(rest, '-x', '--extcmd')) script(out, w);
  else if (sub === 'grep')
    for (const w of optionValues(rest, '-O', '--open-files-in-pager')) if (w.value) script(out, w);
  const remoteHelpers = optionValues(
    rest,
    '--upload-pack',
    '--receive-pack',
    '--exec',
    ...(sub === 'clone' ? ['-u'] : []),
  );
  for (const w of remoteHelpers) if (sub !== 'rebase') script(out, w);
  // `ext::cmd args` runs cmd as the remote: words split at blanks, `% ` a blank inside a word, `%%` a percent.
  for (const w of rest) {
    const m = /^ext::(.*)$/s.exec(w.value);
    if (!m) continue;
    const words = m[1]!
      .split(/(?<!%) +/)
      .filter((x) => x !== '')
      .map((x) => literalWord(x.replace(/%([ %])/g, '$1')));
    out.push({ kind: 'argv', words });
  }
}

export const GIT_ENTRIES: NestedEntry[] = [
  {
    programs: ['git'],
    nested(out, _view, args) {
      const at = gitSubcommandAt(args);
      settingCommands(out, args, at);
      configCommand(out, args, at);
      subcommandCommands(out, args, at);
    },
  },
];
