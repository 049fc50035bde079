// The third stage of a simple command: what running it changes for the commands after it (the directory, variables,
// files with known contents, links, programs under other names). One entry per program in PROGRAM_EFFECTS.
import type { ScriptWalker } from './walker.ts';
import { changeDir, type Frame } from './frame.ts';
import { stdoutToFile, writtenContents, type CommandView, type Redirect } from './view.ts';
import { literalWord, type Word } from './word.ts';
import type { CommandRun } from './resolve.ts';
import { escapeLiteral } from './template.ts';
import { recordDownloads } from './downloads.ts';
import { printfVariable } from './static-eval.ts';
import { recordAddedRemote } from '../catalog/danger-git.ts';
import { referencesSecret } from '../catalog/danger-secrets.ts';
import { SECRET_FILE_MAKERS, secretFilesMade } from '../catalog/secret-printers.ts';

/** A command that ran, as its effect reads it. */
export interface EffectRun {
  walker: ScriptWalker;
  run: CommandRun;
  /** What the catalogue saw (judge.ts). */
  view: CommandView;
  frame: Frame;
  /** The program's arguments as words. */
  args: Word[];
  /** What it prints, when known (static-eval.ts). */
  output: string | undefined;
}

/** What a program changes in the walker's state when it runs. */
export interface ProgramEffect {
  /** When it runs as itself: under a wrapper (`sudo cd`, `env cp`, `command read`) it changes nothing here. */
  bare?: (e: EffectRun) => void;
  /** Under any wrapper too. */
  always?: (e: EffectRun) => void;
}

/** Directories of installed programs: a copy or link of a file there under another name runs that program. */
const PROGRAM_DIRS = /^\/(usr\/)?(local\/)?s?bin\//;

/**
 * What programs change for the commands after them, by program name. The command itself was judged in the state
 * before it ran (judge.ts); its effects apply to the commands that follow.
 */
export const PROGRAM_EFFECTS: Readonly<Record<string, ProgramEffect>> = {
  // `ln -s ~ h && cat h/.ssh/id_rsa`; `ln -s /bin/rm ./x && ./x -rf ~`.
  ln: {
    bare: (e) => {
      link(e);
      programAlias(e);
    },
  },
  // `echo cmd > a.sh; cp a.sh b.sh; bash b.sh`; `cp /bin/rm ./x && ./x -rf ~`.
  cp: {
    bare: (e) => {
      copyWritten(e, false);
      programAlias(e);
    },
  },
  mv: { bare: (e) => copyWritten(e, true) },
  install: { bare: programAlias },
  // `hash -p /bin/rm ls; ls -rf ~`.
  hash: { bare: programAlias },
  // `set -- rm -rf ~; "$@"`.
  set: { bare: positionalParameters },
  // `read x <<< 'rm -rf ~'; $x`.
  read: { bare: readVariables },
  // `printf -v x 'rm'; $x -rf ~`; `printf '%s' "$TOKEN" > /tmp/t; cat /tmp/t`.
  printf: { bare: printfToVariable, always: secretToFile },
  echo: { always: secretToFile },
  // `git remote add x URL && git push x`.
  git: { always: (e) => recordAddedRemote(e.view, e.walker.state.addedRemotes) },
  // `cd ~/.ssh && cat id_rsa`; `pushd ~ && popd`.
  cd: { bare: changeDirectory },
  pushd: { bare: changeDirectory },
  popd: { bare: changeDirectory },
  // `gcloud iam service-accounts keys create k.json && cat k.json`; `php artisan env:decrypt --force && cat .env`.
  ...Object.fromEntries(SECRET_FILE_MAKERS.map((name) => [name, { always: secretFiles }])),
};

const EFFECTS = new Map(Object.entries(PROGRAM_EFFECTS));

