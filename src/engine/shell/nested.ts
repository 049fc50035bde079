// Finds the code a command runs in turn: sh -c strings, eval, xargs and find -exec commands, ssh remote commands,
// here-docs fed to shells, git aliases, sed `e`, editor escapes and shell strings inside inline interpreter code.
import { writtenContents, type CommandView } from './view.ts';
import type { Word } from './word.ts';
import { literalWord, partlyUnknownWord, unknownWord } from './word.ts';
import { joinWords, programName, suffixWord } from './unwrap.ts';
import { SHELLS } from '../catalog/programs.ts';
import { EDITOR_SHELL, EDITORS, editorCommands, PARALLEL_SOURCE, parallelCommand, shellReadsStdin, STDIN_FILE } from '../catalog/danger-exec.ts';
import { inlineCode, shellStringsIn } from '../catalog/inline-code.ts';
import { sedExecCommands, sedScripts } from '../catalog/sed-script.ts';
import { subscriptCodeOf } from './subscripts.ts';
import { printfVariable } from './static-eval.ts';
import { gitCommand, gitConfigAssignment, gitConfigCommand } from '../catalog/danger-git.ts';
import { findRootRange, treeOperands } from './paths.ts';
import { disposableFindName } from '../catalog/delete-targets.ts';
import { dynamicPart, escapeLiteral } from './template.ts';
import { PACKAGE_MANAGERS, packageScripts } from './package-scripts.ts';

/** Code a command runs: a script to parse (with `$0 $1 …` when given), or an argv to analyse as a command. */
export type NestedCode = { kind: 'script'; word: Word; positional?: Word[]; base?: string } | { kind: 'argv'; words: Word[] };

