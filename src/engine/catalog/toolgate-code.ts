// toolgate's own code run from a command an agent is being judged on: its CLI under any name, its modules imported
// from inline code. Run by the agent's process, the CLI finds the reviewer token by itself (issue 23, row 9).
import { fileURLToPath } from 'node:url';
import type { CommandView } from '../shell/view.ts';
import { inlineCode } from './inline-code.ts';

/**
 * Where this copy of toolgate is installed: three directories above this file, in the sources (`src/engine/catalog`)
 * and in the build (`dist/engine/catalog`) alike. Computed from the module's own address, no file is read: the
 * engine stays pure. A clone need not be named `toolgate` (`/work/wt/t23-engine`), so names alone would miss it.
 */
export const TOOLGATE_ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/+$/, '');

/** toolgate's entry points by name, wherever installed: `…/toolgate/bin/…`, `…/toolgate/dist/…`, `toolgate.js`. */
const TOOLGATE_PATH = /(^|\/)toolgate\/(bin|dist|src)\/|(^|\/)toolgate(\.[cm]?js)?$/;
/** Programs that run a JavaScript or TypeScript file given as their first operand. */
const SCRIPT_RUNNERS = new Set(['node', 'nodejs', 'bun', 'deno', 'tsx', 'ts-node', 'ts-node-esm']);
/** Options of those runners that take a value (`node --import tsx x.ts`, `node -r ts-node/register x.ts`). */
const RUNNER_WITH_ARG = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '--input-type',
  '--conditions',
  '-C',
  '--env-file',
  '--title',
]);
/** The module specifiers inline code loads: `require('…')`, `import('…')`, `import … from '…'`, `import '…'`. */
const SPECIFIER =
  /\b(?:require|import)\s*\(\s*(["'`])([^"'`\n]+)\1|\bimport\s+(?:[\w*{}\s,$]+\s+from\s+)?(["'])([^"'\n]+)\3|\bfrom\s+(["'])([^"'\n]+)\5/g;

/** A path or module specifier that names toolgate's code: the package (`toolgate`, `toolgate/…`) or a file of it. */
export function namesToolgateCode(specifier: string, root = TOOLGATE_ROOT): boolean {
  const path = specifier.startsWith('file://') ? specifier.slice(7) : specifier;
  // Judged for every command's name: most names have neither.
  if (path.includes('toolgate') && (/^toolgate(\/|$)/.test(path) || TOOLGATE_PATH.test(path))) return true;
  return (
    root !== '' && root !== '/' && path.startsWith(root) && (path.length === root.length || path[root.length] === '/')
  );
}

/**
 * The arguments toolgate's CLI is given when the command runs it: as `toolgate` (`npx toolgate`, a package
 * runner's `toolgate` once unwrapped), by the path of its bin or of any of its files (`node …/dist/cli/main.js`,
 * `node --import tsx …/src/cli/main.ts`, `./bin/toolgate.js`); undefined when it does not run it.
 */
export function toolgateArgs(v: CommandView, root = TOOLGATE_ROOT): string[] | undefined {
  if (/^toolgate(\.[cm]?js)?$/.test(v.program) || namesToolgateCode(v.argv[0] ?? '', root)) return v.args;
  if (!SCRIPT_RUNNERS.has(v.program)) return undefined;
  for (let i = 0; i < v.args.length; i++) {
    const a = v.args[i]!;
    if (RUNNER_WITH_ARG.has(a)) {
      i++;
      continue;
    }
    if (a === 'run' && v.program === 'deno') continue;
    if (a.startsWith('-')) continue;
    return namesToolgateCode(a, root) ? v.args.slice(i + 1) : undefined;
  }
  return undefined;
}

/**
 * Inline code that loads one of toolgate's modules (`import('<toolgate>/dist/cli/main.js')`, `require('toolgate')`),
 * or hands anything reviewer-shaped arguments (`main(['approvals', 'resolve', id, …])` after a relative import).
 */
export function importsToolgate(v: CommandView, root = TOOLGATE_ROOT): boolean {
  return inlineCode(v).some((c) => {
    for (const m of c.code.matchAll(SPECIFIER)) if (namesToolgateCode(m[2] ?? m[4] ?? m[6] ?? '', root)) return true;
    return reviewerShapedArgs([...c.code.matchAll(STRING_LITERAL)].map((m) => m[2]!));
  });
}

/** A string literal of inline code (its text is group 2). */
const STRING_LITERAL = /(["'`])((?:(?!\1)[^\\\n])*)\1/g;

/**
 * Arguments shaped like toolgate's reviewer commands, whatever program is given them: a copy of its bin under another
 * name (`cp bin/toolgate.js /tmp/x.js`, then `node /tmp/x.js approvals resolve ID --choice allow_once`).
 */
export function reviewerShapedArgs(args: readonly string[]): boolean {
  const at = args.indexOf('approvals');
  if (at >= 0 && args.indexOf('resolve', at + 1) > at) return true;
  const rules = args.indexOf('rules');
  if (rules >= 0 && /^(add|import)$/.test(args[rules + 1] ?? '') && /^(allow|deny|ask)$/.test(args[rules + 2] ?? ''))
    return true;
  return args.some(
    (a, i) =>
      (a === '--choice' && /^(allow_once|allow_session|allow_always)$/.test(args[i + 1] ?? '')) ||
      /^--choice=allow_(once|session|always)$/.test(a),
  );
}
