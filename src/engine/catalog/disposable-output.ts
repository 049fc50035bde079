// Build and cache output a project regenerates: deleting it inside the working directory is not a danger.
//
// A recursive delete (`rm -rf`, `find … -delete`, `find … -exec rm -rf {} +`) whose every target lies inside the
// call's working directory and is named here (or ignored by the project's .gitignore, as the service reads it) is
// not asked about (src/engine/disposable-deletes.ts). Adding a tool's output directory is one entry here plus a test.
import micromatch from 'micromatch';
import type { Risk } from '../types.ts';

/** One kind of regenerable output: the names it goes by, and what makes it again. */
export interface DisposableEntry {
  id: string;
  /** What deleting it loses (always `low`: a build or an install makes it again). */
  risk: Risk;
  reason: string;
  /** Directory or file names (a name may be a glob over one name: `*.pyc`, `*.egg-info`). */
  names: readonly string[];
  /** Commands that are allowed because of this entry (the catalogue test runs every one). */
  examples: string[];
}

// One line per entry: the table is read down its rows, so the formatter leaves it as written.
// prettier-ignore
export const DISPOSABLE_OUTPUT: readonly DisposableEntry[] = [
  { id: 'node-packages', risk: 'low', reason: 'installed packages: npm/pnpm/yarn/bun install them again from the lockfile', names: ['node_modules', '.pnpm-store', 'bower_components', '.yarn/cache'], examples: ['rm -rf node_modules', 'rm -rf packages/web/node_modules'] },
  { id: 'build-output', risk: 'low', reason: 'build output: the build writes it again', names: ['dist', 'build', 'out', 'target', 'bin/Debug', 'bin/Release', 'obj', 'cmake-build-debug', 'cmake-build-release', 'cmake-build-*', '_build', 'storybook-static', '*.egg-info', 'lib-cov', '.build', 'DerivedData', '.zig-cache', 'zig-cache', 'zig-out', '.stack-work', 'dist-newstyle', 'elm-stuff', '.jekyll-cache'], examples: ['rm -rf dist', 'rm -rf build/ coverage/', 'rm -r target', 'rm -rf .build', 'rm -rf cmake-build-relwithdebinfo', 'rm -rf .zig-cache zig-out', 'rm -rf .stack-work dist-newstyle', 'rm -rf DerivedData', "find . -name '*.egg-info' -prune -exec rm -rf {} +"] },
  { id: 'framework-output', risk: 'low', reason: "a web framework's build and cache directory: the next dev or build run makes it again", names: ['.next', '.nuxt', '.output', '.svelte-kit', '.turbo', '.parcel-cache', '.vite', '.angular', '.docusaurus', '.astro', '.vercel/output', '.expo', '.webpack', '.serverless', '.swc', '.nx/cache', '.nx/workspace-data', '.vuepress/.cache', '.vuepress/.temp'], examples: ['rm -rf .next', 'rm -rf .turbo .parcel-cache', 'rm -rf .swc .nx/cache', 'rm -rf .angular/cache .svelte-kit'] },
  { id: 'test-coverage', risk: 'low', reason: 'coverage reports: the next test run writes them again', names: ['coverage', 'htmlcov', '.nyc_output', '.coverage'], examples: ['rm -rf coverage', 'rm -rf htmlcov .nyc_output'] },
  { id: 'tool-cache', risk: 'low', reason: "a tool's cache: it is filled again on the next run", names: ['.cache', '.eslintcache', '.stylelintcache', '.sass-cache', '.gradle', '.dart_tool', '.eggs', '*.tsbuildinfo', '.kotlin', '.bloop', '.ccls-cache', '.pytype', '.pyre', '.elixir_ls'], examples: ['rm -rf .cache', 'rm -rf .gradle/', 'rm -rf packages/*/dist packages/*/tsconfig.tsbuildinfo', "find . -name '*.tsbuildinfo' -not -path './node_modules/*' -delete", 'find . \\( -name .eslintcache -o -name .stylelintcache \\) -delete'] },
  { id: 'python-cache', risk: 'low', reason: "Python's bytecode and tool caches: Python and the tools write them again", names: ['__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.hypothesis', '.tox', '.nox', '*.pyc', '*.pyo'], examples: ['rm -rf __pycache__ .pytest_cache', "find . -name '__pycache__' -exec rm -rf {} +", "find . -name '*.pyc' -delete"] },
  { id: 'os-junk', risk: 'low', reason: "files the operating system or an editor leaves beside yours (Finder's .DS_Store, Windows' Thumbs.db, editor swap and backup files): nothing reads them", names: ['.DS_Store', '._*', '.AppleDouble', '__MACOSX', 'Thumbs.db', 'ehthumbs.db', 'desktop.ini', '.directory', '*.swp', '*.swo'], examples: ['find . -name .DS_Store -delete', "find . -name 'Thumbs.db' -type f -delete", "find . -name '*.swp' -exec rm -f {} +", 'rm -rf __MACOSX'] },
  { id: 'object-files', risk: 'low', reason: 'compiled objects: the compiler makes them again', names: ['*.o', '*.obj', '*.class'], examples: ["find . -name '*.o' -delete", 'rm -rf src/*.o'] },
];