const XARGS_WITH_ARG = ['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a', '-e', '-l', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--replace', '--eof', '--max-lines', '--max-chars', '--process-slot-var'];
const RUNUSER_WITH_ARG = ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-w', '--whitelist-environment'];
const SSH_WITH_ARG = ['-i', '-p', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-b', '-c', '-E', '-e', '-m', '-O', '-Q', '-S', '-W', '-w', '-B', '-I', '-P'];

/** The home a login shell of `user` starts in (root's when no user is named; other users' under /home). */
export function loginHome(user: string | undefined): string {
  return user === undefined || user === 'root' || user === '0' ? '/root' : `/home/${user}`;
}

/** The program `xargs ARGS` runs on its input (`echo` when none is named). */
export function xargsProgram(args: string[]): string {
  const i = firstOperand(args.map(literalWord), XARGS_WITH_ARG);
  return i < 0 ? 'echo' : args[i]!;
}

/** The nested code of one command; `stdinItems` are the words xargs would append, when known. */
export function nestedCode(view: CommandView, stdinItems?: string[]): NestedCode[] {
  const out: NestedCode[] = [];
  const { program, words } = view;
  const args = words.slice(1);

  if (SHELLS.has(program)) {
    const c = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value));
    const at = c < 0 ? -1 : args.findIndex((w, k) => k > c && (!w.value.startsWith('-') || w.value === '-'));
    // `sh -c 'rm -rf "$0"' ~/work`: the words after the script are $0, $1, …
    if (at >= 0) out.push({ kind: 'script', word: args[at]!, positional: args.slice(at + 1) });
    else if (shellReadsStdin(view)) stdinScript(out, view);
    else {
      const file = args.find((w) => !w.value.startsWith('-'));
      script(out, file, true);
      writtenScript(out, view, file); // `cat > x.sh <<'EOF' … EOF; bash x.sh`
    }
    // `bash --rcfile <(…) -i`: the file is read first.
    for (let i = 0; i < args.length - 1; i++) if (args[i]!.value === '--rcfile' || args[i]!.value === '--init-file') script(out, args[i + 1], true);
  } else if (program === 'source' || program === '.') {
    const file = afterDashes(args)[0];
    if (file && STDIN_FILE.test(file.value)) stdinScript(out, view);
    else { script(out, file, true); writtenScript(out, view, file); }
  } else if (program === 'eval') {
    const code = afterDashes(args);
    if (code.length) out.push({ kind: 'script', word: joinWords(code) });
  } else if (program === 'xargs') {
    const i = firstOperand(args, XARGS_WITH_ARG);
    const cmd = i < 0 ? [literalWord('echo')] : args.slice(i);
    const replace = xargsReplaceString(args.slice(0, i < 0 ? args.length : i));
    // Unknown items: below the root of a find whose list is piped in (`find ~/projects … | xargs -I{} git -C {} …`).
    const listing = view.stdin?.listing;
    const items = stdinItems?.map(literalWord) ?? [listing?.length === 1 ? foundBelow(literalWord(listing[0]!)) : unknownWord('{xargs input}')];
    // `-I D cat ~/D/credentials`: the replace string stands for the item wherever it is in a word.
    const replaced = (w: Word) => (!w.value.includes(replace!) ? w : stdinItems?.length ? literalWord(w.value.split(replace!).join(stdinItems[0]!)) : w.value === replace ? items[0]! : placeholderWord(w.value, replace!));
    out.push({ kind: 'argv', words: replace !== undefined ? cmd.map(replaced) : [...cmd, ...items] });
  } else if (program === 'parallel') {
    parallelCode(out, args, view.stdin?.text);
  } else if (program === 'find') {
    // `find ~/projects -type d -exec git -C {} status \;`: each found path is below the root (one static root known).
    const { start, end: rootsEnd } = findRootRange(view.args);
    const roots = args.slice(start, rootsEnd);
    for (let i = 0; i < args.length; i++) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!.value)) continue;
      const end = args.findIndex((w, k) => k > i && (w.value === ';' || w.value === '+'));
      // `find . -name __pycache__ -exec rm -rf {} +`: what it finds is that name below the root (disposable-output.ts).
      const disposable = disposableFindName(view.args);
      const found = disposable !== undefined && roots.length === 1 && !roots[0]!.dynamic ? literalWord(`${roots[0]!.value.replace(/\/+$/, '')}/**/${disposable}`)
        : /^-(exec|ok)$/.test(args[i]!.value) && roots.length === 1 ? foundBelow(roots[0]!) : unknownWord('{}');
      const cmd = args.slice(i + 1, end < 0 ? undefined : end).map((w) => (w.value === '{}' ? found : w));
      if (cmd.length) out.push({ kind: 'argv', words: cmd });
      if (end > 0) i = end;
    }
  } else if (program === 'su' || program === 'runuser') {
    const c = args.findIndex((w) => w.value === '-c' || w.value === '--command');
    const eq = args.find((w) => w.value.startsWith('--command='));
    // `su - alice -c 'cat .ssh/id_rsa'`: a login shell starts in the user's home (root's without a name).
    const login = args.some((w) => w.value === '-' || w.value === '-l' || w.value === '--login');
    const name = args.find((w, i) => !w.value.startsWith('-') && w !== args[c + 1] && !/^-(c|s|g|G|w)$|^--(command|shell|group|supp-group|whitelist-environment)$/.test(args[i - 1]?.value ?? ''));
    const base = login ? loginHome(name?.value) : undefined;
    if (c >= 0 && args[c + 1]) out.push({ kind: 'script', word: args[c + 1]!, ...(base ? { base } : {}) });
    if (eq) out.push({ kind: 'script', word: literalWord(eq.value.slice(10)), ...(base ? { base } : {}) });
    // `runuser -u root -- rm -rf ~`: with -u the operands are the command itself (without it, a user name).
    const user = program === 'runuser' && c < 0 && !eq && args.some((w) => w.value === '-u' || w.value === '--user');
    const at = user ? firstOperand(args, RUNUSER_WITH_ARG) : -1;
    if (at >= 0) out.push({ kind: 'argv', words: args.slice(at) });
  } else if (program === 'ssh') {
    // The words after the host (a `--` before them is ssh's) are a command line for the remote shell; without
    // them, the remote shell reads its commands from ssh's stdin (`ssh host <<< 'cmd'`, `echo cmd | ssh host`).
    const host = firstOperand(args, SSH_WITH_ARG);
    const remote = host < 0 ? [] : afterDashes(args.slice(host + 1));
    if (remote.length > 0) out.push({ kind: 'script', word: joinWords(remote) });
    else if (host >= 0 && !args.some((w) => /^-[a-zA-Z]*[NfW]/.test(w.value))) stdinScript(out, view);
  } else if (program === 'git') {
    // `git -c alias.x='!cmd' x`, `-c core.sshCommand=cmd`, `git config core.pager cmd`: the command line git runs.
    // (Global options only: after the subcommand `-c` is another option, as in `git commit -c HEAD`.)
    const at = gitSubcommandAt(args);
    for (let i = 0; i < (at < 0 ? args.length : at); i++) {
      const w = args[i]!;
      const setting = w.value === '-c' ? args[++i] : /^-c./.test(w.value) ? w : undefined;
      if (!setting || setting.dynamic) continue;
      const assignment = setting === w ? w.value.slice(2) : setting.value;
      const eq = assignment.indexOf('=');
      const cmd = eq > 0 ? gitConfigCommand(assignment.slice(0, eq), assignment.slice(eq + 1)) : undefined;
      if (cmd !== undefined) text(out, cmd);
    }
    if (at >= 0 && args[at]!.value === 'config') {
      const rest = args.slice(at + 1);
      const set = gitConfigAssignment(rest.map((x) => x.value));
      const cmd = set && !rest.slice(set.keyAt).some((x) => x.dynamic) ? gitConfigCommand(set.key, set.value) : undefined;
      if (cmd !== undefined) text(out, cmd);
    }
    gitCommands(out, args, at);
  } else if (program === 'fd' || program === 'fdfind') {
    // `fd PATTERN DIR -x cmd` / `-X cmd`: the command runs on every file found (or on all at once).
    const x = args.findIndex((w) => /^(-x|-X|--exec|--exec-batch)$/.test(w.value));
    if (x >= 0 && x + 1 < args.length) {
      const cmd = args.slice(x + 1).filter((w) => w.value !== ';');
      out.push({ kind: 'argv', words: cmd.some((w) => /^\{[./]*\}$/.test(w.value)) ? cmd.map((w) => (/^\{[./]*\}$/.test(w.value) ? unknownWord('{}') : w)) : [...cmd, unknownWord('{fd results}')] });
    }
  } else if (PACKAGE_MANAGERS.has(program)) {
    packageScripts(out, view, args);
  } else if (program === 'concurrently') {
    // `concurrently "npm:dev" "tsc -w"`: each operand is a command line (`npm:NAME` is `npm run NAME`).
    for (let i = 0; i < args.length; i++) {
      const w = args[i]!;
      if (w.value.startsWith('-')) { if (CONCURRENTLY_WITH_ARG.includes(w.value)) i++; continue; }
      const npm = /^(npm|yarn|pnpm|bun):(.+)$/.exec(w.value);
      if (npm && !w.dynamic) out.push({ kind: 'argv', words: [literalWord(npm[1]!), literalWord('run'), literalWord(npm[2]!)] });
      else script(out, w);
    }
  } else if (program === 'nodemon') {
    for (const w of optionValues(args, '--exec', '-x')) script(out, w);
  } else if (program === 'watchexec' || program === 'reflex') {
    // `watchexec -e js -- npm test`, `watchexec 'make test'`: the command after the options.
    // (firstOperand also starts after a `--`; reflex runs only what follows one.)
    const dashes = args.findIndex((w) => w.value === '--');
    const at = program === 'watchexec' ? firstOperand(args, WATCHEXEC_WITH_ARG) : dashes < 0 ? -1 : dashes + 1;
    const cmd = at < 0 ? [] : args.slice(at);
    if (cmd.length === 1) script(out, cmd[0]); else if (cmd.length > 1) out.push({ kind: 'argv', words: cmd });
  } else if (program === 'rsync') {
    // `-e cmd` / `--rsh=cmd` runs cmd here to reach the other side; `--rsync-path=cmd` runs it there.
    for (const w of optionValues(args, '-e', '--rsh', '--rsync-path')) script(out, w);
  } else if (program === 'man') {
    for (const w of optionValues(args, '-P', '--pager')) script(out, w);
  } else if (program === 'cmake' && args[0]?.value === '-E') {
    // `cmake -E rm -rf dir`, `cmake -E remove_directory dir`: cmake's portable file commands.
    const tool = args[1]?.value;
    const rest = args.slice(2);
    if (tool === 'rm' || tool === 'remove') out.push({ kind: 'argv', words: [literalWord('rm'), ...rest] });
    else if (tool === 'remove_directory') out.push({ kind: 'argv', words: [literalWord('rm'), literalWord('-rf'), ...rest] });
  } else if (program === 'del-cli' || program === 'del') {
    // npm's recursive deleter (rimraf has a catalogue entry of its own): `npx del-cli dist` is `rm -rf dist`.
    out.push({ kind: 'argv', words: [literalWord('rm'), literalWord('-rf'), ...args.filter((w) => !w.value.startsWith('-'))] });
  } else if (program === 'shx') {
    // `npx shx rm -rf dist`: shx runs the shell command it is given (rm, cp, mv, …).
    if (args.length > 0) out.push({ kind: 'argv', words: args.filter((w, i) => i > 0 || !w.value.startsWith('-')) });
  } else if (program === 'sed') {
    for (const s of sedScripts(view.args)) for (const cmd of sedExecCommands(s)) if (cmd) text(out, cmd);
  } else if (EDITORS.test(program)) {
    for (const cmd of editorCommands(view.args)) {
      const m = EDITOR_SHELL.exec(cmd);
      if (m) text(out, m[1] ?? m[2]!);
    }
  } else if (program === 'alias') {
    for (const w of args) { const eq = w.value.indexOf('='); if (eq > 0) text(out, w.value.slice(eq + 1)); }
  } else if (program === 'trap') {
    script(out, afterDashes(args)[0]);
  } else if (program === 'compgen' || program === 'complete' || program === 'mapfile' || program === 'readarray') {
    // `compgen -C 'cmd' x` runs cmd; `complete -C` at the next completion; `mapfile -C 'cmd'` for every line read.
    for (const code of optionValues(args, '-C')) script(out, code);
  } else if (program === 'script') {
    // `script -qc 'cmd' /dev/null` runs cmd in a shell; without -c the shell reads stdin (`echo cmd | script -q f`).
    const c = args.findIndex((w) => /^-[a-zA-Z]*c$/.test(w.value) || w.value === '--command');
    const eq = args.find((w) => w.value.startsWith('--command='));
    if (c >= 0) script(out, args[c + 1]);
    else if (eq) script(out, suffixWord(eq, 10));
    else stdinScript(out, view);
  } else if (program === 'fc') {
    // `fc -e 'cmd' -1` runs cmd as the editor of the history entry (and then the entry); FCEDIT likewise.
    for (const code of optionValues(args, '-e')) script(out, code);
  } else if (program === 'history') {
    // `history -s 'cmd'` puts a command in the history, which `fc -s` then runs.
    if (args[0]?.value === '-s') out.push({ kind: 'script', word: joinWords(args.slice(1)) });
  } else if (program === 'ansible') {
    // `ansible all -m shell -a 'rm -rf /var/www'`: the shell (or command, raw) module runs its argument on each host.
    const module = optionValues(args, '-m', '--module-name')[0]?.value;
    if (module === undefined || /^(ansible\.builtin\.)?(shell|command|raw|script)$/.test(module)) for (const w of optionValues(args, '-a', '--args')) script(out, w);
  } else if (program === 'tar') {
    // `--checkpoint-action=exec=cmd`, `--to-command=cmd`, `-I cmd` / `--use-compress-program=cmd` run a command.
    for (const w of optionValues(args, '--to-command', '--use-compress-program', '-I', '--info-script', '-F', '--new-volume-script')) script(out, w);
    for (const w of args) { const m = /^--checkpoint-action=(?:exec|shell)=(.*)$/s.exec(w.value); if (m) text(out, m[1]!); }
    // `tar --remove-files -cf /dev/null ~/src`: the files go into no archive and are deleted, as `rm -r` of them
    // would (into a real archive they are kept there).
    if (args.some((w) => w.value === '--remove-files') && args.some((w, i) => w.value === '/dev/null' && /^-[a-zA-Z]*f$|^--file$/.test(args[i - 1]?.value ?? ''))) {
      const operands = treeOperands('tar', args);
      if (operands.length) out.push({ kind: 'argv', words: [literalWord('rm'), literalWord('-r'), ...operands] });
    }
  } else if (program === 'zip') {
    for (const w of optionValues(args, '-TT', '--unzip-command')) script(out, w);
  } else if (program === 'at' || program === 'batch') {
    // `at now <<< 'cmd'`, `echo cmd | at now`: the commands come from stdin, or from the file `-f` names.
    if (!args.some((w) => /^-[a-zA-Z]*[lrdc]$/.test(w.value) || w.value === '--list')) {
      const file = optionValues(args, '-f')[0];
      if (file) { script(out, file, true); writtenScript(out, view, file); } else stdinScript(out, view);
    }
  } else if (program === 'make' || program === 'gmake') {
    makeRecipes(out, view, args);
    // `make CC='…' all`, `make SHELL=…`: a variable on make's command line that make runs as a command.
    for (const w of args) { const m = /^(CC|CXX|CPP|LD|AR|FC|SHELL|MAKESHELL)=(.*\s.*)$/s.exec(w.value); if (m && !w.dynamic) text(out, m[2]!); }
  } else if (program === 'crontab') {
    cronCode(out, view, args);
  } else if (program === 'hyperfine') {
    // Each operand is a shell command it times; --prepare, --setup and --cleanup are shell commands too.
    for (const w of [...optionValues(args, '-p', '--prepare', '-s', '--setup', '-c', '--cleanup'), ...operandsOf(args, HYPERFINE_WITH_ARG)]) script(out, w);
  } else if (program === 'screen') {
    screenCode(out, args);
  } else if (program === 'tmux') {
    tmuxCode(out, args);
  } else if (program === 'nix-shell') {
    for (const w of optionValues(args, '--run', '--command')) script(out, w);
  } else if (program === 'start-stop-daemon') {
    // `--exec PROG … -- ARGS`: with --start it runs PROG with the words after `--`.
    const exec = optionValues(args, '--exec', '-x', '--startas', '-a').at(-1);
    const dashes = args.findIndex((w) => w.value === '--');
    if (exec && args.some((w) => w.value === '--start' || w.value === '-S')) out.push({ kind: 'argv', words: [exec, ...(dashes >= 0 ? args.slice(dashes + 1) : [])] });
  } else if (program === 'split') {
    for (const w of optionValues(args, '--filter')) script(out, w);
  } else if (program === 'psql' || program === 'mysql' || program === 'mariadb') {
    // `psql -c '\! cmd'`, `mysql -e 'system cmd'` (or `\! cmd`): the client runs a shell command.
    const lines = [...optionValues(args, '-c', '--command', '-e', '--execute').map((w) => w.value), ...(view.stdin?.text?.split('\n') ?? [])];
    for (const line of lines) for (const part of line.split(/;\s*/)) { const m = /^\s*(?:\\!|system\s)\s*(.*)$/s.exec(part); if (m && m[1]!.trim()) text(out, m[1]!); }
  } else if (program === 'm4') {
    // `syscmd(cmd)`, `esyscmd(cmd)` in m4 input run a shell command.
    const input = [...args.map((w) => w.value), view.stdin?.text ?? ''].join('\n');
    for (const m of input.matchAll(/\be?syscmd\(([^)]*)\)/g)) text(out, m[1]!);
  } else if (program === 'vagrant') {
    if (args[0]?.value === 'ssh') for (const w of optionValues(args, '-c', '--command')) script(out, w);
  } else if (program === 'sqlite3') {
    // `.shell cmd` / `.system cmd` in the arguments or on stdin.
    const lines = [...args.map((w) => w.value), ...(view.stdin?.text?.split('\n') ?? [])];
    for (const line of lines) { const m = /^\s*\.(?:shell|system)\s+(.*)$/s.exec(line); if (m) text(out, m[1]!); }
  } else if (program === 'gdb') {
    // `gdb -batch -ex 'shell cmd'` (or `!cmd`).
    for (const w of optionValues(args, '-ex', '--eval-command')) { const m = /^\s*(?:shell\s+|!)(.*)$/s.exec(w.value); if (m) text(out, m[1]!); }
  }
  // An editor reading its commands from stdin (`ed`, `ex -s`, `vim -es`): `!cmd` runs a shell command.
  if (STDIN_EDITORS.has(program) && view.stdin?.text !== undefined) {
    for (const line of view.stdin.text.split('\n')) { const m = EDITOR_SHELL.exec(line); if (m) text(out, m[1] ?? m[2]!); }
  }
  if (program === 'ssh' || program === 'scp' || program === 'sftp') {
    // `-o ProxyCommand=cmd` (or `-oProxyCommand cmd`, `LocalCommand`) runs cmd on this machine.
    for (const w of optionValues(args, '-o')) { const m = /^(?:ProxyCommand|LocalCommand)\s*[= ]\s*(.*)$/is.exec(w.value); if (m && m[1] !== 'none') text(out, m[1]!); }
  }
  // `env 'BASH_FUNC_f%%=() { cmd; }' bash -c f`: a function a child bash imports and may run.
  for (const w of words) {
    if (!w.value.startsWith('BASH_FUNC_')) continue;
    const m = /^BASH_FUNC_[^=]*=\s*\(\)\s*(\{[\s\S]*\})\s*$/.exec(w.value);
    if (m) text(out, m[1]!);
  }
  // (`printf -v 'a[$(cmd)]' x`, `read`, `declare`, `unset`, `test -v`: bash evaluates the array subscript of a name
  // it is given. Such a name is static text with a subscript, which word resolution walks: word.ts.)
  // `read x <<'EOF'⏎a[$(cmd)]⏎EOF`: the variable holds a subscript with code, which `(( x ))` or `let x` would run.
  // (A here-string is a word, read for that as it is resolved.)
  if (VARIABLE_READERS.has(program) && view.stdin?.kind === 'heredoc' && view.stdin.text !== undefined) for (const code of subscriptCodeOf(view.stdin.text)) text(out, code);
  // `printf -v x '%s[%s(cmd)]' a '$'`: the variable holds what printf writes, maybe a subscript with code.
  const set = program === 'printf' && !args.some((w) => w.dynamic) ? printfVariable(args.map((w) => w.value)) : undefined;
  if (set?.value !== undefined) for (const code of subscriptCodeOf(set.value)) text(out, code);
  // `./x.sh` after `cat > x.sh <<'EOF' … EOF`: a script file run by its path.
  if (view.words[0]?.value.includes('/')) writtenScript(out, view, view.words[0]);
  for (const code of inlineCode(view)) for (const s of shellStringsIn(code.code, code.language)) text(out, s);
  // `docker exec c sh -c '…'`, `kubectl exec p -- bash -c '…'`: a shell with -c anywhere in the argv; a shell
  // last (or with -s) reads the command's stdin: `kubectl exec -i p -- sh <<'EOF' … EOF`, `ssh host bash < x.sh`.
  if (!SHELLS.has(program)) {
    for (let i = 1; i < words.length; i++) {
      if (!SHELLS.has(programName(words[i]!.value))) continue;
      const next = words[i + 1]?.value;
      if (next !== undefined && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(next) && words[i + 2] && !out.some((n) => n.kind === 'script' && n.word === words[i + 2])) {
        script(out, words[i + 2]);
        break;
      }
      if ((next === undefined || next === '-s' || next === '-') && !out.some((n) => n.kind === 'script' && n.word.value === view.stdin?.text)) {
        stdinScript(out, view);
        break;
      }
    }
  }
  return out;
}

