// The files a command writes, by program: redirections plus the arguments programs write to (cp's target, dd of=).
import type { CommandView } from '../shell/view.ts';
import { atBase, redirectWrites } from '../shell/view.ts';
import { hasFlag, operands, optionValue } from './flags.ts';
import { inlineCode } from './inline-code.ts';
import { CODE_RUNNERS, unversioned } from './programs.ts';
import { sedScripts, sedWriteFiles } from './sed-script.ts';
import { copyTargets, treeNames } from './copy-targets.ts';

type TargetReader = (args: string[]) => string[];

const lastOperand =
  (withArg: string[]): TargetReader =>
  (args) => {
    const dir = optionValue(args, ['-t', '--target-directory']);
    if (dir !== undefined) return [dir];
    const ops = operands(args, withArg);
    return ops.length > 1 ? [ops.at(-1)!] : [];
  };

/** Per program: which arguments it writes to. `mv` writes (removes) its sources too. */
const TARGETS: Record<string, TargetReader> = {
  tee: (args) => operands(args),
  cp: lastOperand(['-S', '--suffix']),
  install: lastOperand(['-m', '-o', '-g', '--mode', '--owner', '--group']),
  ln: lastOperand(['-S', '--suffix']),
  rsync: lastOperand(['-e', '--rsh', '--exclude', '--include', '-f', '--filter']),
  mv: (args) =>
    operands(args, ['-S', '--suffix', '-t', '--target-directory']).concat(
      optionValue(args, ['-t', '--target-directory']) ?? [],
    ),
  dd: (args) => args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)),
  truncate: (args) => operands(args, ['-s', '--size', '-r', '--reference']),
  sed: (args) =>
    (hasFlag(args, 'i', ['--in-place'])
      ? operands(args, ['-e', '-f', '--expression', '--file']).slice(
          args.some((a) => a === '-e' || a === '-f' || a.startsWith('--expression')) ? 0 : 1,
        )
      : []
    ).concat(sedScripts(args).flatMap(sedWriteFiles)),
  // `cmd | sponge -a file`: sponge writes (or appends to) its file.
  sponge: (args) => operands(args),
  // `ex -sc 'a|text' -c x FILE`, `vim -es -c … FILE`: an editor driven by commands edits the files it opens.
  ex: editedFiles,
  vim: editedFiles,
  vi: editedFiles,
  nvim: editedFiles,
  find: (args) => args.flatMap((a, i) => (/^-f(print0?|printf|ls)$/.test(a) && args[i + 1] ? [args[i + 1]!] : [])),
  curl: (args) => [optionValue(args, ['-o', '--output'])].filter((x): x is string => x !== undefined),
  wget: (args) =>
    [optionValue(args, ['-O', '--output-document'])].filter((x): x is string => x !== undefined && x !== '-'),
  tar: (args) =>
    args.some((a) => (/^-?[a-zA-Z]*x/.test(a) && !a.startsWith('--')) || a === '--extract' || a === '--get')
      ? [optionValue(args, ['-C', '--directory']) ?? ''].filter(Boolean)
      : [],
  // `unzip -o x.zip -d /`, `7z x a.7z -o/`: the directory files are extracted into is written.
  unzip: (args) => [optionValue(args, ['-d'])].filter((x): x is string => x !== undefined),
  '7z': (args) => args.filter((a) => a.startsWith('-o') && a.length > 2).map((a) => a.slice(2)),
  touch: (args) => operands(args, ['-d', '-t', '-r', '--date', '--reference']),
  mkdir: (args) => operands(args, ['-m', '--mode']),
  chmod: () => [],
  perl: inPlaceScriptTargets,
  ruby: inPlaceScriptTargets,
};

/** The files an editor run by commands (`-c`, `+cmd`, `-s` scripts) edits: its file operands; none when interactive. */
function editedFiles(args: string[]): string[] {
  if (!args.some((a) => /^(-c|--cmd|-e|-S)$/.test(a) || /^-[a-zA-Z]*s[a-zA-Z]*$/.test(a) || a.startsWith('+')))
    return [];
  return operands(args, ['-c', '--cmd', '-S', '-u', '-i', '-T', '-w', '-W']).filter((a) => !a.startsWith('+'));
}

