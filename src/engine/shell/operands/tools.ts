// Operands of the other programs with rules of their own: cd, git, make, container runners and image builders,
// Kubernetes tools, database clients and socat (paths in their text), and servers that hand a directory over whole.
import type { Word } from '../word.ts';
import type { CommandView } from '../view.ts';
import { optionValue } from '../../catalog/flags.ts';
import { gitCommand } from '../../catalog/danger-git.ts';
import { plainOperands, type OperandEntry } from './support.ts';
import { patternOnly } from './searches.ts';

/** Options of the image builders whose value is no input tree (a tag, the Dockerfile, a build argument). */
const IMAGE_OPTION_VALUES = new Set([
  '-t',
  '--tag',
  '-f',
  '--file',
  '--build-arg',
  '--target',
  '--platform',
  '--label',
  '--cache-from',
  '--cache-to',
  '--network',
  '--secret',
  '--ssh',
  '-o',
  '--output',
  '--iidfile',
  '--progress',
  '--build-context',
  '--add-host',
  '-m',
  '--memory',
  '--shm-size',
  '--ulimit',
]);

/** The build context of `docker build -t "$IMAGE" .`: the operands less the values of its options. */
function imageOperands(rest: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!.value;
    if (a.startsWith('-')) {
      if (IMAGE_OPTION_VALUES.has(a)) i++;
      continue;
    }
    out.push(rest[i]!);
  }
  return out;
}

/** `docker build DIR` sends all of DIR to the daemon as the build context. */
const buildsImage = (args: string[]) => args[0] === 'build' || (args[0] === 'image' && args[1] === 'build');

/** Quoted paths in SQL (`readfile('/path')`, `load_file('/path')`, `\copy t from '/path'`), in arguments or on stdin. */
function sqlPaths(view: CommandView): string[] {
  const out: string[] = [];
  for (const text of [...view.args, view.stdin?.text ?? ''])
    for (const m of text.matchAll(/'([/~][^'\n]*)'/g)) out.push(m[1]!);
  return out;
}

/** `python3 -m http.server [--directory D]` serves D (the cwd by default). */
function pythonServes(view: CommandView): string | undefined {
  const { args } = view;
  if (!args.includes('-m') || args[args.indexOf('-m') + 1] !== 'http.server') return undefined;
  return optionValue(args, ['--directory', '-d']) ?? '.';
}

/** A versioned python (`python3.12`): it serves a tree as python3 does. Matched by name when no entry lists it. */
export const VERSIONED_PYTHON = /^python[\d.]*$/;
export const VERSIONED_PYTHON_ENTRY: OperandEntry = { programs: [], wholeTree: pythonServes };

export const TOOL_ENTRIES: OperandEntry[] = [
  { programs: ['cd', 'pushd'], movesTo: true },
  {
    programs: ['git'],
    patternFirst: true,
    directory: 'tree',
    // `git add -A` / `git add DIR`: everything below it is staged for a commit and a push.
    wholeTree: ({ args }) => {
      const git = gitCommand(args);
      if (git[0] !== 'add') return undefined;
      const paths = git.slice(1).filter((a) => !a.startsWith('-'));
      if (paths.length === 0) return args.some((a) => a === '-A' || a === '--all') ? '.' : undefined;
      return paths.find((p) => p === '.' || p === '*' || p.endsWith('/') || p === '~' || p === '..');
    },
    readsTree: (args) => args[0] === 'grep',
    // `git grep PATTERN DIR`: the operands after the subcommand.
    treeOperands: (rest) => plainOperands(rest.slice(1)),
    searchesCwd: patternOnly,
  },
  { programs: ['make', 'gmake'], directory: 'tree' },
  { programs: ['docker', 'podman'], mountsVolumes: true, readsTree: buildsImage, treeOperands: imageOperands },
  { programs: ['buildah'], readsTree: buildsImage, treeOperands: imageOperands },
  { programs: ['nerdctl'], mountsVolumes: true },
  {
    programs: ['kubectl', 'k', 'oc', 'helm', 'k9s', 'kubectx', 'kubens', 'stern', 'kustomize', 'flux', 'argocd'],
    ownKubeconfig: true,
  },
  // Database clients whose SQL may read a file on the machine.
  { programs: ['sqlite3', 'duckdb', 'psql', 'mysql', 'mariadb'], textPaths: sqlPaths },
  {
    programs: ['socat'],
    // socat's `FILE:`/`OPEN:` addresses.
    textPaths: ({ args }) => args.flatMap((a) => /^(?:FILE|OPEN|GOPEN|CREATE|CREAT):([^,]+)/i.exec(a)?.[1] ?? []),
  },
  {
    programs: ['python', 'python3'],
    wholeTree: pythonServes,
    readsTree: (args) => args[0] === '-m' && /^(zipfile|tarfile)$/.test(args[1] ?? '') && args.includes('-c'),
  },
  {
    programs: ['php'],
    wholeTree: ({ args }) => (args.includes('-S') ? (optionValue(args, ['-t']) ?? '.') : undefined),
  },
  {
    programs: ['httpd'],
    // busybox httpd serves `-h DIR` (or the cwd); apache's httpd is told its root with -d/-f/-k and friends.
    wholeTree: ({ args }) =>
      optionValue(args, ['-h']) ?? (args.some((a) => /^-[kdDeECcStvVMX]$/.test(a)) ? undefined : '.'),
  },
  { programs: ['http-server', 'serve'], wholeTree: ({ args }) => args.find((a) => !a.startsWith('-')) ?? '.' },
];
