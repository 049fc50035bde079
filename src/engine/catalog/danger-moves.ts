// Danger catalogue, moves: the project itself, its source tree or a home directory's folders moved out of the
// project — to /tmp (cleared at the next boot), a sibling or elsewhere — where the project no longer finds them.
// A rename inside the project (`mv src lib`, `mv old.txt archive/`) and a single scratch file sent to /tmp
// (`mv notes.txt /tmp/`) are not asked about.
import type { DangerEntry } from './danger-entry.ts';
import type { CommandView } from '../shell/view.ts';
import { operands } from './flags.ts';
import { atBase } from '../shell/view.ts';
import { sourceFileName } from './overwritten-files.ts';
import { disposablePath } from './disposable-output.ts';

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

/** cp's options that take a value. */
const CP_WITH_ARG = ['-t', '--target-directory', '-S', '--suffix'];

/**
 * The one file an `mv SRC DEST` or `cp SRC DEST` writes over when DEST is a project source file
 * (`mv src/config.ts src/index.ts`, `cp README.md src/index.ts`): undefined for a directory destination, more than one
 * source, a copy from a template (`cp config.example.ts config.ts` makes the file), or an option that keeps what was
 * there (`-n`, `-i`, `-b`, `--backup`, `-u`).
 */
function clobberedSource(v: CommandView): string | undefined {
  if (v.program !== 'mv' && v.program !== 'cp') return undefined;
  if (v.words.some((w) => w.dynamic)) return undefined;
  if (
    v.args.some(
      (a) => /^-[a-zA-Z]*[nibut]/.test(a) || /^--(no-clobber|interactive|backup|update|target-directory)(=|$)/.test(a),
    )
  )
    return undefined;
  const ops = operands(v.args, v.program === 'mv' ? MV_WITH_ARG : CP_WITH_ARG);
  if (ops.length !== 2) return undefined;
  const [from, to] = [ops[0]!, ops[1]!];
  if (/\/$|(^|\/)\.{1,2}$/.test(to) || from.toLowerCase() === to.toLowerCase() || from === '/dev/null')
    return undefined;
  // New contents put in place (`jq … > package.json.tmp && mv package.json.tmp package.json`, a file from /tmp) are an
  // edit; a module made a directory (`mv src/utils.js src/utils/index.js`) makes the file.
  const stem = from.replace(/^.*\//, '').replace(/\.[^.]*$/, '');
  if (
    /\.(tmp|temp|new|swp)$|~$/.test(from) ||
    from.startsWith(`${to}.`) ||
    /^\/(var\/)?tmp\//.test(from) ||
    to.replace(/\/[^/]*$/, '').endsWith(`/${stem}`) ||
    to.replace(/\/[^/]*$/, '') === stem
  )
    return undefined;
  if (!sourceFileName(to) && !WELL_KNOWN_SOURCE.test(to)) return undefined;
  // Build output written over (`mv build/app.js dist/app.js`) is made again.
  if (disposablePath(to.split('/').filter((s) => s !== '' && s !== '.'))) return undefined;
  if (/\.(example|sample|template|tmpl|dist|orig|bak|default)(\.|$)/i.test(from)) return undefined;
  return to;
}

/**
 * Source files every project of its kind has (`index.ts`, `main.go`, `app.py`, `settings.py`, `Cargo.toml`): a move
 * or copy onto one is taken to replace it when nothing tells whether it is there. Any other name (`mv old.ts
 * helpers.ts`) is taken to be new.
 */
const WELL_KNOWN_SOURCE =
  /(^|\/)((index|main|app|App|server|config|settings|routes|urls|views|models|schema|lib|mod|__main__|manage|setup|wsgi|asgi|application|Program|Startup|page|layout|_app|middleware|router|store|database|db)\.[\w]+|Makefile|Dockerfile|Gemfile|Rakefile|Procfile|Cargo\.toml|go\.mod|pyproject\.toml|package\.json|tsconfig\.json|composer\.json)$/;

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
      'mv src/*.ts /tmp/',
    ],
    match: (v) => {
      if (v.program !== 'mv') return false;
      const m = moveOperands(v);
      // (Also every source file of a kind, by a glob: `mv src/*.ts /tmp/`, `mv *.py ../old/`.)
      return (
        m !== undefined &&
        outside(m.target) &&
        m.sources.some((s) => projectLike(s, v.home) || (/[*?[]/.test(s) && !/^[/~]/.test(s) && sourceFileName(s)))
      );
    },
    // A destination that is after all inside the working directory (`mv src /home/me/proj/old-src`) is a rename.
    inProject: (v) => {
      const m = moveOperands(v);
      return m ? [m.target] : undefined;
    },
  },
  {
    id: 'move-over-source',
    risk: 'medium',
    reason:
      'moves or copies a file onto a project source file that is there (mv src/config.ts src/index.ts): what the file held is gone, and with mv the source name too',
    programs: ['mv', 'cp'],
    examples: ['mv src/config.ts src/index.ts', 'cp README.md src/index.ts', 'mv -f lib/util.py app/main.py'],
    // The service's `realpath` tells whether the destination is there; where it cannot, a well-known name is.
    match: (v) => clobberedSource(v) !== undefined,
    overwrites: (v) => {
      const to = clobberedSource(v);
      return to === undefined ? undefined : [atBase(to, v.base)];
    },
    presumedNew: (p) => !WELL_KNOWN_SOURCE.test(p),
  },
];
