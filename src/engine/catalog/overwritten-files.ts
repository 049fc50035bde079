// What a write over a file loses, judged by the file's name where the service cannot see the file (issue 26):
// `dd of=`, `truncate -s 0`, `: > file`. Where it can, the service's `realpath` tells whether the file is there.

/** Files that hold data rather than a build: tables, dumps, databases, exports, secrets, logs, settings. */
export const DATA_FILE =
  /\.(csv|tsv|jsonl?|ndjson|xlsx?|parquet|sql|dump|db|sqlite3?|bak|env|pem|key|log|txt|xml|ya?ml)$|(^|\/)\.env/i;

/**
 * Names a write makes rather than replaces: disk images, raw blobs, swap files and scratch test files
 * (`dd if=/dev/zero of=fixtures/blank.img`, `dd if=/dev/urandom of=/tmp/testfile bs=1M count=10`).
 */
const FRESH_EXTENSION = /\.(img|iso|bin|raw|dat|qcow2|vhdx?|vmdk|dmg|swap|part|tmp|temp)$/i;
const FRESH_NAME =
  /^(swapfile|[^.]*(test|random|rand|dummy|sample|blank|zeros?|sparse|scratch|junk|garbage|filler)[^.]*)(\.[^.]+)?$/i;

/** A file `dd of=` is taken to create when nothing tells whether it is there. */
export function freshFileName(path: string): boolean {
  const name = path.replace(/^.*\//, '');
  return (
    FRESH_EXTENSION.test(name) || (FRESH_NAME.test(name) && !DATA_FILE.test(name) && !/\.(db|sqlite3?)$/i.test(name))
  );
}

/** A log a program writes (`app.log`, `app.log.1`, `nohup.out`): emptying it loses nothing anyone keeps. */
export function logFileName(path: string): boolean {
  return /\.log(\.\d+)?$|(^|\/)nohup\.out$/i.test(path);
}

/**
 * A project's source file (`src/main.rs`, `lib/util.ts`, `Makefile`): emptying one loses the work in it (issue 26).
 * Not a package marker an empty write makes on purpose (`: > pkg/__init__.py`, `> .gitkeep`).
 */
const SOURCE_FILE =
  /\.(rs|ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyi|rb|go|java|kt|kts|scala|groovy|c|h|cc|cpp|cxx|hpp|cs|fs|swift|php|pl|pm|lua|sh|bash|zsh|ex|exs|erl|hs|ml|clj|dart|jl|vue|svelte|astro|proto|graphql|tf|css|scss|sass|less|html|ipynb|zig|sol|elm|md|mdx|rst|toml|ini|cfg|conf|lock|gradle|sln|csproj|prisma|hcl|tfvars|nix|erb|haml|slim|ejs|hbs|pug|twig|liquid|njk|j2|jinja2?|r|m|mm|fish|ps1|psm1|bat|cmd|bzl|cmake|gemspec|cabal|nim|v|xaml|cshtml|razor)$|(^|\/)(Makefile|Dockerfile|Gemfile|Rakefile|Procfile|Justfile|CMakeLists\.txt|go\.mod|go\.sum)$/;

/** A source file, taken to be there when nothing tells whether it is: emptying it is asked about, as a data file's is. */
export function sourceFileName(path: string): boolean {
  return SOURCE_FILE.test(path) && !/(^|\/)__init__\.py$/.test(path);
}

/** Directories that hold a project's data (`data/users.csv`, `db/seeds.sql`, `backups/x`). */
const DATA_DIR = /(^|\/)(data|db|database|databases|backups?|fixtures|seeds?|storage|uploads|exports?|dumps?)\//i;

/** A file that is taken to hold data when nothing tells whether it is there: its extension or its directory says so. */
export function dataFileName(path: string): boolean {
  return (DATA_FILE.test(path) && !logFileName(path)) || DATA_DIR.test(path);
}