/** Builtins that store what they read from stdin in variables. */
const VARIABLE_READERS = new Set(['read', 'mapfile', 'readarray']);
/** Adds a word as code; with `fromProcess`, only a `<(…)` whose output is known counts (its output is the code). */
function script(out: NestedCode[], w: Word | undefined, fromProcess = false): void {
  if (!w) return;
  if (!fromProcess) out.push({ kind: 'script', word: w });
  else if (w.processOutput !== undefined) text(out, w.processOutput);
}

/** The command's stdin as code (here-doc, here-string, evaluable pipe); unknown parts make it dynamic code. */
function stdinScript(out: NestedCode[], view: CommandView): void {
  const stdin = view.stdin;
  if (!stdin || stdin.text === undefined) return;
  if (stdin.dynamic) out.push({ kind: 'script', word: { ...literalWord(stdin.text), dynamic: true } });
  else text(out, stdin.text);
}

function text(out: NestedCode[], s: string): void {
  out.push({ kind: 'script', word: literalWord(s) });
}

/** concurrently's options that take a value (the other operands are the commands it runs). */
const CONCURRENTLY_WITH_ARG = ['-n', '--names', '-c', '--prefix-colors', '-p', '--prefix', '-l', '--prefix-length', '-t', '--timestamp-format', '-m', '--max-processes', '-s', '--success',
  '--restart-tries', '--restart-after', '--default-input-target', '--names-separator', '--pad-prefix', '-P', '--passthrough-arguments'];

