// Evaluates the few commands whose output is plainly decidable (echo, printf, base64 -d, rev, xxd -r, tr),
// so that `$(echo cm0g… | base64 -d)` or `rev <<< '~ fr- mr' | sh` are judged by what they really run.
import { decodeAnsiC } from './ansi-c.ts';
import { operands, optionValue } from '../catalog/flags.ts';
import { disposablePath } from '../catalog/disposable-output.ts';

/** Output (stdout) of one command given its argv and stdin, or undefined when it is not statically known. */
export type Evaluator = (args: string[], stdin: string | undefined) => string | undefined;

/** Longest text printf is followed to (`printf -v` values are bounded again like any variable's value). */
const MAX_PRINTF = 1024 * 1024;

/** mktemp's options that take a value. */
const MKTEMP_WITH_ARG = ['-p', '--tmpdir', '--suffix'];

// A relative glob every match of which is build output (`packages/*/dist`, any-directory/node_modules).
function disposableGlob(pattern: string): boolean {
  if (/^[/~]|(^|\/)\.\.(\/|$)/.test(pattern)) return false;
  return disposablePath(pattern.split('/').filter((s) => s !== '' && s !== '.'));
}

const EVALUATORS: Record<string, Evaluator> = {
  // `dir=$(mktemp -d)`: a new name in the temporary directory (a template's own directory when it names one).
  mktemp(args) {
    const template = operands(args, MKTEMP_WITH_ARG)[0];
    const dir = optionValue(args, ['-p', '--tmpdir']);
    if (template?.includes('/')) return `${template.replace(/X+$/, 'tmp0000')}\n`;
    return `${dir ?? '/tmp'}/${template ? template.replace(/X+$/, 'tmp0000') : 'tmp.0000000000'}\n`;
  },
  // `$(which rm)`, `$(type -P rm)`: a path to the program named; the directory is a guess, the name is what counts.
  which(args) {
    const names = args.filter((a) => !a.startsWith('-'));
    return names.length ? names.map((n) => `${programPath(n)}\n`).join('') : undefined;
  },
  type(args) {
    const names = args.filter((a) => !a.startsWith('-'));
    return args.some((a) => a === '-P' || a === '-p') && names.length
      ? names.map((n) => `${programPath(n)}\n`).join('')
      : undefined;
  },
  // `"$(pwd)/src"`: the directory the command runs in, as `.` (a `cd` earlier in the script is its base, as for `~+`).
  pwd() {
    return '.\n';
  },
  // `ls -d coverage .nyc_output | xargs rm -rf`: `ls -d` of named paths prints those of them that exist, each on its
  // line — at most the names it was given. Anything else ls prints (a directory's entries, a glob's matches, long
  // listings) is not known here.
  ls(args) {
    const names = args.filter((a) => !/^-/.test(a));
    const options = args.filter((a) => /^-/.test(a));
    if (names.length === 0 || !options.some((o) => /^-1?d1?$|^--directory$/.test(o))) return undefined;
    // A glob's matches are unknown here, unless every name it can match is build output (`ls -d packages/*/dist`):
    // then the pattern stands for them, as a find narrowed to one disposable name does for xargs.
    if (
      !options.every((o) => /^-[d1]+$|^--directory$/.test(o)) ||
      names.some((n) => n.includes('\n') || (/[*?[\]]/.test(n) && !disposableGlob(n)))
    )
      return undefined;
    return names.map((n) => `${n}\n`).join('');
  },
  echo(args) {
    let newline = true;
    let escapes = false;
    let i = 0;
    for (; i < args.length && /^-[neE]+$/.test(args[i]!); i++) {
      if (args[i]!.includes('n')) newline = false;
      if (args[i]!.includes('e')) escapes = true;
    }
    const text = args.slice(i).join(' ');
    return (escapes ? decodeAnsiC(text) : text) + (newline ? '\n' : '');
  },
  printf(args) {
    if (args.length === 0) return undefined;
    if (args[0] === '-v') return ''; // `printf -v NAME …` prints nothing: it sets NAME (printfVariable)
    const [format, ...rest] = args as [string, ...string[]];
    return printf(format, rest);
  },
  cat(args, stdin) {
    return args.length === 0 || (args.length === 1 && args[0] === '-') ? stdin : undefined;
  },
  base64(args, stdin) {
    if (stdin === undefined || !args.some((a) => /^(-d|-D|--decode|-[a-zA-Z]*d[a-zA-Z]*)$/.test(a))) return undefined;
    return Buffer.from(stdin.replace(/\s+/g, ''), 'base64').toString('utf8');
  },
  rev(args, stdin) {
    if (stdin === undefined || args.length > 0) return undefined;
    return stdin
      .split('\n')
      .map((line) => [...line].reverse().join(''))
      .join('\n');
  },
  xxd(args, stdin) {
    if (stdin === undefined || !args.includes('-r') || !args.some((a) => a === '-p' || a === '-ps' || a === '-plain'))
      return undefined;
    const hex = stdin.replace(/[^0-9a-fA-F]/g, '');
    return Buffer.from(hex, 'hex').toString('utf8');
  },
  tr(args, stdin) {
    if (stdin === undefined || args.length !== 2 || args.some((a) => a.startsWith('-'))) return undefined;
    const [from, to] = [trSet(args[0]!), trSet(args[1]!)];
    if (!from || !to || to.length === 0) return undefined;
    return [...stdin]
      .map((c) => {
        const k = from.indexOf(c);
        return k < 0 ? c : to[Math.min(k, to.length - 1)];
      })
      .join('');
  },
};