/** Applies what a command that ran changes: its downloads, the files it writes, and its program's effects. */
export function applyEffects(
  walker: ScriptWalker,
  run: CommandRun,
  view: CommandView,
  output: string | undefined,
): void {
  recordDownloads(view, walker.state.downloads);
  recordWrites(walker, run.info.redirects, output);
  const effect = EFFECTS.get(run.program);
  if (!effect) return;
  const e: EffectRun = { walker, run, view, frame: run.info.frame, args: run.argv.slice(1), output };
  if (run.wrappers.length === 0) effect.bare?.(e);
  effect.always?.(e);
}

/**
 * Remembers what a command's redirections write: its static output (`echo cmd > f.sh`, `cat > f.sh <<'EOF'`), or,
 * when that is not known, that the file's contents no longer are.
 */
function recordWrites(walker: ScriptWalker, redirects: Redirect[], output: string | undefined): void {
  const { state } = walker;
  for (const r of redirects) {
    if (!r.write || !r.target || r.target.dynamic) continue;
    const path = r.target.value;
    if (output === undefined || (r.op !== '>' && r.op !== '>|' && r.op !== '>>')) {
      state.wrote(path, undefined);
      continue;
    }
    const contents = r.op === '>>' ? (writtenContents(state.written, path) ?? '') + output : output;
    // `echo "$a" >> f` in a loop of lines: the file's known contents are bounded like a variable's value.
    walker.budget.word(contents.length, 'a file the command writes');
    state.wrote(path, contents);
  }
}

