// What a recursive delete removes, when every path is known: read by decide() to let disposable build output go.
import type { CommandView } from '../shell/view.ts';
import { atBase } from '../shell/view.ts';
import { operands } from './flags.ts';
import { findRootRange } from '../shell/paths.ts';
import { disposableName } from './disposable-output.ts';

/** `rm -rf a b`, `rimraf dist`: the operands, joined to the directory the script moved to; undefined when one is not known. */
export function rmDeletes(v: CommandView): readonly string[] | undefined {
  if (v.words.some((w) => w.dynamic)) return undefined;
  const paths = operands(v.args);
  return paths.length ? paths.map((p) => atBase(p, v.base)) : undefined;
}

/**
 * `find . -name '__pycache__' -exec rm -rf {} +`, `find . -name '*.pyc' -delete`: each root, then any depth, then the
 * name, when the only name test is one disposable name and nothing else widens what is found; else undefined.
 */
export function findDeletes(v: CommandView): readonly string[] | undefined {
  if (v.words.some((w) => w.dynamic)) return undefined;
  const name = disposableFindName(v.args);
  if (name === undefined) return undefined;
  const { start, end } = findRootRange(v.args);
  const roots = end > start ? v.args.slice(start, end) : ['.'];
  return roots.map((r) => atBase(`${r.replace(/\/+$/, '')}/**/${name}`, v.base));
}

/** Tests and actions a disposable find may hold besides its one `-name`: none of them widens what it matches. */
const PLAIN_FIND = /^-(type|maxdepth|mindepth)$/;
const PLAIN_FIND_FLAG = /^-(prune|print|print0|delete|depth|xdev|mount|true)$/;
const RM_FLAGS = /^-[rRfv]+$|^--(recursive|force|verbose)$/;

/**
 * The one disposable name a find's expression selects (`-name __pycache__`, `-iname '*.pyc'`), when the rest is
 * only `-type`, depth limits, `-prune`, `-print` and the delete itself (`-delete`, `-exec rm -rf {} +`): no `-o`,
 * `!`, `-not`, second name or path test, and no `-L`/`-H`/`-follow` (which follow symlinks out of the tree).
 */
export function disposableFindName(args: readonly string[]): string | undefined {
  let name: string | undefined;
  const { start, end } = findRootRange(args);
  // Leading options (`-L`, `-H`) follow symlinks out of the tree.
  if (start > 0) return undefined;
  for (let i = end; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-name' || a === '-iname') {
      if (name !== undefined) return undefined;
      name = args[++i];
      if (name === undefined || !disposableName(name)) return undefined;
    } else if (PLAIN_FIND.test(a)) i++;
    else if (PLAIN_FIND_FLAG.test(a)) continue;
    else if (a === '-exec' || a === '-execdir') {
      if (!/^(.*\/)?rm$/.test(args[i + 1] ?? '')) return undefined;
      let j = i + 2;
      while (j < args.length && RM_FLAGS.test(args[j]!)) j++;
      if (args[j] !== '{}' || (args[j + 1] !== ';' && args[j + 1] !== '+')) return undefined;
      i = j + 1;
    } else return undefined;
  }
  return name;
}

/**
 * `find . -name '*.pyc' | xargs rm -f`: what a find piped into xargs lists, as `findDeletes` reads a find that deletes
 * (each root, any depth, the one disposable name); undefined when the list comes from elsewhere or is not that narrow.
 */
export function listingDeletes(v: CommandView): readonly string[] | undefined {
  const args = v.stdin?.listedBy;
  if (!args) return undefined;
  const name = disposableFindName(args);
  if (name === undefined) return undefined;
  const { start, end } = findRootRange(args);
  const roots = end > start ? args.slice(start, end) : ['.'];
  return roots.map((r) => atBase(`${r.replace(/\/+$/, '')}/**/${name}`, v.base));
}
