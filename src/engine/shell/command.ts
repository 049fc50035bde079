// Judges one simple command: peels wrappers, applies the danger catalogue, follows nested code, records paths.
import micromatch from 'micromatch';
import type { ScriptWalker } from './walker.ts';
import { deeper, type Frame } from './frame.ts';
import { stdoutToFile, writtenContents, type CommandView, type Redirect, type Stdin } from './view.ts';
import type { ShellPath, SimpleCommand } from './types.ts';
import type { Word } from './word.ts';
import { literalWord } from './word.ts';
import { programName, suffixWord, unwrap } from './unwrap.ts';
import { loginHome, nestedCode, type NestedCode } from './nested.ts';
import { DEEP, escapeLiteral, templateHasGlob, templateIsDynamic, templateValue } from './template.ts';
import { variableCode } from './code-variables.ts';
import { assignedPaths, commandPaths } from './paths.ts';
import { recordDownloads } from './downloads.ts';
import { recordAddedRemote } from '../catalog/danger-git.ts';
import { evaluateCommand, printfVariable, programPath } from './static-eval.ts';
import { matchDanger } from '../catalog/danger.ts';
import { PRIVILEGE } from '../catalog/danger-system.ts';
import { referencesSecret } from '../catalog/danger-secrets.ts';
import { runsFromUrl, URL_RUN_DANGERS, URL_RUNNERS } from '../catalog/danger-url-run.ts';
import { isReadOnlyCommand } from '../catalog/read-only.ts';
import { ANALYSIS_FINDINGS } from '../catalog/analysis-findings.ts';
import { DECODERS, ENV_SETUP, KNOWN_PROGRAMS } from '../catalog/programs.ts';

/** How the command name was written. */
export type NameKind = 'literal' | 'variable' | 'substitution' | 'glob' | 'brace';

/** What processCommand needs besides the words. */
export interface CommandInfo {
  frame: Frame;
  text: string;
  redirects: Redirect[];
  stdin?: Stdin;
  nameKind: NameKind;
}

/** The last path segment of a program word whose only unknown part is its directory (`$X/bin/tool`), else undefined. */
function knownBasename(word: Word): string | undefined {
  if (!word.dynamic) return undefined;
  const slash = word.template.lastIndexOf('/');
  if (slash < 0) return undefined;
  const last = word.template.slice(slash + 1);
  return last !== '' && !templateIsDynamic(last) && !templateHasGlob(last) ? templateValue(last) : undefined;
}

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

