// Danger catalogue, moves: the project itself, its source tree or a home directory's folders moved out of the
// project — to /tmp (cleared at the next boot), a sibling or elsewhere — where the project no longer finds them.
// A rename inside the project (`mv src lib`, `mv old.txt archive/`) and a single scratch file sent to /tmp
// (`mv notes.txt /tmp/`) are not asked about.
import type { DangerEntry } from './danger-entry.ts';
import type { CommandView } from '../shell/view.ts';
import { operands } from './flags.ts';

/** Directories that hold a project's sources and tests (the whole directory, not a file in it). */
const SOURCE_DIRS =
  /^(\.\/)?(src|source|lib|app|apps|packages|cmd|internal|pkg|include|test|tests|spec|__tests__|scripts|docs)\/?$/;
const MV_WITH_ARG = ['-t', '--target-directory', '-S', '--suffix'];

/** The sources and the destination of an mv (`-t dir` puts the destination first). */
function moveOperands(v: CommandView): { sources: string[]; target: string } | undefined {
  const ops = operands(v.args, MV_WITH_ARG);
  const t = v.args.findIndex((a) => a === '-t' || a === '--target-directory');
  const eq = v.args.find((a) => a.startsWith('--target-directory='));
  const explicit = t >= 0 ? v.args[t + 1] : eq?.slice('--target-directory='.length);
  if (explicit !== undefined) return ops.length > 0 ? { sources: ops, target: explicit } : undefined;
  return ops.length >= 2 ? { sources: ops.slice(0, -1), target: ops.at(-1)! } : undefined;
}

/** The project itself (`.`, `..`, `../project`, `$PWD`), its source tree (`src`, `tests`) or a folder of a home (`~/Documents`). */
function projectLike(p: string, home: string): boolean {
  const bare = p.replace(/\/+$/, '');
  if (bare === '' || bare === '.' || bare === '..' || /^\.\.\/[^/]+$/.test(bare) || /^\$\{?PWD\}?$/.test(bare))
    return true;
  if (SOURCE_DIRS.test(p)) return true;
  const inHome = bare.startsWith('~/')
    ? bare.slice(2)
    : bare.startsWith(`${home}/`)
      ? bare.slice(home.length + 1)
      : undefined;
  return inHome !== undefined && /^[^/.][^/.]*$/.test(inHome);
}

/** A destination outside the project: an absolute path, a home, or above the working directory. */
const outside = (p: string) => /^(\/|~|\.\.(\/|$)|\$HOME\b|\$\{HOME\})/.test(p);

export const MOVE_DANGERS: DangerEntry[] = [
  {
    id: 'move-project-away',
    risk: 'high',
    reason:
      'moves the project itself, its source tree or a home folder out of the project (to /tmp, a sibling or elsewhere): the project no longer has it, and /tmp is cleared',
    programs: ['mv'],
    examples: [
      'mv src /tmp/',
      'mv . /tmp/old-project',
      'mv ../project /tmp/',
      'mv -t /var/tmp tests lib',
      'mv ~/Documents /tmp/',
    ],
    match: (v) => {
      if (v.program !== 'mv') return false;
      const m = moveOperands(v);
      return m !== undefined && outside(m.target) && m.sources.some((s) => projectLike(s, v.home));
    },
    // A destination that is after all inside the working directory (`mv src /home/me/proj/old-src`) is a rename.
    inProject: (v) => {
      const m = moveOperands(v);
      return m ? [m.target] : undefined;
    },
  },
];