/** `ln -s TARGET NAME` (also `-sf`, `-sfn`, `--symbolic`): NAME now leads to TARGET for the rest of the line. */
function link({ walker, args }: EffectRun): void {
  if (!args.some((w) => /^-[a-zA-Z]*s[a-zA-Z]*$/.test(w.value) || w.value === '--symbolic')) return;
  const operands = args.filter((w) => !w.value.startsWith('-'));
  if (operands.length !== 2 || operands[1]!.dynamic) return;
  const path = operands[1]!.value.replace(/^\.\//, '').replace(/\/+$/, '');
  // A relative target is relative to the link's own directory (`ln -s .ssh ~/k`: ~/k is ~/.ssh).
  const target = operands[0]!.template;
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  walker.state.link(path, dir !== '' && !/^[/~]/.test(target) ? `${escapeLiteral(dir)}/${target}` : target);
}

/** `cp /bin/rm ./x`, `ln -s /bin/rm /tmp/ls`, `install /bin/rm y`, `hash -p /bin/rm ls`: remembers NAME → rm. */
function programAlias({ walker, run, view }: EffectRun): void {
  const args = view.args;
  const operands = args.filter((a) => !a.startsWith('-'));
  const hashed = args[0] === '-p' ? [args[1], args[2]] : [];
  const [source, name] = run.program === 'hash' ? hashed : operands.length === 2 ? operands : [];
  if (source === undefined || name === undefined || !PROGRAM_DIRS.test(source)) return;
  walker.state.alias(name, source.replace(/^.*\//, ''));
}

/** `mv x y`, `cp x y`: a file written with known contents keeps them under its new name. */
function copyWritten({ walker, view }: EffectRun, move: boolean): void {
  const operands = view.args.filter((a) => !a.startsWith('-'));
  if (operands.length !== 2) return;
  const [from, to] = operands as [string, string];
  const contents = writtenContents(walker.state.written, from);
  if (contents === undefined) return;
  walker.state.wrote(to, contents);
  if (move) walker.state.wrote(from, undefined);
}

/** `set -- a b c` (or `set a b c`): the positional parameters `"$@"` expands to. */
function positionalParameters({ walker, args }: EffectRun): void {
  const first = args[0]?.value;
  if (first === undefined || (first !== '--' && (first.startsWith('-') || first.startsWith('+')))) return;
  const params = args.slice(first === '--' ? 1 : 0);
  walker.state.setArray('@', params.some((w) => w.dynamic) ? undefined : params);
}

/** `printf -v NAME FORMAT ARGS` sets NAME to what it would print. */
function printfToVariable({ walker, frame, args }: EffectRun): void {
  const set = printfVariable(args.map((w) => w.value));
  if (set?.value !== undefined) walker.budget.word(set.value.length, "a variable's value");
  // What an unknown format or argument prints is unknown: the variable is then unknowable, not what it was.
  if (set) frame.vars.set(set.name, args.some((w) => w.dynamic) ? undefined : set.value);
}

/** `read NAME… <<< text` sets the variables to the fields of the first line the script shows it. */
function readVariables({ run, frame, args }: EffectRun): void {
  // read's options with a value (`-d delim`, `-p prompt`, `-t secs`, …); `-a NAME` fills an array (not followed).
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (/^-[a-zA-Z]*[adinNptu]$/.test(a)) {
      if (a.endsWith('a')) return;
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    names.push(a);
  }
  const stdin = run.info.stdin;
  const known = stdin && stdin.kind !== 'pipe' && stdin.text !== undefined && !stdin.dynamic;
  const line = known && !args.some((w) => w.dynamic) ? stdin.text!.split('\n')[0]! : undefined;
  if (names.length === 0) names.push('REPLY');
  const fields = line === undefined ? [] : line.trim().split(/[ \t]+/);
  // The last name takes the rest of the line.
  names.forEach((name, k) => {
    const value = k === names.length - 1 ? fields.slice(k).join(' ') : (fields[k] ?? '');
    frame.vars.set(name, line === undefined ? undefined : value);
  });
}

/** `echo "$GITHUB_TOKEN" > /tmp/t`: the file holds the secret now (a later `cat /tmp/t` prints it). */
function secretToFile({ walker, run }: EffectRun): void {
  if (!run.writes || run.writes.length === 0) return;
  if (!run.words.some((w) => w.inner?.secret || referencesSecret(w.source))) return;
  for (const r of run.info.redirects) {
    if (stdoutToFile(r) && r.target && !r.target.dynamic) walker.state.secrets.wroteTo(r.target.value);
  }
}

/** A file the command made holds a secret now (a key it minted, a file it decrypted): printing it prints the secret. */
function secretFiles({ walker, view }: EffectRun): void {
  for (const path of secretFilesMade(view)) walker.state.secrets.wroteTo(path);
}

/**
 * `cd`, `pushd`, `popd`: where the following commands run. The directory left is kept as OLDPWD (so `cd -` and
 * `cd "$OLDPWD"` go back) and on pushd's stack; `.` stands for the call's cwd. Options come first (`cd -P ~`);
 * `cd -` alone goes back; options end at `--`.
 */
function changeDirectory({ walker, run, frame, args }: EffectRun): void {
  const target0 = args.find((w) => w.value === '-' || !/^-[PLe@]+$/.test(w.value));
  const target = target0?.value === '--' ? args[args.indexOf(target0) + 1] : target0;
  const home = walker.homeOf(frame);
  const here = frame.base ?? '.';
  let next: string | undefined;
  if (run.program === 'popd') next = frame.dirs?.pop();
  else if (target?.value === '-') next = frame.vars.get('OLDPWD');
  else next = changeDir(frame.base, viaCdpath(frame, target, home), home);
  if (run.program === 'pushd') (frame.dirs ??= []).push(here);
  frame.vars.set('OLDPWD', here);
  if (next === undefined) delete frame.base;
  else frame.base = next;
}

/**
 * `CDPATH=~; cd .ssh`: a relative directory (not `./x` or `../x`) is looked for in CDPATH's directories first, and
 * bash goes to the first that has it — taken here to be the first entry (an empty one, or `.`, is the current
 * directory).
 */
function viaCdpath(frame: Frame, target: Word | undefined, home: string): Word | undefined {
  const cdpath = frame.vars.get('CDPATH');
  if (!cdpath || !target || target.dynamic || /^(\/|\.{1,2}(\/|$)|~|-$)/.test(target.value)) return target;
  const first = cdpath.split(':')[0]!;
  if (first === '' || first === '.') return target;
  const dir = first.replace(/^~(?=\/|$)/, home).replace(/\/+$/, '');
  return literalWord(`${dir}/${target.value}`);
}
