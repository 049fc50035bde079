// Where copies, moves, links and extractions land: a file copied into a directory is written under its own name
// there (`cp x/settings.json .claude/` writes .claude/settings.json), and a tree lands with whatever it holds.
import { hasFlag, operands, optionValue } from './flags.ts';

/**
 * Names a tree written into a directory may hold that the write-target entries judge: an agent's settings, git's
 * config and hooks. A tree landing at `.claude` (`mv /tmp/dotclaude .claude`, `rsync -a d/ .claude/`,
 * `tar xf x -C .claude`) may write `.claude/settings.json`; at `.git`, `.git/config`. Only names directly inside the
 * directory a tree lands in are tried: a tree unpacked into a project or a home (`tar xf x`, `tar xzf site.tgz -C ~`,
 * a regression line: allowed) is not asked about for whatever an archive might hold.
 */
const TREE_NAMES = ['settings.json', 'settings.local.json', 'config.toml', 'hooks.json', 'config', 'hooks/pre-commit'];

/** How each copying program reads its arguments. */
interface CopyShape {
  /** Options that take a value (their value is no operand). */
  withArg: string[];
  /** Whether it copies directories whole (cp -r, mv, rsync -a). */
  trees(args: string[]): boolean;
}

const SHAPES: Record<string, CopyShape> = {
  cp: {
    withArg: ['-S', '--suffix', '-t', '--target-directory'],
    trees: (args) => hasFlag(args, 'rRa', ['--recursive', '--archive']),
  },
  mv: { withArg: ['-S', '--suffix', '-t', '--target-directory'], trees: () => true },
  rsync: {
    withArg: ['-e', '--rsh', '--exclude', '--include', '-f', '--filter', '-t', '--target-directory'],
    trees: (args) => hasFlag(args, 'ra', ['--recursive', '--archive']),
  },
  install: {
    withArg: ['-m', '-o', '-g', '--mode', '--owner', '--group', '-S', '--suffix', '-t', '--target-directory'],
    trees: () => false,
  },
  ln: { withArg: ['-S', '--suffix', '-t', '--target-directory'], trees: () => false },
};

/**
 * What a copy, move or link writes besides its named destination (which write-targets.ts lists): each source's
 * name inside the destination when that is a directory, and the names a tree may hold where it lands.
 */
export function copyTargets(program: string, args: string[], home: string): string[] {
  const shape = SHAPES[program];
  if (!shape) return [];
  const ops = operands(args, shape.withArg);
  const directory = optionValue(args, ['-t', '--target-directory']);
  const sources = directory !== undefined ? ops : ops.slice(0, -1);
  const dest = directory ?? (ops.length > 1 ? ops.at(-1)! : undefined);
  if (dest === undefined || sources.length === 0) return [];
  const out: string[] = [];
  // `.claude/./` and `.claude//` are `.claude`: the entries match names, not spellings.
  const dir =
    dest
      .replace(/\/\.(?=\/|$)/g, '')
      .replace(/\/{2,}/g, '/')
      .replace(/\/+$/, '') || '/';
  const into = (name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);
  // `-T`: the destination is the copy itself, never a directory to copy into.
  const noDirectory = args.includes('-T') || args.includes('--no-target-directory');
  const trees = shape.trees(args);
  for (const source of sources) {
    const name = basename(source);
    // A glob's matches (`cp x/* .claude/`) or a directory's contents (`d/.`, rsync's `d/`) land in the destination.
    const contents = /[*?[]/.test(name) || (/\/\.?$/.test(source) && (program === 'rsync' || source.endsWith('/.')));
    if (!noDirectory && name !== '' && !contents) out.push(into(name));
    if (!trees && !contents) continue;
    // Where the tree lands: the destination itself when it is new (or for contents and -T), else inside it.
    const landings = [];
    if (contents || noDirectory || (directory === undefined && !isKnownDirectory(dir, home))) landings.push(dir);
    if (!contents && !noDirectory && name !== '') landings.push(into(name));
    for (const at of landings) out.push(...treeNames(at));
  }
  return out;
}

/** The names a tree written at `dir` may hold that matter (TREE_NAMES). */
export function treeNames(dir: string): string[] {
  const base = dir.replace(/\/+$/, '') || '/';
  return TREE_NAMES.map((n) => (base === '/' ? `/${n}` : `${base}/${n}`));
}

/** The last name of a path (`x/settings.json` → `settings.json`, `d/` → `d`, `d/.` → ''). */
function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const name = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return name === '.' || name === '..' ? '' : name;
}

/** Directories that always exist: a tree copied there goes inside (`cp -r x ~` makes ~/x, not a new home). */
function isKnownDirectory(path: string, home: string): boolean {
  const p = path.replace(/\/+$/, '') || '/';
  return p === '.' || p === '..' || p === '/' || isHome(p, home) || /^\/(home|Users|tmp|var|usr|etc|opt)$/.test(p);
}

function isHome(path: string, home: string): boolean {
  return path === home.replace(/\/+$/, '') || /^\/(home|Users)\/[^/]+$|^\/root$/.test(path);
}