/** hyperfine options that take a value (the other operands are the commands it times). */
const HYPERFINE_WITH_ARG = ['-w', '--warmup', '-m', '--min-runs', '-M', '--max-runs', '-r', '--runs', '-p', '--prepare', '-s', '--setup', '-c', '--cleanup', '-S', '--shell', '-u', '--time-unit', '-n', '--command-name', '--export-asciidoc', '--export-csv', '--export-json', '--export-markdown', '--export-orgmode', '--style', '--sort', '--output', '--input', '-D', '--parameter-step-size', '--reference'];

/** The operands of a command whose options `withArg` take a value (`-P NAME MIN MAX` / `-L NAME LIST` skipped too). */
function operandsOf(args: Word[], withArg: string[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '--') { out.push(...args.slice(i + 1)); break; }
    if (a === '-P' || a === '--parameter-scan') { i += 3; continue; }
    if (a === '-L' || a === '--parameter-list') { i += 2; continue; }
    if (a.startsWith('-') && a.length > 1) { if (withArg.includes(a)) i++; continue; }
    out.push(args[i]!);
  }
  return out;
}

/**
 * `crontab FILE` or `crontab -` (stdin) installs a table whose lines are commands cron runs later: `* * * * * cmd`,
 * `@reboot cmd`. The table is known from a here-doc, a here-string, an evaluable pipe or a file written earlier in
 * the same command line (known lines of a partly known stdin count: `(crontab -l; echo '@reboot cmd') | crontab -`).
 * `-l`, `-r`, `-e` install nothing from here.
 */
