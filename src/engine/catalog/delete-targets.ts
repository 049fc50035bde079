// What a recursive delete removes, when every path is known: read by decide() to let disposable build output go.
import type { CommandView } from '../shell/view.ts';
import { atBase } from '../shell/view.ts';
import micromatch from 'micromatch';
import { hasFlag, operands } from './flags.ts';
import { findRootRange } from '../shell/paths.ts';
import { disposableName, disposablePath } from './disposable-output.ts';
import { logFileName } from './overwritten-files.ts';

/** `rm -rf a b`, `rimraf dist`: the operands, joined to the directory the script moved to; undefined when one is not known. */
export function rmDeletes(v: CommandView): readonly string[] | undefined {
  if (v.words.some((w) => w.dynamic)) return undefined;
  const paths = operands(v.args);
  return paths.length ? paths.map((p) => atBase(p, v.base)) : undefined;
}

/**
 * `find . -name '__pycache__' -exec rm -rf {} +`, `find . -name '*.pyc' -delete`: each root, then any depth, then each
 * name, when every delete in the expression is narrowed to disposable names (`disposableFindNames`); else undefined.
 */
export function findDeletes(v: CommandView): readonly string[] | undefined {
  if (v.words.some((w) => w.dynamic)) return undefined;
  return foundPaths(v.args, v.base);
}

/** Each root of a find joined to each disposable name it deletes (`./**\/bin`, `./**\/obj`), or undefined. */
function foundPaths(args: readonly string[], base: string | undefined): string[] | undefined {
  const names = disposableFindNames(args);
  if (names === undefined) return undefined;
  const { start, end } = findRootRange(args);
  const roots = end > start ? args.slice(start, end) : ['.'];
  return roots.flatMap((r) => names.map((name) => atBase(`${r.replace(/\/+$/, '')}/**/${name}`, base)));
}

/** Tests with an argument that only narrow what a find matches (and options, always true). */
const NARROWING_WITH_ARG =
  /^-(type|xtype|maxdepth|mindepth|path|ipath|wholename|iwholename|regex|iregex|regextype|mtime|mmin|atime|amin|ctime|cmin|newer|size|user|group|perm|links)$/;
/** Tests, options and harmless actions without one (`-prune` stops descending; `-print` lists). */
const NARROWING_FLAG = /^-(prune|print|print0|depth|xdev|mount|true|false|empty|readable|writable)$/;
const RM_FLAGS = /^-[rRfv]+$|^--(recursive|force|verbose)$/;

/** What one part of a find expression is true for: names it is narrowed to (undefined: any name), and its deletes. */
interface FindPart {
  names: string[] | undefined;
  /** Names each delete in it is narrowed to; null for a delete narrowed to no name (anything found goes). */
  deletes: (string[] | null)[];
}

/**
 * The names a find's expression deletes (`-delete`, `-exec rm -rf {} +`), when every delete is narrowed by a name test
 * to disposable output: `-name __pycache__`, `-iname '*.pyc'`, alternatives all disposable (`\( -name bin -o -name
 * obj \)`: .NET's bin with its obj, as `rm -rf bin obj`), beside tests that only narrow it further (`-type`, depth
 * limits, `-not -path './node_modules/*'`, `-prune`). Undefined when a delete can reach another name (`-o -delete`,
 * `! -name x -delete`), on any other test or action, or with `-L`/`-H`/`-follow` (which follow symlinks out of the tree).
 */