/**
 * Files inline code opens for writing or appending: `open('/root/.bashrc', 'a')` (also through
 * `os.path.expanduser`), `fs.writeFileSync('…')`, `fs.appendFileSync('…')`, `File.write('…')`, awk's `print > "…"`.
 */
function codeWriteTargets(code: string, language: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(OPEN_FOR_WRITING)) out.push(m[2]!);
  for (const m of code.matchAll(WRITE_CALL)) out.push(m[2]!);
  for (const m of code.matchAll(PATH_WRITE)) out.push(m[2]!);
  if (/awk$/.test(language)) for (const m of code.matchAll(AWK_PRINT_TO)) out.push(m[1]!);
  return out;
}

/** Programs with inline code that may write files (`python3.12` and friends by their versioned names too). */
const CODE_RUNNER_SET = new Set(CODE_RUNNERS);

/** A string literal path, possibly inside `os.path.expanduser(…)`; the path is group 2. */
const PATH_LITERAL = String.raw`(?:os\.path\.expanduser\s*\(\s*)?(["'])([^"'\n]+)\1\s*\)?`;
const OPEN_FOR_WRITING = new RegExp(
  String.raw`\bopen\s*\(\s*${PATH_LITERAL}\s*,\s*(?:mode\s*=\s*)?["'][^"']*[wax+]`,
  'g',
);
const WRITE_CALL = new RegExp(
  String.raw`\b(?:writeFileSync|appendFileSync|writeFile|appendFile|File\s*\.\s*(?:write|open))\s*\(\s*${PATH_LITERAL}`,
  'g',
);
const PATH_WRITE = /\bPath\s*\(\s*(["'])([^"'\n]+)\1\s*\)\s*\.\s*(?:write_text|write_bytes|open\s*\(\s*["'][wax])/g;
const AWK_PRINT_TO = /\bprintf?\b[^;{}\n]*?>>?\s*"([^"]+)"/g;

/**
 * `perl -pi -e 's/a/b/' FILE`, `perl -i.bak script.pl FILE`, `ruby -i -pe …`: with -i the files it reads are
 * rewritten. They are the operands after the code (`-e`) or after the script file.
 */
function inPlaceScriptTargets(args: string[]): string[] {
  if (!args.some((a) => /^-[a-zA-Z0-9]*i/.test(a) && !a.startsWith('--'))) return [];
  const files: string[] = [];
  let code = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (/^-[a-zA-Z0-9]*[eE]$/.test(a)) {
      code = true;
      i++;
      continue;
    }
    if (/^-[IMmrx]$/.test(a)) {
      i++;
      continue;
    } // options whose value is the next word (include dirs, modules)
    if (a.startsWith('-') && a.length > 1) continue;
    files.push(a);
  }
  return code ? files : files.slice(1);
}

/**
 * Several catalogue entries ask for the same command's targets, one view after another: the last view's
 * targets are kept (one slot, not a WeakMap: ephemerons made every analysis dearer to garbage-collect).
 */
let memo: { view: CommandView; targets: string[] } | undefined;

/** Programs whose target (from TARGETS) is a directory a tree is unpacked into (`tar xf x -C .claude`). */
const EXTRACTORS = new Set(['tar', 'unzip', '7z']);

/** Every path the command writes or replaces. */
export function writeTargets(view: CommandView): string[] {
  if (memo?.view !== view) {
    const reader = TARGETS[view.program];
    const named = reader ? reader(view.args) : [];
    const targets = redirectWrites(view).concat(named);
    // `cp x/settings.json .claude/`, `mv /tmp/dotclaude .claude`, `tar xf x -C .claude`: where the files land.
    targets.push(...copyTargets(view.program, view.args, view.home));
    if (EXTRACTORS.has(view.program)) for (const dir of named) targets.push(...treeNames(dir));
    if (CODE_RUNNER_SET.has(view.program) || CODE_RUNNER_SET.has(unversioned(view.program)))
      for (const c of inlineCode(view))
        targets.push(
          ...codeWriteTargets(c.code, c.language).map((p) => (p.startsWith('~/') ? view.home + p.slice(1) : p)),
        );
    // `cd /etc && echo x > passwd`, `cd .git/hooks && … > pre-commit`: a relative target is below where the command runs.
    memo = { view, targets: view.base === undefined ? targets : targets.map((p) => atBase(p, view.base)) };
  }
  return memo.targets;
}
