// Nested code of development tools that run commands: package managers' scripts, make recipes, watchers and
// runners (concurrently, nodemon, watchexec, hyperfine), portable file commands (cmake -E, shx, del-cli), nix-shell.
import type { CommandView } from '../view.ts';
import { writtenContents } from '../view.ts';
import type { Word } from '../word.ts';
import { literalWord } from '../word.ts';
import { PACKAGE_MANAGERS, packageScripts } from '../package-scripts.ts';
import { firstOperand, optionValues, script, text } from './support.ts';
import type { NestedCode, NestedEntry } from './support.ts';

/** concurrently's options that take a value (the other operands are the commands it runs). */
const CONCURRENTLY_WITH_ARG = [
  '-n',
  '--names',
  '-c',
  '--prefix-colors',
  '-p',
  '--prefix',
  '-l',
  '--prefix-length',
  '-t',
  '--timestamp-format',
  '-m',
  '--max-processes',
  '-s',
  '--success',
  '--restart-tries',
  '--restart-after',
  '--default-input-target',
  '--names-separator',
  '--pad-prefix',
  '-P',
  '--passthrough-arguments',
];

/** hyperfine options that take a value (the other operands are the commands it times). */
const HYPERFINE_WITH_ARG = [
  '-w',
  '--warmup',
  '-m',
  '--min-runs',
  '-M',
  '--max-runs',
  '-r',
  '--runs',
  '-p',
  '--prepare',
  '-s',
  '--setup',
  '-c',
  '--cleanup',
  '-S',
  '--shell',
  '-u',
  '--time-unit',
  '-n',
  '--command-name',
  '--export-asciidoc',
  '--export-csv',
  '--export-json',
  '--export-markdown',
  '--export-orgmode',
  '--style',
  '--sort',
  '--output',
  '--input',
  '-D',
  '--parameter-step-size',
  '--reference',
];

/** watchexec options that take a value (its command is the first operand on). */
const WATCHEXEC_WITH_ARG = [
  '-e',
  '--exts',
  '-w',
  '--watch',
  '-i',
  '--ignore',
  '-s',
  '--signal',
  '-d',
  '--debounce',
  '--delay-run',
  '--shell',
  '-f',
  '--filter',
  '--filter-file',
  '--ignore-file',
  '-p',
  '--postpone',
  '--project-origin',
  '--workdir',
  '--env',
  '-E',
  '--emit-events-to',
  '--on-busy-update',
  '--stop-signal',
  '--stop-timeout',
  '--poll',
  '--color',
  '--log-file',
];

/** The operands of a command whose options `withArg` take a value (`-P NAME MIN MAX` / `-L NAME LIST` skipped too). */
function operandsOf(args: Word[], withArg: string[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a === '-P' || a === '--parameter-scan') {
      i += 3;
      continue;
    }
    if (a === '-L' || a === '--parameter-list') {
      i += 2;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      if (withArg.includes(a)) i++;
      continue;
    }
    out.push(args[i]!);
  }
  return out;
}

/**
 * `printf 'all:\n\trm -rf ~\n' > Makefile && make`: the recipes of a makefile this command line wrote (the default
 * names, or `-f FILE`) are shell commands. Make's own `$(VAR)` references become a plain word, `$$` a `$`.
 */
function makeRecipes(out: NestedCode[], view: CommandView, args: Word[]): void {
  const named = optionValues(args, '-f', '--file', '--makefile')[0];
  const contents = writtenContents(
    view.written,
    named ?? ['GNUmakefile', 'makefile', 'Makefile'].find((f) => view.written.has(f)),
  );
  if (contents === undefined) return;
  for (const line of contents.split('\n')) {
    if (!line.startsWith('\t')) continue;
    const recipe = line
      .slice(1)
      .replace(/^[@+-]+/, '')
      .replace(/\$[({][^)}]*[)}]/g, 'x')
      .replace(/\$\$/g, '$');
    if (recipe.trim() !== '') text(out, recipe);
  }
}