export function disposableFindNames(args: readonly string[]): string[] | undefined {
  const { start, end } = findRootRange(args);
  // Leading options (`-L`, `-H`) follow symlinks out of the tree.
  if (start > 0) return undefined;
  const tokens = args.slice(end);
  let i = 0;
  const fail = (): never => {
    throw new NotNarrow();
  };
  const or = (): FindPart => {
    let part = and();
    while (tokens[i] === '-o' || tokens[i] === '-or') {
      i++;
      const next = and();
      part = {
        names: part.names && next.names ? [...part.names, ...next.names] : undefined,
        deletes: [...part.deletes, ...next.deletes],
      };
    }
    return part;
  };
  const and = (): FindPart => {
    let names: string[] | undefined;
    const deletes: (string[] | null)[] = [];
    let any = false;
    while (i < tokens.length && tokens[i] !== ')' && tokens[i] !== '-o' && tokens[i] !== '-or') {
      if (tokens[i] === '-a' || tokens[i] === '-and') {
        i++;
        continue;
      }
      const part = primary(names);
      any = true;
      // Anded tests narrow: what both hold for lies within either's names (both kept, so each must be disposable).
      if (part.names) names = [...(names ?? []), ...part.names];
      deletes.push(...part.deletes);
    }
    if (!any) fail();
    return { names, deletes };
  };
  const primary = (before: string[] | undefined): FindPart => {
    const a = tokens[i++];
    if (a === undefined) return fail();
    if (a === '(') {
      const inner = or();
      if (tokens[i++] !== ')') fail();
      return inner;
    }
    if (a === '!' || a === '-not') {
      const inner = primary(undefined);
      // A negated test matches any other name; a delete under it is not narrowed.
      if (inner.deletes.length) fail();
      return { names: undefined, deletes: [] };
    }
    if (a === '-name' || a === '-iname') {
      const name = tokens[i++];
      return name === undefined ? fail() : { names: [name], deletes: [] };
    }
    if (NARROWING_WITH_ARG.test(a)) {
      if (tokens[i++] === undefined) fail();
      return { names: undefined, deletes: [] };
    }
    if (NARROWING_FLAG.test(a)) return { names: undefined, deletes: [] };
    if (a === '-delete') return { names: undefined, deletes: [before ?? null] };
    if (a === '-exec' || a === '-execdir') {
      if (!/^(.*\/)?rm$/.test(tokens[i] ?? '')) fail();
      let j = i + 1;
      while (j < tokens.length && RM_FLAGS.test(tokens[j]!)) j++;
      if (tokens[j] !== '{}' || (tokens[j + 1] !== ';' && tokens[j + 1] !== '+')) fail();
      i = j + 2;
      return { names: undefined, deletes: [before ?? null] };
    }
    return fail();
  };
  try {
    const whole = or();
    if (i < tokens.length) return undefined;
    const deleted = new Set<string>();
    for (const d of whole.deletes) {
      if (d === null) return undefined;
      for (const n of d) deleted.add(n);
    }
    // No delete: nothing goes (a listing piped to `xargs rm` deletes what the whole expression lists).
    for (const n of whole.deletes.length ? [] : (whole.names ?? [])) deleted.add(n);
    if (!whole.deletes.length && !whole.names) return undefined;
    const names = [...deleted];
    return names.length && names.every((n) => disposableName(n) || pairedOutput(n, names)) ? names : undefined;
  } catch (e) {
    if (e instanceof NotNarrow) return undefined;
    throw e;
  }
}

class NotNarrow extends Error {}

/**
 * A name that is build output only beside its sibling (`bin` with `obj`: .NET's; `deps` with `_build`: Mix's), as
 * `rm -rf bin obj` is judged (disposable-deletes.ts).
 */
function pairedOutput(name: string, names: readonly string[]): boolean {
  return (name === 'bin' && names.includes('obj')) || (name === 'deps' && names.includes('_build'));
}

/**
 * `find . -name '*.pyc' | xargs rm -f`: what a find piped into xargs lists, as `findDeletes` reads a find that deletes
 * (each root, any depth, the one disposable name); undefined when the list comes from elsewhere or is not that narrow.
 */
export function listingDeletes(v: CommandView): readonly string[] | undefined {
  const args = v.stdin?.listedBy;
  return args ? foundPaths(args, v.base) : undefined;
}

