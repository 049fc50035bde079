// The second stage of a simple command: judging it as it stands in the script's state before it runs — the danger
// catalogue, the code it runs (followed one level deeper), the paths it names, whether it only reads.
import type { ScriptWalker } from './walker.ts';
import { deeper, type Frame } from './frame.ts';
import type { CommandView } from './view.ts';
import type { Word } from './word.ts';
import type { CommandRun } from './resolve.ts';
import { programName } from './unwrap.ts';
import { nestedCode, type NestedCode } from './nested.ts';
import { commandPaths } from './paths.ts';
import { programPath } from './static-eval.ts';
import { matchDanger } from '../catalog/danger.ts';
import { runsFromUrl, URL_RUN_DANGERS, URL_RUNNERS } from '../catalog/danger-url-run.ts';
import { isReadOnlyCommand } from '../catalog/read-only.ts';
import { ENV_SETUP } from '../catalog/programs.ts';
import { pushFinding } from './resolve.ts';
import { processCommand } from './command.ts';

/** Judges a resolved command and lists it; returns the view the catalogue saw (the effects read it too). */
export function judgeCommand(walker: ScriptWalker, run: CommandRun): CommandView {
  const { argv, wrappers, program, info, words } = run;
  const { frame, text } = info;
  const { state } = walker;
  const head = argv[0];
  walker.commands.push(run.command);
  // `f ~/.ssh/id_rsa` after `f() { cat "$1"; }`: the body walked again, after the call, with the call's words.
  if (
    state.functions.defined.size > 0 &&
    wrappers.length === 0 &&
    info.nameKind === 'literal' &&
    head &&
    !head.dynamic &&
    state.functions.defined.has(head.value)
  )
    walker.callFunction(head.value, argv.slice(1), frame);
  // Built after the call: what the function's body did (a secret written to a file, a remote added) counts here.
  const argvValues = run.command.argv;
  const view: CommandView = {
    argv: argvValues,
    words: argv,
    program,
    args: argvValues.slice(1),
    wrappers,
    redirects: info.redirects,
    text,
    home: walker.homeOf(frame),
    downloads: state.downloads,
    written: state.written,
  };
  if (info.stdin) view.stdin = info.stdin;
  if (state.secrets.files.size > 0) view.secretFiles = state.secrets.files;
  if (state.addedRemotes.size > 0) view.addedRemotes = state.addedRemotes;
  if (frame.vars.size > 0) view.vars = frame.vars;
  if (run.base !== undefined && run.base !== '.') view.base = run.base;
  if (run.noExec) {
    walker.paths.push(...commandPaths({ ...view, words: [], program: '' }, info.redirects, frame.base));
    return view;
  }
  walker.report(matchDanger(view));
  // `npx github:x`, `uvx --from git+https://… tool`, `nix shell github:x -c cmd`: a runner peeled as a wrapper fetched
  // what it runs (the catalogue saw only the command inside).
  const runnerAt =
    wrappers.length > 0 ? words.findIndex((w) => !w.dynamic && URL_RUNNERS.has(programName(w.value))) : -1;
  if (
    runnerAt >= 0 &&
    runsFromUrl(
      programName(words[runnerAt]!.value),
      words.slice(runnerAt + 1).map((w) => w.value),
    )
  )
    pushFinding(walker, URL_RUN_DANGERS[0]!, text);
  // `${x@P}` expands x as a prompt, which runs the `…` and $(…) in its value.
  for (const w of words)
    if (w.source.includes('@P}') && /\$\{[^}]*@P\}/.test(w.source)) walker.unknownCode(w.source, frame.depth + 1);
  followNested(walker, view, run);
  const paths = commandPaths(view, info.redirects, run.base);
  walker.paths.push(...paths, ...state.throughLinks(paths));
  if (!isReadOnlyCommand(view)) walker.readOnly = false;
  return view;
}

/** `$(command -v rm)`: the path of the program named, as `which` prints it (for a command that only looks up). */
export function lookupOutput(run: CommandRun): string | undefined {
  const named = run.words.slice(1).filter((w) => !w.value.startsWith('-'));
  if (run.wrappers.length === 1 && run.wrappers[0] === 'command' && named.length > 0 && !named.some((w) => w.dynamic))
    return named.map((w) => `${programPath(w.value)}\n`).join('');
  return undefined;
}

/** Runs the nested code of a command one level deeper: scripts are parsed, argvs analysed as commands. */
function followNested(walker: ScriptWalker, view: CommandView, run: CommandRun): void {
  const { info } = run;
  // Only xargs reads its stdin as words.
  const items =
    view.program === 'xargs' && info.stdin?.text !== undefined ? xargsItems(view.args, info.stdin.text) : undefined;
  const nested: NestedCode[] = nestedCode(view, items);
  if (run.scripts.length > 0) nested.unshift(...run.scripts.map((word) => ({ kind: 'script' as const, word })));
  // Most commands run no nested code: the inner frame (a copy of the variables) is only built when one does.
  if (nested.length === 0) return;
  const inner = deeper(info.frame);
  for (const n of nested) {
    if (n.kind === 'argv') {
      processCommand(walker, n.words, {
        frame: inner,
        text: n.words.map((w) => w.value).join(' '),
        redirects: [],
        nameKind: n.words[0]?.dynamic ? 'variable' : 'literal',
      });
    } else if (n.word.dynamic) {
      const known = walker.found.some(
        (f) => f.command === view.text && (f.id === 'remote-code' || f.id === 'decoded-code'),
      );
      const programs = n.word.inner?.programs ?? [];
      const setup =
        programs.length > 0 &&
        programs.every((p) => ENV_SETUP.has(p)) &&
        !/\$(?!\()/.test(n.word.value.replace(/\$\([^)]*\)/g, ''));
      if (!known && !setup) walker.unknownCode(n.word.source, inner.depth);
    } else {
      let frame: Frame = n.positional ? { ...inner, vars: withPositional(inner.vars, n.positional) } : inner;
      if (n.base !== undefined) frame = { ...frame, base: n.base };
      walker.nestedScript(n.word.value, frame, view.text);
    }
  }
}

/** The items xargs reads: split at blanks, or at NULs (`-0`) or a delimiter (`-d X`), which keep the blanks. */
function xargsItems(args: string[], input: string): string[] {
  const delimiter =
    args.includes('-0') || args.includes('--null')
      ? '\0'
      : args.find((a, i) => args[i - 1] === '-d' || args[i - 1] === '--delimiter');
  if (delimiter === undefined) return input.split(/\s+/).filter(Boolean);
  const d = delimiter === '\\n' ? '\n' : delimiter === '\\t' ? '\t' : delimiter;
  return input.split(d).filter(Boolean);
}

/** `$0`, `$1`, … bound to the words after a `-c` script (unknown when the word itself is not static). */
function withPositional(vars: Map<string, string | undefined>, words: Word[]): Map<string, string | undefined> {
  const out = new Map(vars);
  words.slice(0, 10).forEach((w, i) => out.set(String(i), w.dynamic ? undefined : w.value));
  return out;
}