function cronCode(out: NestedCode[], view: CommandView, args: Word[]): void {
  if (args.some((w) => /^-[a-zA-Z]*[lre]/.test(w.value) && !w.value.startsWith('--'))) return;
  const file = args.find((w, i) => !w.value.startsWith('-') && args[i - 1]?.value !== '-u') ?? args.find((w) => w.value === '-');
  const table = file === undefined || file.value === '-' ? view.stdin?.text : writtenContents(view.written, file);
  if (table === undefined) return;
  for (const line of table.split('\n')) {
    const entry = line.trim();
    if (entry === '' || entry.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(entry)) continue;
    const m = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)$/s.exec(entry);
    // An unescaped `%` ends the command (the rest is its stdin).
    if (m) text(out, m[1]!.replace(/(^|[^\\])%.*$/s, '$1').replace(/\\%/g, '%'));
  }
}

/**
 * `printf 'all:\n\trm -rf ~\n' > Makefile && make`: the recipes of a makefile this command line wrote (the default
 * names, or `-f FILE`) are shell commands. Make's own `$(VAR)` references become a plain word, `$$` a `$`.
 */
function makeRecipes(out: NestedCode[], view: CommandView, args: Word[]): void {
  const named = optionValues(args, '-f', '--file', '--makefile')[0];
  const contents = writtenContents(view.written, named ?? ['GNUmakefile', 'makefile', 'Makefile'].find((f) => view.written.has(f)));
  if (contents === undefined) return;
  for (const line of contents.split('\n')) {
    if (!line.startsWith('\t')) continue;
    const recipe = line.slice(1).replace(/^[@+-]+/, '').replace(/\$[({][^)}]*[)}]/g, 'x').replace(/\$\$/g, '$');
    if (recipe.trim() !== '') text(out, recipe);
  }
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
    sources.push(!fromFile && stdin !== undefined ? stdin.split('\n').filter((l) => l.trim() !== '').map(literalWord) : [undefined]);
  }
  if (start === end) {
    for (const input of sources.flat()) if (input) script(out, input);
    return;
  }
  const quoted = (input: Word | undefined) => (input === undefined || input.dynamic ? '"$PARALLEL_INPUT"' : `'${input.value.replace(/'/g, "'\\''")}'`);
  let replaced = false;
  const line = args.slice(start, end).map((w) => w.value.replace(PARALLEL_REPLACEMENT, (_m, n: string) => {
    replaced = true;
    return quoted(n ? sources[Number(n) - 1]?.[0] : sources[0]![0]);
  })).join(' ');
  text(out, replaced ? line : `${line} ${sources.map((s) => quoted(s[0])).join(' ')}`);
}