/** Extensions of code and of what builds it: a glob over them deletes the project's own work. */
const SOURCE_EXTENSIONS = [
  'ts',
  'tsx',
  'mts',
  'cts',
  'js',
  'jsx',
  'mjs',
  'cjs',
  'py',
  'pyi',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'kts',
  'scala',
  'groovy',
  'c',
  'h',
  'cc',
  'cpp',
  'cxx',
  'hpp',
  'hh',
  'hxx',
  'm',
  'mm',
  'cs',
  'fs',
  'vb',
  'swift',
  'php',
  'pl',
  'pm',
  'lua',
  'sh',
  'bash',
  'zsh',
  'ex',
  'exs',
  'erl',
  'hrl',
  'hs',
  'ml',
  'mli',
  'clj',
  'cljs',
  'dart',
  'r',
  'jl',
  'vue',
  'svelte',
  'astro',
  'sql',
  'proto',
  'graphql',
  'tf',
  'css',
  'scss',
  'sass',
  'less',
  'html',
  'ipynb',
  'zig',
  'nim',
  'sol',
  'elm',
];
const isSourceExtension = micromatch.matcher(`{${SOURCE_EXTENSIONS.join(',')}}`, { nocase: true });
const GLOB_CHAR = /[*?[\]]/;
/** Extension patterns already judged (`*`, `[ch]`, `t?`): a long rm line repeats the same few. */
const EXTENSION_PATTERNS = new Map<string, boolean>();
/** Scratch places whose files nobody keeps: `/tmp/*.py`, `tmp/*.js` are not the project's work. */
const SCRATCH_DIR = /^(tmp|temp|\.tmp|scratch)$/i;

/**
 * Whether a glob's last segment can match source files: every file of a directory (`*`, `*.*`), or an extension
 * pattern that a source extension fits (`*.ts`, `test_*.py`, `*.[ch]`). One name in all its extensions (`Button.*`,
 * `core.*`) and names with no extension (`tmp*`) are not taken for source.
 */
function globMatchesSource(segment: string): boolean {
  if (!GLOB_CHAR.test(segment)) return false;
  if (/^(\*+|\*\.\*)$/.test(segment)) return true;
  const dot = segment.lastIndexOf('.');
  if (dot <= 0) return false;
  const [stem, ext] = [segment.slice(0, dot), segment.slice(dot + 1)];
  if (/^[*?]+$/.test(ext) && !GLOB_CHAR.test(stem)) return false;
  if (!GLOB_CHAR.test(ext)) return isSourceExtension(ext);
  let known = EXTENSION_PATTERNS.get(ext);
  if (known === undefined) {
    const fits = micromatch.matcher(ext, { nocase: true });
    known = SOURCE_EXTENSIONS.some((e) => fits(e));
    if (EXTENSION_PATTERNS.size < 256) EXTENSION_PATTERNS.set(ext, known);
  }
  return known;
}

/**
 * `rm src/*.ts`, `rm -f lib/*.py`, `rm *.go`, `rm src/*`: a non-recursive rm whose glob operand can match source
 * files outside build output and scratch directories. Named files (`rm src/old.ts`), logs, objects and output
 * (`rm *.log`, `rm -f *.o`, `rm dist/*.js`, `rm /tmp/*.py`) and an interactive `rm -i` are not.
 */
export function deletesSourceByGlob(v: CommandView): boolean {
  if (v.program !== 'rm' || hasFlag(v.args, 'rRi', ['--recursive', '--interactive'])) return false;
  let ended = false;
  return v.args.some((a, i) => {
    if (!ended && a === '--') {
      ended = true;
      return false;
    }
    if ((!ended && a.startsWith('-') && a.length > 1) || v.words[i + 1]?.glob !== true) return false;
    const segments = atBase(a, v.base)
      .split('/')
      .filter((s) => s !== '' && s !== '.');
    const last = segments.at(-1);
    if (last === undefined || !globMatchesSource(last)) return false;
    return (
      !disposablePath(segments) &&
      !segments.slice(0, -1).some((s) => SCRATCH_DIR.test(s)) &&
      !/^\/(var\/)?tmp\//.test(a)
    );
  });
}

