// What a danger matcher sees of one simple command: its argv, wrappers, redirects, stdin and script state.
import type { Word } from './word.ts';

/** One resolved redirection. */
export interface Redirect {
  /** The operator as written (`>`, `>>`, `<`, `&>`, `<<`, `<<<`, …). */
  op: string;
  /** The target file (for heredocs and here-strings: absent). */
  target?: Word;
  /** True for output redirections (the target is written). */
  write: boolean;
  /** The descriptor written or read when the redirection names one (`2>` → `2`); absent means stdout or stdin. */
  fd?: string;
}

/** Whether a redirection sends the command's stdout to a file (not to the terminal: `/dev/stdout`, `/dev/tty`, `>&2`). */
export function stdoutToFile(r: Redirect): boolean {
  if (!r.write || (r.fd !== undefined && r.fd !== '1') || r.op === '>&' || !r.target) return false;
  return !/^\/dev\/(stdout|stderr|tty|fd\/[12])$/.test(r.target.value);
}

/** Where a command's standard input comes from, when the script says so. */
export interface Stdin {
  kind: 'pipe' | 'heredoc' | 'herestring';
  /** Programs earlier in the pipeline (for `pipe`). */
  upstream: string[];
  /** The text, when statically known (here-doc bodies, here-strings, evaluable pipelines). */
  text?: string;
  /** Part of the text is only known at run time (`<<< "$(curl …)"`). */
  dynamic?: boolean;
  /** The roots of a find whose file list this is (`find ~/projects -type d | …`), as resolved words' values. */
  listing?: string[];
  /** That find's arguments (`find . -name '*.pyc' | xargs rm`: what it lists decides whether the delete is cleanup). */
  listedBy?: string[];
}

/** The command as the catalogue judges it. */
export interface CommandView {
  /** The effective argv (wrappers peeled), resolved. */
  argv: string[];
  /** Same, as words (templates, dynamic flags, substitutions inside). */
  words: Word[];
  /** Basename of argv[0]; for a bare wrapper (`sudo -i`) the wrapper itself. */
  program: string;
  /** argv without the program. */
  args: string[];
  wrappers: string[];
  redirects: Redirect[];
  stdin?: Stdin;
  /** The directory the command runs in when the script moved there (`cd /etc`, `env -C dir`): absolute, or relative to the call's cwd. */
  base?: string;
  /** Source text of the simple command (findings point at it). */
  text: string;
  home: string;
  /** Files the script downloaded earlier (curl -o, wget -O), as resolved paths. */
  downloads: ReadonlySet<string>;
  /** Files the script wrote earlier with known contents (`cat > x.sh <<'EOF' …`), paths as written without `./`. */
  written: ReadonlyMap<string, string>;
  /** Files the script wrote a secret into earlier (`echo "$GITHUB_TOKEN" > /tmp/t`), paths as written without `./`. */
  secretFiles?: ReadonlySet<string>;
  /** Variables the script set earlier with known values (`export RAILS_ENV=production && …`), when it set any. */
  vars?: ReadonlyMap<string, string | undefined>;
  /** Git remotes the script pointed at a URL earlier (`git remote add x URL`): a push to one goes somewhere new. */
  addedRemotes?: ReadonlySet<string>;
}

/** A path as seen from where the command runs: a relative one joined to the directory the script moved to (`cd /etc && … passwd`). */
export function atBase(path: string, base: string | undefined): string {
  return base === undefined || path === '' || /^[/~$]/.test(path) ? path : `${base.replace(/\/+$/, '')}/${path}`;
}

/** The resolved write targets of the redirections. */
export function redirectWrites(view: CommandView): string[] {
  if (view.redirects.length === 0) return [];
  return view.redirects.filter((r) => r.write && r.target).map((r) => r.target!.value);
}

/**
 * What a file this command line wrote with known contents holds (`echo … > f`, `cat > f <<'EOF'`), by the path a
 * later command names it with (`./f` is `f`); undefined for a path known only at run time or not written here.
 */
export function writtenContents(
  written: ReadonlyMap<string, string>,
  path: Word | string | undefined,
): string | undefined {
  if (path === undefined || (typeof path !== 'string' && path.dynamic)) return undefined;
  return written.get((typeof path === 'string' ? path : path.value).replace(/^\.\//, ''));
}