/** screen options that take a value, and options after which no command is started (attach, list, wipe). */
const SCREEN_WITH_ARG = ['-S', '-c', '-e', '-h', '-p', '-s', '-t', '-T', '-Logfile'];
const SCREEN_NO_COMMAND = /^-(r|R|RR|x|ls|list|wipe|v|-version|D|d)$/;

/**
 * `screen -dm cmd args` starts cmd; `screen -X stuff 'text'` (or `-Q`) types the text into the session's shell
 * (`\n` and `^M` end a line there).
 */
function screenCode(out: NestedCode[], args: Word[]): void {
  const x = args.findIndex((w) => w.value === '-X' || w.value === '-Q');
  if (x >= 0) {
    if (args[x + 1]?.value === 'stuff' && args.length > x + 2) text(out, args.slice(x + 2).map((w) => w.value).join(' ').replace(/\\n|\^M|\\r/g, '\n'));
    return;
  }
  if (args.some((w) => SCREEN_NO_COMMAND.test(w.value)) && !args.some((w) => /^-[dD]m$|^-m$/.test(w.value))) return;
  // `-dmS name`: a cluster whose last letter takes a value takes the next word.
  let at = 0;
  while (at < args.length && args[at]!.value.startsWith('-')) at += SCREEN_WITH_ARG.includes(args[at]!.value) || /^-[a-zA-Z]*[ScehpstT]$/.test(args[at]!.value) ? 2 : 1;
  if (at < args.length) out.push({ kind: 'argv', words: args.slice(at) });
}

