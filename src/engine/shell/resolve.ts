// The first stage of a simple command: what it runs. The name as the script made it (aliases, arrays, lookups, a
// function's arguments, globs), the wrappers peeled off it, and the directory it runs in.
import micromatch from 'micromatch';
import type { ScriptWalker } from './walker.ts';
import { changeDir, deeper, type Frame } from './frame.ts';
import type { Redirect, Stdin } from './view.ts';
import type { SimpleCommand } from './types.ts';
import { literalWord, type Word } from './word.ts';
import { programName, suffixWord, unwrap } from './unwrap.ts';
import { loginHome } from './nested.ts';
import { templateHasGlob, templateIsDynamic, templateValue } from './template.ts';
import { variableCode } from './code-variables.ts';
import { assignedPaths } from './paths.ts';
import { stdoutToFile } from './view.ts';
import { PRIVILEGE } from '../catalog/danger-system.ts';
import { ANALYSIS_FINDINGS } from '../catalog/analysis-findings.ts';
import { DECODERS, KNOWN_PROGRAMS } from '../catalog/programs.ts';

/** How the command name was written. */
export type NameKind = 'literal' | 'variable' | 'substitution' | 'glob' | 'brace';

/** What a simple command comes with besides its words. */
export interface CommandInfo {
  frame: Frame;
  text: string;
  redirects: Redirect[];
  stdin?: Stdin;
  nameKind: NameKind;
}

/** A simple command resolved: what the judge (judge.ts) and the effects (effects.ts) read. */
export interface CommandRun {
  /** The words as the command runs them, wrappers included. */
  words: Word[];
  /** The words after the wrappers: the program and its arguments. */
  argv: Word[];
  wrappers: string[];
  /** The program's name (the last wrapper's when only wrappers are left). */
  program: string;
  /** Scripts a wrapper runs (`watch 'cmd'`, `env -S '…'`). */
  scripts: Word[];
  /** A wrapper that only looks the program up (`command -v rm`): nothing runs. */
  noExec: boolean;
  /** The directory it runs in (`env -C DIR`, `sudo -i`), else the frame's. */
  base: string | undefined;
  /** Files its redirections write. */
  writes: string[] | undefined;
  /** The command as the analysis lists it. */
  command: SimpleCommand;
  info: CommandInfo;
}

/** Judges other words as a command of their own (the whole pipeline: processCommand in command.ts). */
export type JudgeWords = (walker: ScriptWalker, words: Word[], info: CommandInfo) => string | undefined;

/** What resolving gave: the command to judge, or the output of the words it was judged as instead. */
export type Resolution = { run: CommandRun } | { judgedAs: string | undefined };

/** Wrappers whose command is a package they fetch (`npx node@20`, `uvx ruff@0.6`), named with its version. */
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'bun', 'pnpm', 'yarn', 'npm', 'uvx', 'pipx']);

/** Programs that only print where a program is: a substitution of theirs names a program plainly. */
const LOOKUPS = new Set(['which', 'command', 'type']);

const NAME_FINDINGS = {
  variable: ANALYSIS_FINDINGS.nameVariable,
  substitution: ANALYSIS_FINDINGS.nameSubstitution,
  glob: ANALYSIS_FINDINGS.nameGlob,
  brace: ANALYSIS_FINDINGS.nameBrace,
} as const;

/**
 * Resolves a command of at least one word. Where the words stand for other commands (an alias, a name the script
 * shows, the command a function passes on), those are judged through `judge`, here or instead of this one.
 */