/**
 * Names that are never disposable, whatever a .gitignore says: secrets and local data (`.env*`, keys, databases,
 * virtualenvs the user may have tuned are fine, but a `data/` directory is not).
 */
const NEVER_DISPOSABLE = [
  '.env',
  '.env.*',
  '*.env',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.keystore',
  '*.jks',
  'id_*',
  '*secret*',
  '*credential*',
  '*password*',
  '*token*',
  '*.db',
  '*.sqlite',
  '*.sqlite3',
  '*.db-*',
  '*.sql',
  '*.dump',
  '*.bak',
  'data',
  'db',
  'database',
  'databases',
  'backup',
  'backups',
  'uploads',
  'storage',
  'var',
  'logs',
  '.git',
  '.ssh',
  '.aws',
  '.gnupg',
  '.kube',
  'keys',
  'certs',
  'private',
  '*.tfstate',
  '*.tfstate.*',
  '.terraform',
];

const GLOB = /[*?[\]{}]/;
const DIRECT = new Set(DISPOSABLE_OUTPUT.flatMap((e) => e.names.filter((n) => !GLOB.test(n))));
const PATTERNS = DISPOSABLE_OUTPUT.flatMap((e) => e.names.filter((n) => GLOB.test(n)));
const anyOf = (patterns: readonly string[], options: micromatch.Options): ((s: string) => boolean) => {
  const tests = patterns.map((p) => micromatch.matcher(p, options));
  return (s) => tests.some((t) => t(s));
};
const isPatternName = anyOf(PATTERNS, { dot: true });
const isNeverDisposable = anyOf(NEVER_DISPOSABLE, { dot: true, nocase: true });
/** Thumbnail caches whose names end like a database (`Thumbs.db`): listed in `os-junk`, never data. */
const THUMBNAIL_CACHES = new Set(['Thumbs.db', 'ehthumbs.db']);

/** A name (one path segment) that goes by a table entry: `node_modules`, `x.pyc`, a written glob `*.pyc`. */
export function disposableName(name: string): boolean {
  return DIRECT.has(name) || PATTERNS.includes(name) || (!GLOB.test(name.replace(/^\*/, '')) && isPatternName(name));
}

/** A path segment that must never count as disposable output, even where a .gitignore ignores it. */
export function neverDisposable(segment: string): boolean {
  return !THUMBNAIL_CACHES.has(segment) && isNeverDisposable(segment);
}

/**
 * A relative path (segments inside the working directory, no `.`/`..`) that names disposable output: one of its
 * segments — or two, for entries like `.yarn/cache` — is a table name, and the segments before it name no glob past
 * the disposable one. `packages/<any>/node_modules` (a `*` there), `build/x`, `src/*.o` are; `src`, `node_modules_old` are not.
 */
export function disposablePath(segments: readonly string[]): boolean {
  if (segments.some(neverDisposable)) return false;
  for (let i = 0; i < segments.length; i++) {
    const one = segments[i]!;
    const two = i + 1 < segments.length ? `${one}/${segments[i + 1]}` : undefined;
    if ((two !== undefined && DIRECT.has(two)) || (!GLOB.test(one) && DIRECT.has(one))) return true;
    // A file pattern (`*.pyc`) holds only as the last segment: `x/*.pyc` is files, `*.o/y` is not a thing.
    if (i === segments.length - 1 && disposableName(one)) return true;
  }
  return false;
}