/** tmux subcommands that start a shell command (their operands), with the letters of their options that take a value. */
const TMUX_RUNS: Record<string, string> = {
  'new-session': 'cefFnstxy', new: 'cefFnstxy', 'new-window': 'ceFnt', neww: 'ceFnt', 'split-window': 'celtF', splitw: 'celtF',
  'respawn-pane': 'cet', respawnp: 'cet', 'respawn-window': 'cet', respawnw: 'cet', 'run-shell': 'cdt', run: 'cdt',
  'if-shell': 't', if: 't', 'display-popup': 'bcdehsStTwxy', popup: 'bcdehsStTwxy', 'send-keys': 'cNt', send: 'cNt',
};

/** The operands of a tmux subcommand: options (`-d`, `-t name`, `-tname`, `-dc dir`) left out. */
function tmuxOperands(words: Word[], valueLetters: string): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!.value;
    if (a === '--') { out.push(...words.slice(i + 1)); break; }
    if (/^-[a-zA-Z]+$/.test(a)) {
      // In a cluster, the first letter that takes a value takes the rest of the word, or the next word.
      const at = [...a.slice(1)].findIndex((c) => valueLetters.includes(c));
      if (at >= 0 && at === a.length - 2) i++;
      continue;
    }
    out.push(words[i]!);
  }
  return out;
}

/**
 * tmux commands that run shell code: `new-session 'cmd'`, `split-window cmd args`, `run-shell 'cmd'`, and
 * `send-keys 'text' Enter`, which types the text into the shell of a pane.
 */
function tmuxCode(out: NestedCode[], args: Word[]): void {
  // Global options first (`-L socket`, `-f file`, `-S path`), then commands separated by `;`.
  let start = 0;
  while (start < args.length && args[start]!.value.startsWith('-')) start += /^-[LSfcT]$/.test(args[start]!.value) ? 2 : 1;
  while (start < args.length) {
    let end = args.findIndex((w, k) => k > start && (w.value === ';' || w.value === '\\;'));
    if (end < 0) end = args.length;
    const letters = TMUX_RUNS[args[start]!.value];
    if (letters !== undefined) {
      let operands = tmuxOperands(args.slice(start + 1, end), letters);
      if (args[start]!.value.startsWith('send')) operands = operands.filter((w) => !/^(Enter|C-m|C-j|KPEnter|Space|Tab|Escape|BSpace)$/.test(w.value));
      if (operands.length) out.push({ kind: 'script', word: joinWords(operands) });
    }
    start = end + 1;
  }
}