/** Analyses one simple command given as resolved words; returns its static stdout when it is evaluable. */
export function processCommand(walker: ScriptWalker, words: Word[], info: CommandInfo): string | undefined {
  walker.checkTime();
  const { frame, text } = info;
  if (words.length === 0) { processBareRedirects(walker, info.redirects, frame, text); return undefined; }
  if (walker.arrays.size > 0 && words.some((w) => w.dynamic)) words = withArrayElements(walker, words);
  // `cp /bin/rm ./x; ./x -rf ~`, `hash -p /bin/rm ls; ls -rf ~`: the name runs the program copied or linked to it.
  const aliased = walker.programAliases.size > 0 && !words[0]!.dynamic ? walker.programAliases.get(words[0]!.value.replace(/^\.\//, '')) : undefined;
  if (aliased !== undefined) words = [literalWord(aliased), ...words.slice(1)];
  // `"$(go env GOPATH)/bin/golangci-lint" run`: only the directory is unknown, the program is the one named (a
  // literal path may name any directory as well).
  const named = info.nameKind === 'variable' || info.nameKind === 'substitution' ? knownBasename(words[0]!) : undefined;
  if (named !== undefined) return processCommand(walker, [literalWord(named), ...words.slice(1)], { ...info, nameKind: 'literal' });
  // `PY=python3; $PY -m pytest`: a variable whose value the script set is that value (it is judged as such).
  if (info.nameKind === 'variable' && !words[0]!.dynamic && !words[0]!.glob) return processCommand(walker, words, { ...info, nameKind: 'literal' });
  // `$(which python3) -m pytest`, `"$(command -v node)" x.js`: the program is the one looked up, judged as itself.
  const lookedUp = info.nameKind === 'substitution' && !words[0]!.dynamic && words[0]!.inner?.programs.every((p) => LOOKUPS.has(p)) === true;
  // `run() { "$@"; }`: the function runs what its callers pass; each call is judged instead (below). The rest of the
  // command is still judged here (`run() { "$@" ~/.ssh/id_rsa; }` reads the key whatever runs).
  const passesArguments = info.nameKind === 'variable' && walker.functions.runsArguments(words[0]!);
  // `run npm test` after `run() { echo "+ $*"; "$@"; }`: the command passed, after what `shift` may drop.
  const runner = info.nameKind === 'literal' && walker.functions.argumentRunners.size > 0 && !words[0]!.dynamic ? walker.functions.argumentRunners.get(words[0]!.value) : undefined;
  if (runner !== undefined) {
    for (let drop = 1; drop <= runner + 1 && drop < words.length; drop++) {
      const passed = words.slice(drop);
      processCommand(walker, passed, { ...info, nameKind: passed[0]!.dynamic ? 'variable' : 'literal' });
    }
  }
  if (info.nameKind !== 'literal' && !lookedUp && !passesArguments) {
    pushFinding(walker, NAME_FINDINGS[info.nameKind], text);
    if (words[0]!.inner?.programs.some((p) => DECODERS.has(p))) pushFinding(walker, ANALYSIS_FINDINGS.decodedCommand, text);
  }
  if (info.nameKind === 'variable' && /^"?\$\{?(SHELL|BASH|0)\}?"?$/.test(words[0]!.source)) {
    // `$SHELL -c '…'`: whatever the shell is, it runs the -c string.
    processCommand(walker, [literalWord('bash'), ...words.slice(1)], { ...info, nameKind: 'literal' });
    return undefined;
  }
  if (info.nameKind === 'variable' && words[0]!.dynamic) {
    // What the unknown name may be, where the script shows it: `${x:-rm}`.
    const alternative = nameAlternatives(words[0]!.source);
    // Judged under a text of its own: an allow rule that covers the guess must not cover the command as written.
    if (alternative) processCommand(walker, [...alternative, ...words.slice(1)], { ...info, nameKind: 'literal', text: `${alternative.map((w) => w.value).join(' ')} (as ${text})` });
  }
  if (info.nameKind === 'glob') {
    // `/usr/bin/s?do`: judge the command as each known program the glob could name.
    const pattern = words[0]!.value.replace(/^.*\//, '');
    const candidates = KNOWN_PROGRAMS.filter((p) => micromatch.isMatch(p, pattern));
    if (candidates.length > 0) {
      for (const c of candidates) processCommand(walker, [literalWord(c), ...words.slice(1)], { ...info, nameKind: 'literal' });
      return undefined;
    }
  }
  const { argv, wrappers, scripts, noExec, chdir } = unwrap(words);
  // `env EDITOR='cmd #' git commit`, `env BASH_ENV=/tmp/x bash -c :`: assignments env passes on.
  if (wrappers.some((w) => w === 'env' || w === 'cross-env' || w === 'cross-env-shell')) envAssignments(walker, words.slice(0, words.length - argv.length), info);
  // `env -C DIR cmd` runs cmd in DIR: its relative paths resolve there, as after `cd DIR`.
  // `sudo -i cmd`, `sudo -iu alice cmd`: a login shell runs cmd in the target user's home.
  const login = wrappers.includes('sudo') ? sudoLoginHome(words.slice(0, words.length - argv.length)) : undefined;
  const base = chdir ? changeDir(frame.base, chdir, walker.home) : login ?? frame.base;
  // `coproc { cmd; }`, `coproc NAME { cmd; }`: tree-sitter reads the group's words as arguments of coproc.
  if (wrappers.at(-1) === 'coproc') {
    const brace = argv.findIndex((w) => w.value === '{');
    if (brace === 0 || brace === 1) return processCommand(walker, argv.slice(brace + 1), { ...info, nameKind: 'literal' });
  }
  const head = argv[0];
  // `npx -y node@20 -e …`, `uvx ruff@0.6 check`: a package runner's spec names the program with its version.
  const named0 = head ? programName(head.value) : (wrappers.at(-1) ?? '');
  const program = head && PACKAGE_RUNNERS.has(wrappers.at(-1) ?? '') ? named0.replace(/^(@?[^@=]+)(@|==).*$/, '$1').replace(/^@[^/]+\//, '') : named0;
  // `exec "$@"`, `time "$@"` in a function that runs its arguments (not under sudo: the privilege is its own finding).
  const passesOn = head?.dynamic === true && !wrappers.some((w) => PRIVILEGE.has(w)) && walker.functions.runsArguments(head);
  if (head?.dynamic && info.nameKind === 'literal' && !passesOn) pushFinding(walker, ANALYSIS_FINDINGS.nameVariable, text);
  const writes = info.redirects.length > 0 ? fileWrites(info.redirects) : undefined;
  // Optional keys are assigned, not spread in: a spread copies the object through a slow generic path.
  // The catalogue only reads the view: its argv is the command's own array.
  const argvValues = argv.map((w) => w.value);
  const command: SimpleCommand = {
    words: words.map((w) => w.value), argv: argvValues, program: head?.dynamic ? '' : program,
    wrappers, text, literal: info.nameKind === 'literal' && !head?.dynamic, depth: frame.depth,
  };
  if (writes && writes.length > 0) command.writes = writes;
  if (info.redirects.some(stdoutToFile)) command.stdoutToFile = true;
  walker.commands.push(command);
  // `f ~/.ssh/id_rsa` after `f() { cat "$1"; }`: the body walked again, after the call, with the call's words.
  if (walker.functions.defined.size > 0 && wrappers.length === 0 && info.nameKind === 'literal' && head && !head.dynamic && walker.functions.defined.has(head.value)) walker.callFunction(head.value, argv.slice(1), frame);
  const view: CommandView = {
    argv: argvValues, words: argv, program, args: argvValues.slice(1), wrappers,
    redirects: info.redirects, text, home: homeOf(walker, frame), downloads: walker.downloads, written: walker.written,
  };
  if (info.stdin) view.stdin = info.stdin;
  if (walker.secrets.files.size > 0) view.secretFiles = walker.secrets.files;
  if (walker.addedRemotes.size > 0) view.addedRemotes = walker.addedRemotes;
  if (base !== undefined && base !== '.') view.base = base;
  if (noExec) {
    walker.paths.push(...commandPaths({ ...view, words: [], program: '' }, info.redirects, frame.base));
    // `$(command -v rm)`: the path of the program named, as `which` prints it.
    const named = words.slice(1).filter((w) => !w.value.startsWith('-'));
    if (wrappers.length === 1 && wrappers[0] === 'command' && named.length > 0 && !named.some((w) => w.dynamic)) return named.map((w) => `${programPath(w.value)}\n`).join('');
    return undefined;
  }
  walker.report(matchDanger(view));
  // `npx github:x`, `uvx --from git+https://… tool`, `nix shell github:x -c cmd`: a runner peeled as a wrapper fetched
  // what it runs (the catalogue saw only the command inside).
  const runnerAt = wrappers.length > 0 ? words.findIndex((w) => !w.dynamic && URL_RUNNERS.has(programName(w.value))) : -1;
  if (runnerAt >= 0 && runsFromUrl(programName(words[runnerAt]!.value), words.slice(runnerAt + 1).map((w) => w.value))) pushFinding(walker, URL_RUN_DANGERS[0]!, text);
  // `${x@P}` expands x as a prompt, which runs the `…` and $(…) in its value.
  for (const w of words) if (w.source.includes('@P}') && /\$\{[^}]*@P\}/.test(w.source)) unknownCode(walker, w.source, frame.depth + 1);
  followNested(walker, view, scripts, info);
  const paths = commandPaths(view, info.redirects, base);
  walker.paths.push(...paths, ...throughLinks(walker.links, paths));
  if (program === 'ln' && wrappers.length === 0) recordLink(walker.links, argv.slice(1));
  // `set -- a b c` (or `set a b c`): the positional parameters `"$@"` expands to.
  if (program === 'set' && wrappers.length === 0 && argv.length > 1 && (argv[1]!.value === '--' || !argv[1]!.value.startsWith('-') && !argv[1]!.value.startsWith('+'))) {
    const params = argv.slice(argv[1]!.value === '--' ? 2 : 1);
    if (params.some((w) => w.dynamic)) walker.arrays.delete('@');
    else walker.arrays.set('@', params);
  }
  if (wrappers.length === 0 && (program === 'read' || program === 'printf')) readIntoVariables(walker, program, argv.slice(1), info, frame);
  if (!isReadOnlyCommand(view)) walker.readOnly = false;
  recordDownloads(view, walker.downloads);
  if (program === 'git') recordAddedRemote(view, walker.addedRemotes);
  // `cd -- DIR` (or `cd --`, home): options end at `--`.
  if ((program === 'cd' || program === 'pushd' || program === 'popd') && wrappers.length === 0) {
    // (`cd -P ~`, `cd -L dir`: options first; `cd -` alone goes back.)
    const target = argv.slice(1).find((w) => w.value === '-' || !/^-[PLe@]+$/.test(w.value));
    moveTo(frame, program, target?.value === '--' ? argv[argv.indexOf(target) + 1] : target, homeOf(walker, frame));
  }
  const output = wrappers.length > 0 || argv.some((w) => w.dynamic) ? undefined : evaluateCommand(program, view.args, info.stdin?.text);
  if (output !== undefined) walker.budget.word(output.length, "a command's output");
  recordWrites(walker, info.redirects, output);
  // `echo "$GITHUB_TOKEN" > /tmp/t`: the file holds the secret now (a later `cat /tmp/t` prints it).
  if (writes && writes.length > 0 && (program === 'echo' || program === 'printf') && words.some((w) => w.inner?.secret || referencesSecret(w.source))) {
    for (const r of info.redirects) if (stdoutToFile(r) && r.target && !r.target.dynamic) walker.secrets.files.add(r.target.value.replace(/^\.\//, ''));
  }
  if ((program === 'mv' || program === 'cp') && wrappers.length === 0) recordCopy(walker.written, program, view.args);
  if (wrappers.length === 0 && /^(cp|ln|install|hash)$/.test(program)) recordProgramAlias(walker.programAliases, program, view.args);
  return output;
}

/**
 * Remembers what a command's redirections write: its static output (`echo cmd > f.sh`, `cat > f.sh <<'EOF'`), or,
 * when that is not known, that the file's contents no longer are.
 */
function recordWrites(walker: ScriptWalker, redirects: Redirect[], output: string | undefined): void {
  const { written } = walker;
  for (const r of redirects) {
    if (!r.write || !r.target || r.target.dynamic) continue;
    const path = r.target.value.replace(/^\.\//, '');
    if (output === undefined || (r.op !== '>' && r.op !== '>|' && r.op !== '>>')) { written.delete(path); continue; }
    const contents = r.op === '>>' ? (written.get(path) ?? '') + output : output;
    // `echo "$a" >> f` in a loop of lines: the file's known contents are bounded like a variable's value.
    walker.budget.word(contents.length, 'a file the command writes');
    written.set(path, contents);
  }
}

function pushFinding(walker: ScriptWalker, f: { id: string; risk: 'high' | 'medium' | 'low'; reason: string }, command: string): void {
  walker.found.push({ id: f.id, risk: f.risk, reason: f.reason, command });
}

/** Runs the nested code of a command one level deeper: scripts are parsed, argvs analysed as commands. */
function followNested(walker: ScriptWalker, view: CommandView, wrapperScripts: Word[], info: CommandInfo): void {
  // Only xargs reads its stdin as words.
  const items = view.program === 'xargs' && info.stdin?.text !== undefined ? xargsItems(view.args, info.stdin.text) : undefined;
  const nested: NestedCode[] = nestedCode(view, items);
  if (wrapperScripts.length > 0) nested.unshift(...wrapperScripts.map((word) => ({ kind: 'script' as const, word })));
  // Most commands run no nested code: the inner frame (a copy of the variables) is only built when one does.
  if (nested.length === 0) return;
  const inner = deeper(info.frame);
  for (const n of nested) {
    if (n.kind === 'argv') {
      processCommand(walker, n.words, { frame: inner, text: n.words.map((w) => w.value).join(' '), redirects: [], nameKind: n.words[0]?.dynamic ? 'variable' : 'literal' });
    } else if (n.word.dynamic) {
      const known = walker.found.some((f) => f.command === view.text && (f.id === 'remote-code' || f.id === 'decoded-code'));
      const programs = n.word.inner?.programs ?? [];
      const setup = programs.length > 0 && programs.every((p) => ENV_SETUP.has(p)) && !/\$(?!\()/.test(n.word.value.replace(/\$\([^)]*\)/g, ''));
      if (!known && !setup) unknownCode(walker, n.word.source, inner.depth);
    } else {
      let frame: Frame = n.positional ? { ...inner, vars: withPositional(inner.vars, n.positional) } : inner;
      if (n.base !== undefined) frame = { ...frame, base: n.base };
      walker.nestedScript(n.word.value, frame, view.text);
    }
  }
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
    const elements = m ? walker.arrays.get(m[1] === '*' ? '@' : m[1]!) : undefined;
    return elements && elements.length > 0 ? elements : [w];
  });
}

/** `read NAME <<< text` and `printf -v NAME FORMAT ARGS` set variables to text the script shows. */
function readIntoVariables(walker: ScriptWalker, program: string, args: Word[], info: CommandInfo, frame: Frame): void {
  if (program === 'printf') {
    const set = printfVariable(args.map((w) => w.value));
    if (set?.value !== undefined) walker.budget.word(set.value.length, "a variable's value");
    // What an unknown format or argument prints is unknown: the variable is then unknowable, not what it was.
    if (set) frame.vars.set(set.name, args.some((w) => w.dynamic) ? undefined : set.value);
    return;
  }
  // read's options with a value (`-d delim`, `-p prompt`, `-t secs`, …); `-a NAME` fills an array (not followed).
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (/^-[a-zA-Z]*[adinNptu]$/.test(a)) { if (a.endsWith('a')) return; i++; continue; }
    if (a.startsWith('-')) continue;
    names.push(a);
  }
  const stdin = info.stdin;
  const line = !args.some((w) => w.dynamic) && stdin && stdin.kind !== 'pipe' && stdin.text !== undefined && !stdin.dynamic ? stdin.text.split('\n')[0]! : undefined;
  if (names.length === 0) names.push('REPLY');
  const fields = line === undefined ? [] : line.trim().split(/[ \t]+/);
  names.forEach((name, k) => frame.vars.set(name, line === undefined ? undefined : k === names.length - 1 ? fields.slice(k).join(' ') : (fields[k] ?? '')));
}

/** `mv x y`, `cp x y`: a file written with known contents keeps them under its new name. */
function recordCopy(written: Map<string, string>, program: string, args: string[]): void {
  const operands = args.filter((a) => !a.startsWith('-'));
  if (operands.length !== 2) return;
  const [from, to] = operands as [string, string];
  const contents = writtenContents(written, from);
  if (contents === undefined) return;
  written.set(to.replace(/^\.\//, ''), contents);
  if (program === 'mv') written.delete(from.replace(/^\.\//, ''));
}

/** Directories of installed programs: a copy or link of a file there under another name runs that program. */
const PROGRAM_DIRS = /^\/(usr\/)?(local\/)?s?bin\//;

/** `cp /bin/rm ./x`, `ln -s /bin/rm /tmp/ls`, `install /bin/rm y`, `hash -p /bin/rm ls`: remembers NAME → rm. */
function recordProgramAlias(aliases: Map<string, string>, program: string, args: string[]): void {
  const operands = args.filter((a) => !a.startsWith('-'));
  const [source, name] = program === 'hash' ? (args[0] === '-p' ? [args[1], args[2]] : []) : operands.length === 2 ? operands : [];
  if (source === undefined || name === undefined || !PROGRAM_DIRS.test(source)) return;
  aliases.set(name.replace(/^\.\//, ''), source.replace(/^.*\//, ''));
}

/** `ln -s TARGET NAME` (also `-sf`, `-sfn`, `--symbolic`): NAME now leads to TARGET for the rest of the line. */
function recordLink(links: Map<string, string>, args: Word[]): void {
  if (!args.some((w) => /^-[a-zA-Z]*s[a-zA-Z]*$/.test(w.value) || w.value === '--symbolic')) return;
  const operands = args.filter((w) => !w.value.startsWith('-'));
  if (operands.length !== 2 || operands[1]!.dynamic) return;
  const link = operands[1]!.value.replace(/^\.\//, '').replace(/\/+$/, '');
  // A relative target is relative to the link's own directory (`ln -s .ssh ~/k`: ~/k is ~/.ssh).
  const target = operands[0]!.template;
  const dir = link.includes('/') ? link.slice(0, link.lastIndexOf('/')) : '';
  links.set(link, dir !== '' && !/^[/~]/.test(target) ? `${escapeLiteral(dir)}/${target}` : target);
}

/**
 * The paths again with a link made earlier on the line replaced by its target (`ln -s ~ h && cat h/.ssh/id_rsa`,
 * `ln -s ~ /tmp/h && cd /tmp/h && cat .ssh/id_rsa`): a path is matched as it is reached, from where the command runs.
 */
function throughLinks(links: Map<string, string>, paths: ShellPath[]): ShellPath[] {
  if (links.size === 0) return [];
  const out: ShellPath[] = [];
  for (const p of paths) {
    const template = (p.template ?? escapeLiteral(p.path)).replace(/^\.\//, '');
    const full = p.base !== undefined && !/^[/~]/.test(template) ? `${escapeLiteral(p.base.replace(/\/+$/, ''))}/${template}` : template;
    for (const [link, target] of links) {
      const key = escapeLiteral(link);
      if (full !== key && !full.startsWith(`${key}/`)) continue;
      const t = `${target.replace(/\/+$/, '')}${full.slice(key.length)}`;
      const through: ShellPath = { ...p, template: t, path: templateValue(t).replace(DEEP, '**') };
      if (/^[/~]/.test(t)) delete through.base;
      out.push(through);
    }
  }
  return out;
}

/** The items xargs reads: split at blanks, or at NULs (`-0`) or a delimiter (`-d X`), which keep the blanks. */
function xargsItems(args: string[], input: string): string[] {
  const delimiter = args.includes('-0') || args.includes('--null') ? '\0' : args.find((a, i) => args[i - 1] === '-d' || args[i - 1] === '--delimiter');
  if (delimiter === undefined) return input.split(/\s+/).filter(Boolean);
  const d = delimiter === '\\n' ? '\n' : delimiter === '\\t' ? '\t' : delimiter;
  return input.split(d).filter(Boolean);
}

/** What the variables `env` sets run as code (code-variables.ts). */
function envAssignments(walker: ScriptWalker, words: Word[], info: CommandInfo): void {
  for (const w of words) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w.value);
    if (!m) continue;
    const code = variableCode(m[1]!, w.dynamic ? undefined : w.value.slice(m[0].length));
    for (const script of code.scripts) walker.nestedScript(script, deeper(info.frame), info.text);
    if (code.unknown) unknownCode(walker, info.text, info.frame.depth + 1);
    // `env K=~/.aws/credentials python3 app.py`: a path handed to the program, as a prefix assignment hands it.
    if (!w.dynamic) walker.paths.push(...assignedPaths(m[1]!, [suffixWord(w, m[0].length)], info.text, info.frame.base, homeOf(walker, info.frame)));
  }
}

/**
 * Code whose text is only known at run time (`eval "$CMD"`, `sh -c "$1"`, `${x@P}`) becomes a command of its
 * own, not literal, carrying the finding: an allow rule for the outer command (`bash(eval *)`) cannot cover it.
 */
export function unknownCode(walker: ScriptWalker, source: string, depth: number): void {
  walker.commands.push({ words: [source], argv: [source], program: '', wrappers: [], text: source, literal: false, depth });
  walker.readOnly = false;
  pushFinding(walker, ANALYSIS_FINDINGS.dynamicCode, source);
}

/** `$0`, `$1`, … bound to the words after a `-c` script (unknown when the word itself is not static). */
function withPositional(vars: Map<string, string | undefined>, words: Word[]): Map<string, string | undefined> {
  const out = new Map(vars);
  words.slice(0, 10).forEach((w, i) => out.set(String(i), w.dynamic ? undefined : w.value));
  return out;
}

/** Redirections with no command (`> f`, `$(<file)`, `{ …; } > /dev/sda`): paths and device writes still count. */
export function processBareRedirects(walker: ScriptWalker, redirects: Redirect[], frame: Frame, text: string): void {
  if (redirects.length === 0) return;
  const view: CommandView = { argv: [], words: [], program: '', args: [], wrappers: [], redirects, text, home: walker.home, downloads: walker.downloads, written: walker.written };
  walker.report(matchDanger(view));
  walker.paths.push(...commandPaths(view, redirects, frame.base));
  if (fileWrites(redirects).length > 0) walker.readOnly = false;
}

/** The directory after `cd DIR` (relative to the previous one; `cd` alone goes home). */
/**
 * `cd`, `pushd`, `popd`: where the following commands run. The directory left is kept as OLDPWD (so `cd -` and
 * `cd "$OLDPWD"` go back) and on pushd's stack; `.` stands for the call's cwd.
 */
function moveTo(frame: Frame, program: string, target: Word | undefined, home: string): void {
  const here = frame.base ?? '.';
  let next: string | undefined;
  if (program === 'popd') next = frame.dirs?.pop();
  else if (target?.value === '-') next = frame.vars.get('OLDPWD');
  else next = changeDir(frame.base, viaCdpath(frame, target, home), home);
  if (program === 'pushd') (frame.dirs ??= []).push(here);
  frame.vars.set('OLDPWD', here);
  if (next === undefined) delete frame.base;
  else frame.base = next;
}

/**
 * `CDPATH=~; cd .ssh`: a relative directory (not `./x` or `../x`) is looked for in CDPATH's directories first, and
 * bash goes to the first that has it — taken here to be the first entry (an empty one, or `.`, is the current directory).
 */
function viaCdpath(frame: Frame, target: Word | undefined, home: string): Word | undefined {
  const cdpath = frame.vars.get('CDPATH');
  if (!cdpath || !target || target.dynamic || /^(\/|\.{1,2}(\/|$)|~|-$)/.test(target.value)) return target;
  const first = cdpath.split(':')[0]!;
  if (first === '' || first === '.') return target;
  const dir = first.replace(/^~(?=\/|$)/, home).replace(/\/+$/, '');
  return literalWord(`${dir}/${target.value}`);
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

/** The home `~` means in this frame: the script may have set HOME. */
export function homeOf(walker: ScriptWalker, frame: Frame): string {
  return frame.vars.get('HOME') ?? walker.home;
}

function changeDir(base: string | undefined, target: Word | undefined, home: string): string | undefined {
  if (!target) return home;
  if (target.value === '-') return undefined;
  const dir = target.value;
  if (dir.startsWith('/') || base === undefined) return dir;
  return `${base.replace(/\/+$/, '')}/${dir}`;
}

/** Targets of output redirections that write a file (not /dev/null, the standard streams or a descriptor). */
function fileWrites(redirects: Redirect[]): string[] {
  return redirects.filter((r) => r.write && r.target && !/^\/dev\/(null|stdout|stderr|tty)$|^\d+$|^-$/.test(r.target.value)).map((r) => r.target!.value);
}