export const DEV_TOOL_ENTRIES: NestedEntry[] = [
  {
    programs: [...PACKAGE_MANAGERS],
    nested: packageScripts,
  },
  {
    programs: ['concurrently'],
    nested(out, _view, args) {
      // `concurrently "npm:dev" "tsc -w"`: each operand is a command line (`npm:NAME` is `npm run NAME`).
      for (let i = 0; i < args.length; i++) {
        const w = args[i]!;
        if (w.value.startsWith('-')) {
          if (CONCURRENTLY_WITH_ARG.includes(w.value)) i++;
          continue;
        }
        const npm = /^(npm|yarn|pnpm|bun):(.+)$/.exec(w.value);
        if (npm && !w.dynamic)
          out.push({ kind: 'argv', words: [literalWord(npm[1]!), literalWord('run'), literalWord(npm[2]!)] });
        else script(out, w);
      }
    },
  },
  {
    programs: ['nodemon'],
    nested(out, _view, args) {
      for (const w of optionValues(args, '--exec', '-x')) script(out, w);
    },
  },
  {
    programs: ['watchexec', 'reflex'],
    nested(out, view, args) {
      // `watchexec -e js -- npm test`, `watchexec 'make test'`: the command after the options.
      // (firstOperand also starts after a `--`; reflex runs only what follows one.)
      const dashes = args.findIndex((w) => w.value === '--');
      const at = view.program === 'watchexec' ? firstOperand(args, WATCHEXEC_WITH_ARG) : dashes < 0 ? -1 : dashes + 1;
      const cmd = at < 0 ? [] : args.slice(at);
      if (cmd.length === 1) script(out, cmd[0]);
      else if (cmd.length > 1) out.push({ kind: 'argv', words: cmd });
    },
  },
  {
    programs: ['hyperfine'],
    nested(out, _view, args) {
      // Each operand is a shell command it times; --prepare, --setup and --cleanup are shell commands too.
      const hooks = optionValues(args, '-p', '--prepare', '-s', '--setup', '-c', '--cleanup');
      for (const w of [...hooks, ...operandsOf(args, HYPERFINE_WITH_ARG)]) script(out, w);
    },
  },
  {
    programs: ['make', 'gmake'],
    nested(out, view, args) {
      makeRecipes(out, view, args);
      // `make CC='…' all`, `make SHELL=…`: a variable on make's command line that make runs as a command.
      for (const w of args) {
        const m = /^(CC|CXX|CPP|LD|AR|FC|SHELL|MAKESHELL)=(.*\s.*)$/s.exec(w.value);
        if (m && !w.dynamic) text(out, m[2]!);
      }
    },
  },
  {
    programs: ['cmake'],
    nested(out, _view, args) {
      // `cmake -E rm -rf dir`, `cmake -E remove_directory dir`: cmake's portable file commands.
      if (args[0]?.value !== '-E') return;
      const tool = args[1]?.value;
      const rest = args.slice(2);
      if (tool === 'rm' || tool === 'remove') out.push({ kind: 'argv', words: [literalWord('rm'), ...rest] });
      else if (tool === 'remove_directory')
        out.push({ kind: 'argv', words: [literalWord('rm'), literalWord('-rf'), ...rest] });
    },
  },
  {
    programs: ['del-cli', 'del'],
    nested(out, _view, args) {
      // npm's recursive deleter (rimraf has a catalogue entry of its own): `npx del-cli dist` is `rm -rf dist`.
      const operands = args.filter((w) => !w.value.startsWith('-'));
      out.push({ kind: 'argv', words: [literalWord('rm'), literalWord('-rf'), ...operands] });
    },
  },
  {
    programs: ['shx'],
    nested(out, _view, args) {
      // `npx shx rm -rf dist`: shx runs the shell command it is given (rm, cp, mv, …).
      if (args.length > 0) out.push({ kind: 'argv', words: args.filter((w, i) => i > 0 || !w.value.startsWith('-')) });
    },
  },
  {
    programs: ['nix-shell'],
    nested(out, _view, args) {
      for (const w of optionValues(args, '--run', '--command')) script(out, w);
    },
  },
];