/** Programs that print a list of files: their output in `rm $(…)` names what goes. */
const LISTERS = new Set([
  'find',
  'fd',
  'fdfind',
  'ls',
  'git',
  'cat',
  'grep',
  'rg',
  'ag',
  'locate',
  'xargs',
  'awk',
  'sed',
  'sort',
  'uniq',
  'head',
  'tail',
  'comm',
  'jq',
]);

/**
 * `rm $(find src -name '*.ts')`, `rm -f $(git ls-files '*.py')`, `rm $(cat files.txt)`: a delete of a list known only
 * when it runs, as `… | xargs rm` is. A find narrowed to one disposable name (`rm -f $(find . -name '*.pyc')`) is
 * cleanup, as `find … -delete` is.
 */
export function deletesSubstitutedList(v: CommandView): boolean {
  if (v.program !== 'rm' && v.program !== 'unlink' && v.program !== 'shred') return false;
  return v.words.slice(1).some((w) => {
    // Unquoted and the whole word: the output split into names. (`"$(…)"` is one name; `$(…)/x` a path built.)
    if (!w.inner?.programs.some((p) => LISTERS.has(p)) || !/^(\$\([\s\S]*\)|`[^`]*`)$/.test(w.source)) return false;
    const find = /^\$\(\s*find\s+([^()`$|;&<>]*)\)$/.exec(w.source)?.[1];
    return (
      find === undefined ||
      disposableFindNames(
        find
          .trim()
          .split(/\s+/)
          .map((a) => a.replace(/^(['"])(.*)\1$/, '$2')),
      ) === undefined
    );
  });
}

/**
 * Files nothing in the project makes again: environment files (`.env`, `.env.production`), private keys and
 * certificates (`*.pem`, `*.key`, `*.p12`, `id_rsa`), credentials (`credentials.json`, `config/master.key`,
 * `secrets.yaml`, `service-account.json`), Terraform state and databases (`db.sqlite3`, `app.db`). Not the templates committed beside them (`.env.example`, `.env.sample`) nor a test's
 * own scratch database or a tool's cache (`test.db`, `tmp.sqlite3`, `coverage.db`, `cache.sqlite`).
 */
const IRREPLACEABLE =
  /^(\.env(\.[^/]*|\*)?|\.envrc|[^/]*\.(pem|key|p12|pfx|jks|keystore|kdbx|tfstate|tfstate\.backup)|credentials([-_.][^/]*)?|secrets?\.(ya?ml|json|toml|env)|service[-_]?account[^/]*\.json|id_(rsa|ed25519|ecdsa|dsa)|[^/]*\.(db|sqlite3?|mdb))$/i;
const TEMPLATE =
  /\.(example|sample|template|dist|defaults?)$|(^|[-_.])(test|tests|tmp|temp|scratch|coverage|cache)([-_.]|$)/i;

/** `rm -f .env.production`, `rm config/master.key`, `unlink db.sqlite3`: the operands that name an irreplaceable file. */
export function irreplaceableDeletes(v: CommandView): string[] {
  if (v.program !== 'rm' && v.program !== 'unlink') return [];
  return operands(v.args).filter((p) => {
    const name = p.replace(/\/+$/, '').replace(/^.*\//, '');
    return (
      IRREPLACEABLE.test(name) &&
      !TEMPLATE.test(name) &&
      !disposablePath(
        atBase(p, v.base)
          .split('/')
          .filter((s) => s !== '' && s !== '.'),
      )
    );
  });
}

/** Extensions of tables, exports, databases and datasets: what a project's data is kept in (not made by a build). */
const DATA_EXTENSIONS = [
  'csv',
  'tsv',
  'parquet',
  'jsonl',
  'ndjson',
  'json',
  'xlsx',
  'xls',
  'ods',
  'db',
  'sqlite',
  'sqlite3',
  'mdb',
  'sql',
  'dump',
  'bak',
  'arrow',
  'feather',
  'avro',
  'orc',
  'h5',
  'hdf5',
  'npy',
  'npz',
  'pkl',
  'pickle',
  'xml',
  'yaml',
  'yml',
];
const isDataExtension = micromatch.matcher(`{${DATA_EXTENSIONS.join(',')}}`, { nocase: true });
/** Named files of these extensions are a dataset, not a config or a lock file a tool writes again (`rm package-lock.json`). */
const NAMED_DATA = /\.(csv|tsv|parquet|jsonl|ndjson|xlsx|xls|ods|db|sqlite3?|arrow|feather|avro|orc|h5|hdf5|npy|npz)$/i;
/** Directories a run writes its results into. */
const OUTPUT_DIRS =
  /^(out|output|outputs|results?|reports?|test-results|test-reports|playwright-report|junit|artifacts|tmp|temp|scratch|\.?cache)$/i;
/** Directories that hold a project's data, fixtures and backups. */
const DATA_DIRS =
  /^(data|datasets?|db|database|databases|backups?|fixtures|seeds?|storage|uploads|exports?|dumps?|snapshots)$/i;

/**
 * `rm -f data/*.csv`, `rm *.sqlite3`, `rm db/*.db`, `rm exports/users.csv`, `rm -f fixtures/*`: a non-recursive rm
 * of data files — a glob over data extensions, a file of a dataset's extension, or anything inside a data directory.
 * Logs, build output, scratch directories, `/tmp`, a test's or a cache's own file (`test.db`, `cache.sqlite`), and an
 * interactive `rm -i` are not.
 */
export function deletesDataFiles(v: CommandView): boolean {
  if ((v.program !== 'rm' && v.program !== 'unlink') || hasFlag(v.args, 'rRi', ['--recursive', '--interactive']))
    return false;
  let ended = false;
  return v.args.some((a, i) => {
    if (!ended && a === '--') {
      ended = true;
      return false;
    }
    if ((!ended && a.startsWith('-') && a.length > 1) || v.words[i + 1]?.dynamic) return false;
    const segments = atBase(a, v.base)
      .split('/')
      .filter((s) => s !== '' && s !== '.');
    const last = segments.at(-1);
    if (last === undefined || /^\/(var\/)?tmp\//.test(a) || segments.slice(0, -1).some((s) => SCRATCH_DIR.test(s)))
      return false;
    if (
      disposablePath(segments) ||
      TEMPLATE.test(last.replace(/\.[^.]*$/, '')) ||
      logFileName(last) ||
      segments.slice(0, -1).some((s) => /^(cache|caches|logs?|sessions)$/i.test(s))
    )
      return false;
    const glob = v.words[i + 1]?.glob === true;
    // (A database or an env file named alone is rm-irreplaceable's.)
    if (!glob && IRREPLACEABLE.test(last)) return false;
    const dot = last.lastIndexOf('.');
    const ext = dot > 0 ? last.slice(dot + 1) : '';
    // (A source file in one, `rm db/migrate/2024_add_users.rb`, is an edit git keeps, as elsewhere.)
    if (segments.slice(0, -1).some((s) => DATA_DIRS.test(s))) return ext === '' || !isSourceExtension(ext);
    // Reports and results a run writes (`rm -f test-results/*.xml`, `rm output/*.csv`) are made again by the next run.
    if (segments.slice(0, -1).some((s) => OUTPUT_DIRS.test(s))) return false;
    if (!glob) return NAMED_DATA.test(last);
    if (ext === '' || GLOB_CHAR.test(ext)) return false;
    // A glob over config-like extensions deletes data only at the project's top (`rm *.json` takes package.json).
    return NAMED_DATA.test(`x.${ext}`) || (isDataExtension(ext) && segments.length === 1);
  });
}