/**
 * Runs the evaluator for `program`; undefined when the program is not one we can evaluate. The output is as long as
 * its input allows (the caller bounds it like any value: `x=$(echo "$x$x")` doubling is too large to analyse, not
 * an unknown value that lets the bomb through).
 */
export function evaluateCommand(program: string, args: string[], stdin: string | undefined): string | undefined {
  const evaluator = EVALUATORS[program];
  return evaluator ? evaluator(args, stdin) : undefined;
}

/** Where `which NAME` finds a program: NAME itself when it is a path, else a directory of programs. */
export function programPath(name: string): string {
  return name.includes('/') ? name : `/usr/bin/${name}`;
}

function trSet(spec: string): string | undefined {
  if (spec.includes('[:')) return undefined;
  let out = '';
  for (let i = 0; i < spec.length; i++) {
    if (spec[i + 1] === '-' && i + 2 < spec.length) {
      const [a, b] = [spec.charCodeAt(i), spec.charCodeAt(i + 2)];
      if (b < a) return undefined;
      for (let c = a; c <= b; c++) out += String.fromCharCode(c);
      i += 2;
    } else out += spec[i];
  }
  return out;
}

/** `printf -v NAME FORMAT ARGS`: the variable it sets and the text it sets it to (undefined when that is unknown). */
export function printfVariable(args: string[]): { name: string; value: string | undefined } | undefined {
  if (args[0] !== '-v' || args.length < 3) return undefined;
  return { name: args[1]!, value: printf(args[2]!, args.slice(3)) };
}

function printf(format: string, args: string[]): string | undefined {
  let out = '';
  let k = 0;
  do {
    const start = k;
    const piece = format.replace(/%([-+ #0]*\d*(?:\.\d+)?)([sbdicq%])/g, (_m, _flags: string, conv: string) => {
      if (conv === '%') return '%';
      const arg = args[k++] ?? '';
      return conv === 'b' ? decodeAnsiC(arg) : arg;
    });
    out += decodeAnsiC(piece);
    if (k === start) break; // a format without conversions is printed once
    // The format is used again for every few arguments: a long one and many arguments multiply.
    if (out.length > MAX_PRINTF) return undefined;
  } while (k < args.length);
  return out;
}