export function resolveCommand(walker: ScriptWalker, words: Word[], info: CommandInfo, judge: JudgeWords): Resolution {
  const { frame, text } = info;
  const { state } = walker;
  if (state.hasArrays && words.some((w) => w.dynamic)) words = withArrayElements(walker, words);
  // `cp /bin/rm ./x; ./x -rf ~`, `hash -p /bin/rm ls; ls -rf ~`: the name runs the program copied or linked to it.
  const aliased = words[0]!.dynamic ? undefined : state.aliasOf(words[0]!.value);
  if (aliased !== undefined) words = [literalWord(aliased), ...words.slice(1)];
  // `"$(go env GOPATH)/bin/golangci-lint" run`: only the directory is unknown, the program is the one named (a
  // literal path may name any directory as well).
  const named = info.nameKind === 'variable' || info.nameKind === 'substitution' ? knownBasename(words[0]!) : undefined;
  if (named !== undefined)
    return { judgedAs: judge(walker, [literalWord(named), ...words.slice(1)], { ...info, nameKind: 'literal' }) };
  // `PY=python3; $PY -m pytest`: a variable whose value the script set is that value (it is judged as such).
  if (info.nameKind === 'variable' && !words[0]!.dynamic && !words[0]!.glob)
    return { judgedAs: judge(walker, words, { ...info, nameKind: 'literal' }) };
  // `$(which python3) -m pytest`, `"$(command -v node)" x.js`: the program is the one looked up, judged as itself.
  const lookedUp =
    info.nameKind === 'substitution' &&
    !words[0]!.dynamic &&
    words[0]!.inner?.programs.every((p) => LOOKUPS.has(p)) === true;
  // `run() { "$@"; }`: the function runs what its callers pass; each call is judged instead (below). The rest of the
  // command is still judged here (`run() { "$@" ~/.ssh/id_rsa; }` reads the key whatever runs).
  const passesArguments = info.nameKind === 'variable' && state.functions.runsArguments(words[0]!);
  // `run npm test` after `run() { echo "+ $*"; "$@"; }`: the command passed, after what `shift` may drop.
  const runner =
    info.nameKind === 'literal' && state.functions.argumentRunners.size > 0 && !words[0]!.dynamic
      ? state.functions.argumentRunners.get(words[0]!.value)
      : undefined;
  if (runner !== undefined) {
    for (let drop = 1; drop <= runner + 1 && drop < words.length; drop++) {
      const passed = words.slice(drop);
      judge(walker, passed, { ...info, nameKind: passed[0]!.dynamic ? 'variable' : 'literal' });
    }
  }
  if (info.nameKind !== 'literal' && !lookedUp && !passesArguments) {
    pushFinding(walker, NAME_FINDINGS[info.nameKind], text);
    if (words[0]!.inner?.programs.some((p) => DECODERS.has(p)))
      pushFinding(walker, ANALYSIS_FINDINGS.decodedCommand, text);
  }
  if (info.nameKind === 'variable' && /^"?\$\{?(SHELL|BASH|0)\}?"?$/.test(words[0]!.source)) {
    // `$SHELL -c '…'`: whatever the shell is, it runs the -c string.
    judge(walker, [literalWord('bash'), ...words.slice(1)], { ...info, nameKind: 'literal' });
    return { judgedAs: undefined };
  }
  if (info.nameKind === 'variable' && words[0]!.dynamic) {
    // What the unknown name may be, where the script shows it: `${x:-rm}`.
    const alternative = nameAlternatives(words[0]!.source);
    // Judged under a text of its own: an allow rule that covers the guess must not cover the command as written.
    if (alternative)
      judge(walker, [...alternative, ...words.slice(1)], {
        ...info,
        nameKind: 'literal',
        text: `${alternative.map((w) => w.value).join(' ')} (as ${text})`,
      });
  }
  if (info.nameKind === 'glob') {
    // `/usr/bin/s?do`: judge the command as each known program the glob could name.
    const pattern = words[0]!.value.replace(/^.*\//, '');
    const candidates = KNOWN_PROGRAMS.filter((p) => micromatch.isMatch(p, pattern));
    if (candidates.length > 0) {
      for (const c of candidates) judge(walker, [literalWord(c), ...words.slice(1)], { ...info, nameKind: 'literal' });
      return { judgedAs: undefined };
    }
  }
  const { argv, wrappers, scripts, noExec, chdir } = unwrap(words);
  const wrapperWords = words.slice(0, words.length - argv.length);
  // `env EDITOR='cmd #' git commit`, `env BASH_ENV=/tmp/x bash -c :`: assignments env passes on.
  if (wrappers.some((w) => w === 'env' || w === 'cross-env' || w === 'cross-env-shell'))
    envAssignments(walker, wrapperWords, info);
  // `env -C DIR cmd` runs cmd in DIR: its relative paths resolve there, as after `cd DIR`.
  // `sudo -i cmd`, `sudo -iu alice cmd`: a login shell runs cmd in the target user's home.
  const login = wrappers.includes('sudo') ? sudoLoginHome(wrapperWords) : undefined;
  const base = chdir ? changeDir(frame.base, chdir, walker.home) : (login ?? frame.base);
  // `coproc { cmd; }`, `coproc NAME { cmd; }`: tree-sitter reads the group's words as arguments of coproc.
  if (wrappers.at(-1) === 'coproc') {
    const brace = argv.findIndex((w) => w.value === '{');
    if (brace === 0 || brace === 1)
      return { judgedAs: judge(walker, argv.slice(brace + 1), { ...info, nameKind: 'literal' }) };
  }
  const head = argv[0];
  // `npx -y node@20 -e …`, `uvx ruff@0.6 check`: a package runner's spec names the program with its version.
  const named0 = head ? programName(head.value) : (wrappers.at(-1) ?? '');
  const program =
    head && PACKAGE_RUNNERS.has(wrappers.at(-1) ?? '')
      ? named0.replace(/^(@?[^@=]+)(@|==).*$/, '$1').replace(/^@[^/]+\//, '')
      : named0;
  // `exec "$@"`, `time "$@"` in a function that runs its arguments (not under sudo: the privilege is its own finding).
  const passesOn =
    head?.dynamic === true && !wrappers.some((w) => PRIVILEGE.has(w)) && state.functions.runsArguments(head);
  if (head?.dynamic && info.nameKind === 'literal' && !passesOn)
    pushFinding(walker, ANALYSIS_FINDINGS.nameVariable, text);
  const writes = info.redirects.length > 0 ? fileWrites(info.redirects) : undefined;
  // Optional keys are assigned, not spread in: a spread copies the object through a slow generic path.
  const command: SimpleCommand = {
    words: words.map((w) => w.value),
    argv: argv.map((w) => w.value),
    program: head?.dynamic ? '' : program,
    wrappers,
    text,
    literal: info.nameKind === 'literal' && !head?.dynamic,
    depth: frame.depth,
  };
  if (writes && writes.length > 0) command.writes = writes;
  if (info.redirects.some(stdoutToFile)) command.stdoutToFile = true;
  return { run: { words, argv, wrappers, program, scripts, noExec, base, writes, command, info } };
}

/** Adds one of the analysis's own findings about `command`. */
export function pushFinding(
  walker: ScriptWalker,
  f: { id: string; risk: 'high' | 'medium' | 'low'; reason: string },
  command: string,
): void {
  walker.found.push({ id: f.id, risk: f.risk, reason: f.reason, command });
}

/** Targets of output redirections that write a file (not /dev/null, the standard streams or a descriptor). */
export function fileWrites(redirects: Redirect[]): string[] {
  return redirects
    .filter((r) => r.write && r.target && !/^\/dev\/(null|stdout|stderr|tty)$|^\d+$|^-$/.test(r.target.value))
    .map((r) => r.target!.value);
}

/** The last path segment of a program word whose only unknown part is its directory (`$X/bin/tool`), else undefined. */
function knownBasename(word: Word): string | undefined {
  if (!word.dynamic) return undefined;
  const slash = word.template.lastIndexOf('/');
  if (slash < 0) return undefined;
  const last = word.template.slice(slash + 1);
  return last !== '' && !templateIsDynamic(last) && !templateHasGlob(last) ? templateValue(last) : undefined;
}

/**
 * The words an unknown program name may stand for, when the script shows them: the default of `${x:-word}`,
 * `${x-word}`, `${x:=word}` (fields split as bash splits an unquoted expansion). (Arrays and `"$@"` with known
 * elements were already put in place of the word: withArrayElements.)
 */
function nameAlternatives(source: string): Word[] | undefined {
  const fallback = /^"?\$\{\w+:?[-=]([^${}`"'\\]*)\}"?$/.exec(source);
  if (!fallback) return undefined;
  const fields = source.startsWith('"') ? [fallback[1]!] : fallback[1]!.split(/\s+/).filter(Boolean);
  return fields.length > 0 && fields[0] !== '' ? fields.map(literalWord) : undefined;
}

/** A word that is a whole array (`"$@"` after `set --`, `"${a[@]}"`) stands for its elements, when they are known. */
function withArrayElements(walker: ScriptWalker, words: Word[]): Word[] {
  return words.flatMap((w) => {
    if (!w.dynamic) return [w];
    const m = /^"?\$\{?([@*])\}?"?$/.exec(w.source) ?? /^"?\$\{(\w+)\[[@*]\]\}"?$/.exec(w.source);
    const elements = m ? walker.state.array(m[1] === '*' ? '@' : m[1]!) : undefined;
    return elements && elements.length > 0 ? elements : [w];
  });
}

/** What the variables `env` sets run as code (code-variables.ts), and the paths they hand the program. */
function envAssignments(walker: ScriptWalker, words: Word[], info: CommandInfo): void {
  for (const w of words) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w.value);
    if (!m) continue;
    const code = variableCode(m[1]!, w.dynamic ? undefined : w.value.slice(m[0].length));
    for (const script of code.scripts) walker.nestedScript(script, deeper(info.frame), info.text);
    if (code.unknown) walker.unknownCode(info.text, info.frame.depth + 1);
    // `env K=~/.aws/credentials python3 app.py`: a path handed to the program, as a prefix assignment hands it.
    if (!w.dynamic)
      walker.paths.push(
        ...assignedPaths(m[1]!, [suffixWord(w, m[0].length)], info.text, info.frame.base, walker.homeOf(info.frame)),
      );
  }
}

/** With `-i`/`--login`, the home of sudo's target user (`-u USER`, root by default), where the command runs. */
function sudoLoginHome(wrapperWords: Word[]): string | undefined {
  const at = wrapperWords.findIndex((w) => programName(w.value) === 'sudo');
  const options = wrapperWords.slice(at + 1).map((w) => w.value);
  if (!options.some((o) => o === '--login' || /^-[a-zA-Z]*i[a-zA-Z]*$/.test(o))) return undefined;
  let user: string | undefined;
  for (let i = 0; i < options.length; i++) {
    const o = options[i]!;
    // `-u U`, `-iu U` (a cluster ending in u), `-uU`, `--user U`, `--user=U`.
    if (o === '--user' || /^-[a-zA-Z]*u$/.test(o)) user = options[i + 1];
    else if (o.startsWith('--user=')) user = o.slice(7);
    else if (/^-u./.test(o)) user = o.slice(2);
  }
  return loginHome(user);
}
