// Remembers the files a script downloads (curl -o, wget -O, curl > file, | tee file, their copies, an unpacked
// download or a fresh git clone), so that running them later is recognised.
import type { CommandView } from './view.ts';
import { optionValue } from '../catalog/flags.ts';
import { DOWNLOADERS } from '../catalog/programs.ts';
import { EXTRACTED } from '../catalog/danger-exec.ts';
import { gitCommand } from '../catalog/danger-git.ts';

/** Unpackers: fed a download on stdin, they put its files here. */
const UNPACK = /^(tar|bsdtar|unzip|cpio|gunzip|bunzip2|unxz|7z|busybox)$/;

const URL = /^[a-z][a-z0-9+.-]*:\/\/[^\s]+/i;

/** Adds the files this command downloads to `downloads` (paths as written, without a leading `./`). */
export function recordDownloads(view: CommandView, downloads: Set<string>): void {
  const { program, args } = view;
  const add = (p: string): void => { downloads.add(p.replace(/^\.\//, '')); };
  const fromDownload = view.stdin?.kind === 'pipe' && view.stdin.upstream.some((p) => DOWNLOADERS.has(p));
  // `curl -LO …/t.tgz && tar xzf t.tgz`: what a download unpacks is downloaded too — below the directory it is
  // unpacked into (`-C vendor/`, unzip's `-d out`), or anywhere here when it names none.
  if (UNPACK.test(program) && (fromDownload || args.some((a) => !a.startsWith('-') && downloads.has(a.replace(/^\.\//, ''))))) {
    const into = optionValue(args, ['-C', '--directory', '-d']);
    downloads.add(into === undefined ? EXTRACTED : `${into.replace(/^\.\//, '').replace(/\/+$/, '')}/`);
  }
  // `git clone URL && cd repo && ./install.sh`: the files of a fresh clone came from the network as well (the
  // directory it names, or the repository's name).
  const git = program === 'git' ? gitCommand(args) : undefined;
  if (git?.[0] === 'clone') {
    const operands = git.slice(1).filter((a) => !a.startsWith('-'));
    const dir = operands[1] ?? operands[0]?.replace(/\/+$/, '').replace(/\.git$/, '').replace(/^.*[/:]/, '');
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
  if (program !== 'curl' && program !== 'wget' && program !== 'aria2c' && program !== 'fetch') return;
  const named = program === 'wget' ? optionValue(args, ['-O', '--output-document']) : optionValue(args, ['-o', '--output', '--out']);
  // Written to stdout (curl's default, `wget -O -`) and redirected into a file: `curl URL > x.sh`.
  const toStdout = named === '-' || (named === undefined && program === 'curl') || (program === 'wget' && args.some((a, i) => /^-[a-zA-Z]*O-$/.test(a) || (/^-[a-zA-Z]*O$/.test(a) && args[i + 1] === '-')));
  if (toStdout) {
    for (const r of view.redirects) if (r.write && (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>') && r.target && !r.target.dynamic) add(r.target.value);
  }
  if (named !== undefined && named !== '-') { add(named); return; }
  const remoteName = program === 'wget' || program === 'aria2c' || args.some((a) => a === '-O' || a === '--remote-name' || /^-[a-zA-Z]*O$/.test(a));
  if (!remoteName) return;
  const dir = program === 'wget' ? optionValue(args, ['-P', '--directory-prefix']) : undefined;
  for (const a of args) {
    if (!URL.test(a)) continue;
    const name = a.replace(/[?#].*$/, '').replace(/\/+$/, '').replace(/^.*\//, '');
    if (name) add(dir ? `${dir.replace(/\/+$/, '')}/${name}` : name);
  }
}