/** watchexec options that take a value (its command is the first operand on). */
const WATCHEXEC_WITH_ARG = ['-e', '--exts', '-w', '--watch', '-i', '--ignore', '-s', '--signal', '-d', '--debounce', '--delay-run', '--shell', '-f', '--filter', '--filter-file', '--ignore-file', '-p', '--postpone', '--project-origin', '--workdir', '--env', '-E', '--emit-events-to', '--on-busy-update', '--stop-signal', '--stop-timeout', '--poll', '--color', '--log-file'];

/** Git subcommands and options that run a command: `rebase --exec`, `bisect run`, `submodule foreach`, `--upload-pack`, `ext::`. */
function gitCommands(out: NestedCode[], args: Word[], at: number): void {
  if (at < 0) return;
  const sub = args[at]!.value;
  const rest = args.slice(at + 1);
  if (sub === 'rebase') for (const w of optionValues(rest, '--exec', '-x')) script(out, w);
  else if (sub === 'bisect' && rest[0]?.value === 'run' && rest.length > 1) out.push({ kind: 'argv', words: rest.slice(1) });
  else if (sub === 'submodule' && rest[0]?.value === 'foreach') {
    const cmd = rest.slice(1).filter((w) => w.value !== '--recursive' && w.value !== '-q' && w.value !== '--quiet');
    if (cmd.length) out.push({ kind: 'script', word: joinWords(cmd) });
  } else if (sub === 'difftool' || sub === 'mergetool') for (const w of optionValues(rest, '-x', '--extcmd')) script(out, w);
  else if (sub === 'grep') for (const w of optionValues(rest, '-O', '--open-files-in-pager')) if (w.value) script(out, w);
  for (const w of optionValues(rest, '--upload-pack', '--receive-pack', '--exec', ...(sub === 'clone' ? ['-u'] : []))) if (sub !== 'rebase') script(out, w);
  // `ext::cmd args` runs cmd as the remote: words split at blanks, `% ` a blank inside a word, `%%` a percent.
  for (const w of rest) {
    const m = /^ext::(.*)$/s.exec(w.value);
    if (m) out.push({ kind: 'argv', words: m[1]!.split(/(?<!%) +/).filter((x) => x !== '').map((x) => literalWord(x.replace(/%([ %])/g, '$1'))) });
  }
}

/** Where git's subcommand is in its arguments, after its global options (`-C dir`, `-c k=v`), or -1. */
function gitSubcommandAt(args: Word[]): number {
  const rest = gitCommand(args.map((w) => w.value));
  return rest.length === 0 ? -1 : args.length - rest.length;
}

/** Editors that read their commands from stdin (`ed`, `ex -s`, `vim -es`). */
const STDIN_EDITORS = new Set(['ed', 'ex', 'vim', 'vi', 'nvim']);


/** A script file this command line wrote with known contents earlier: its contents are the code. */
function writtenScript(out: NestedCode[], view: CommandView, file: Word | undefined): void {
  const contents = writtenContents(view.written, file);
  if (contents !== undefined) text(out, contents);
}

/** The arguments after a leading `--` (`trap -- 'cmd' EXIT`, `eval -- 'cmd'`). */
function afterDashes(args: Word[]): Word[] {
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
      if (w.value === option) { if (args[i + 1]) out.push(args[++i]!); break; }
      const at = option.startsWith('--') ? (w.value.startsWith(`${option}=`) ? option.length + 1 : -1) : w.value.startsWith(option) && w.value.length > option.length ? option.length : -1;
      if (at > 0) { out.push(suffixWord(w, at)); break; }
    }
  }
  return out;
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
  return partlyUnknownWord(`${root.value.replace(/\/+$/, '')}/{}`, `${root.template.replace(/\/+$/, '')}/${dynamicPart('{}')}`);
}

/** A word with an unknown item in place of each replace string (`~/{}/id_rsa` with unknown input). */
function placeholderWord(value: string, replace: string): Word {
  return partlyUnknownWord(value, value.split(replace).map(escapeLiteral).join(dynamicPart('{xargs input}')));
}

function firstOperand(args: Word[], withArg: string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '--') return i + 1 < args.length ? i + 1 : -1;
    if (a.startsWith('-') && a.length > 1) { if (withArg.includes(a)) i++; continue; }
    return i;
  }
  return -1;
}

