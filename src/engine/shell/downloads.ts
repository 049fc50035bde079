// Remembers the files a script downloads (curl -o, wget -O, curl > file, | tee file, their copies, an unpacked
// download or a fresh git clone), so that running them later is recognised.
import { stdoutToFile, type CommandView } from './view.ts';
import { operands, optionValue } from '../catalog/flags.ts';
import { disposablePath } from '../catalog/disposable-output.ts';
import { DOWNLOADERS } from '../catalog/programs.ts';
import { EXTRACTED } from '../catalog/danger-exec.ts';
import { gitCommand } from '../catalog/danger-git.ts';
import { inlineCode, savedDownloads } from '../catalog/inline-code.ts';

/** Unpackers: fed a download on stdin, they put its files here. */
const UNPACK = /^(tar|bsdtar|unzip|cpio|gunzip|bunzip2|unxz|7z|busybox)$/;

const URL = /^[a-z][a-z0-9+.-]*:\/\/[^\s]+/i;

/** Adds the files this command downloads to `downloads` (paths as written, without a leading `./`). */
export function recordDownloads(view: CommandView, downloads: Set<string>): void {
  const { program, args } = view;
  const add = (p: string): void => {
    downloads.add(p.replace(/^\.\//, ''));
  };
  recordArchives(view, downloads);
  // `php -r "copy('https://x/i', 'setup.php');"`, `python3 -c "urlretrieve(u, 'i.sh')"`: inline code saving a download.
  for (const file of inlineDownloads(view)) add(file);
  const fromDownload = view.stdin?.kind === 'pipe' && view.stdin.upstream.some((p) => DOWNLOADERS.has(p));
  // `curl -LO …/t.tgz && tar xzf t.tgz`: what a download unpacks is downloaded too — below the directory it is
  // unpacked into (`-C vendor/`, unzip's `-d out`), or anywhere here when it names none.
  if (
    UNPACK.test(program) &&
    (fromDownload || args.some((a) => !a.startsWith('-') && downloads.has(a.replace(/^\.\//, ''))))
  ) {
    const into = optionValue(args, ['-C', '--directory', '-d']);
    downloads.add(into === undefined ? EXTRACTED : `${into.replace(/^\.\//, '').replace(/\/+$/, '')}/`);
  }
  // `git clone URL && cd repo && ./install.sh`: the files of a fresh clone came from the network as well (the
  // directory it names, or the repository's name).
  const git = program === 'git' ? gitCommand(args) : undefined;
  if (git?.[0] === 'clone') {
    const operands = git.slice(1).filter((a) => !a.startsWith('-'));
    const dir =
      operands[1] ??
      operands[0]
        ?.replace(/\/+$/, '')
        .replace(/\.git$/, '')
        .replace(/^.*[/:]/, '');
    downloads.add(dir ? `${dir.replace(/^\.\//, '').replace(/\/+$/, '')}/` : EXTRACTED);
  }
  // `curl URL | tee x.sh`: tee writes the download to its files.
  if (program === 'tee' && fromDownload) for (const a of args) if (!a.startsWith('-')) add(a);
  // `mv r r.sh`, `cp r /tmp/rr`: a downloaded file under another name is still the download.
  if ((program === 'mv' || program === 'cp') && args.length >= 2) {
    const operands = args.filter((a) => !a.startsWith('-'));
    const target = operands.at(-1);
    if (target !== undefined && operands.slice(0, -1).some((a) => downloads.has(a.replace(/^\.\//, '')))) add(target);
  }
  for (const file of copiedFromRemote(view)) add(file);
  if (program !== 'curl' && program !== 'wget' && program !== 'aria2c' && program !== 'fetch') return;
  const named =
    program === 'wget'
      ? optionValue(args, ['-O', '--output-document'])
      : optionValue(args, ['-o', '--output', '--out']);
  // Written to stdout (curl's default, `wget -O -`) and redirected into a file: `curl URL > x.sh`.
  const toStdout =
    named === '-' ||
    (named === undefined && program === 'curl') ||
    (program === 'wget' &&
      args.some((a, i) => /^-[a-zA-Z]*O-$/.test(a) || (/^-[a-zA-Z]*O$/.test(a) && args[i + 1] === '-')));
  if (toStdout) {
    for (const r of view.redirects)
      if (r.write && (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>') && r.target && !r.target.dynamic)
        add(r.target.value);
  }
  if (named !== undefined && named !== '-') {
    add(named);
    return;
  }
  const remoteName =
    program === 'wget' ||
    program === 'aria2c' ||
    args.some((a) => a === '-O' || a === '--remote-name' || /^-[a-zA-Z]*O$/.test(a));
  if (!remoteName) return;
  const dir = program === 'wget' ? optionValue(args, ['-P', '--directory-prefix']) : undefined;
  for (const a of args) {
    if (!URL.test(a)) continue;
    const name = a
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .replace(/^.*\//, '');
    if (name) add(dir ? `${dir.replace(/\/+$/, '')}/${name}` : name);
  }
}

/** The files the command's inline code saves a download to (`php -r "copy(URL, 'setup.php')"`). */
function inlineDownloads(view: CommandView): string[] {
  return inlineCode(view).flatMap(savedDownloads);
}

/** Files this command line packed the project or its data into (`zip -r /tmp/p.zip .`, `git bundle create r.bundle --all`), per walk. */
const ARCHIVES = new WeakMap<ReadonlySet<string>, Set<string>>();
const ARCHIVERS =
  /^(tar|bsdtar|zip|7z|7za|7zz|rar|pg_dump|pg_dumpall|mysqldump|mongodump|sqlite3|gzip|xz|zstd|bzip2|cpio)$/;

/** Whether `path` is a file this command line packed the project or its data into earlier: sending it sends them. */
export function madeFromProject(view: CommandView, path: string): boolean {
  return ARCHIVES.get(view.downloads)?.has(path.replace(/^\.\//, '')) === true;
}

/** Remembers the archives and dumps a command writes: its output file or the file its stdout goes to. */
function recordArchives(view: CommandView, downloads: ReadonlySet<string>): void {
  const { program, args } = view;
  const files: string[] = [];
  const git = program === 'git' ? gitCommand(args) : undefined;
  if (git?.[0] === 'bundle' && git[1] === 'create' && git[2] !== undefined)
    files.push(git.slice(2).find((a) => !a.startsWith('-')) ?? '');
  else if (git?.[0] === 'archive') files.push(optionValue(git, ['-o', '--output']) ?? '');
  else if (program === 'tar' || program === 'bsdtar')
    files.push(
      optionValue(args, ['-f', '--file']) ?? (/^[a-zA-Z]*c[a-zA-Z]*f$/.test(args[0] ?? '') ? (args[1] ?? '') : ''),
    );
  else if (program === 'zip' || /^7z/.test(program) || program === 'rar')
    files.push(args.filter((a) => !a.startsWith('-')).at(/^(7z|rar)/.test(program) ? 1 : 0) ?? '');
  else if (/^(pg_dump|pg_dumpall|mysqldump|mongodump)$/.test(program))
    files.push(optionValue(args, ['-f', '--file', '--result-file', '-r', '--out', '-o', '--archive']) ?? '');
  if (ARCHIVERS.test(program) || git?.[0] === 'archive' || git?.[0] === 'bundle') {
    for (const r of view.redirects)
      if (
        r.write &&
        (r.op === '>' || r.op === '>>' || r.op === '>|') &&
        r.target &&
        !r.target.dynamic &&
        r.fd === undefined
      )
        files.push(r.target.value);
  }
  const made = files.filter((f) => f !== '' && f !== '-');
  if (made.length === 0 || packsOnlyBuildOutput(program, args, made)) return;
  let set = ARCHIVES.get(downloads);
  if (!set) ARCHIVES.set(downloads, (set = new Set()));
  for (const f of made) if (set.size < 256) set.add(f.replace(/^\.\//, ''));
}

/** tar's and zip's options that take a value, besides the archive (`-C dir`, `-x pattern`). */
const PACK_WITH_ARG = [
  '-C',
  '--directory',
  '-f',
  '--file',
  '-T',
  '--files-from',
  '-X',
  '--exclude-from',
  '-x',
  '-i',
  '-b',
  '-n',
  '-t',
  '-tt',
  '--exclude',
];

/** `tar czf build/app.tgz -C build app`, `zip -r dist/site.zip dist`: an archive of build output is a release, not the project. */
function packsOnlyBuildOutput(program: string, args: readonly string[], made: readonly string[]): boolean {
  if (!/^(tar|bsdtar|zip)$/.test(program)) return false;
  const dir = optionValue([...args], ['-C', '--directory']);
  const cluster = program !== 'zip' && /^[a-zA-Z]*f$/.test(args[0] ?? '') ? 2 : 0;
  const inputs = operands([...args.slice(cluster)], PACK_WITH_ARG).filter(
    (a) => !made.includes(a) && !/^[a-zA-Z]*c[a-zA-Z]*$/.test(a),
  );
  const segments = (p: string): string[] =>
    (dir === undefined ? p : `${dir}/${p}`).split('/').filter((x) => x !== '' && x !== '.');
  return inputs.length > 0 && inputs.every((i) => disposablePath(segments(i)));
}

/** A remote operand of scp/rsync (`host:path`, `user@host:path`), or a bucket object (`s3://b/k`, `gs://b/k`). */
const REMOTE_SOURCE =
  /^(?:[\w.-]+@)?(?!localhost:|127\.0\.0\.1:)[\w.-]{2,}:(?!\/\/)|^(?:s3|gs|az|r2|b2|rsync|scp|sftp):\/\//;

/**
 * The files a copy from another host or a bucket, or another HTTP client, puts here: `scp host:x.sh .`, `rsync
 * host:x.sh /tmp/`, `aws s3 cp s3://b/i.sh .`, `gsutil cp gs://b/i.sh /tmp/i.sh`, `http -d URL -o f`, `xh URL > f`,
 * `lwp-download URL f`, `GET URL > f`, `gh release download -p tool`.
 */
function copiedFromRemote(view: CommandView): string[] {
  const { program, args } = view;
  const ops = args.filter((a) => !a.startsWith('-'));
  const into = (dest: string, src: string): string => {
    const name = src
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .replace(/^.*[/:]/, '');
    return /^\.?\/?$|\/$/.test(dest)
      ? `${dest.replace(/^\.\/?$/, '').replace(/\/?$/, dest === '.' || dest === './' ? '' : '/')}${name}`
      : dest;
  };
  const toStdout = (): string[] =>
    view.redirects.filter((r) => stdoutToFile(r) && r.target && !r.target.dynamic).map((r) => r.target!.value);
  switch (program) {
    case 'scp':
    case 'rsync': {
      const named = operands(
        [...args],
        ['-P', '-i', '-o', '-F', '-c', '-l', '-S', '-J', '-e', '--rsh', '--exclude', '--include', '--port'],
      );
      const dest = named.at(-1);
      const sources = named.slice(0, -1);
      return dest === undefined || REMOTE_SOURCE.test(dest) || !sources.some((s) => REMOTE_SOURCE.test(s))
        ? []
        : sources.map((s) => into(dest, s));
    }
    case 'aws':
    case 'gsutil':
    case 'gcloud':
    case 'rclone':
    case 's3cmd':
    case 'mc': {
      const at = ops.findIndex((x) => /^(cp|copy|copyto|get|sync)$/.test(x));
      const rest = at < 0 ? [] : ops.slice(at + 1);
      const dest = rest.at(-1);
      return dest === undefined ||
        rest.length < 2 ||
        REMOTE_SOURCE.test(dest) ||
        (program === 'rclone' && /^[\w-]+:/.test(dest))
        ? []
        : rest.slice(0, -1).map((s) => into(dest, s));
    }
    case 'http':
    case 'https':
    case 'xh':
    case 'xhs':
    case 'GET':
    case 'lwp-request': {
      const named = optionValue([...args], ['-o', '--output']);
      return named !== undefined ? [named] : toStdout();
    }
    case 'lwp-download':
      return ops[1] !== undefined ? [ops[1]] : ops[0] !== undefined ? [into('.', ops[0])] : [];
    case 'gh': {
      if (ops[0] !== 'release' || ops[1] !== 'download') return [];
      const named = optionValue([...args], ['-O', '--output']);
      if (named !== undefined) return named === '-' ? toStdout() : [named];
      const dir = optionValue([...args], ['-D', '--dir']);
      return args.flatMap((a, i) =>
        /^(-p|--pattern)$/.test(args[i - 1] ?? '') && !/[*?[]/.test(a)
          ? [dir ? `${dir.replace(/\/+$/, '')}/${a}` : a]
          : [],
      );
    }
    default:
      return [];
  }
}
