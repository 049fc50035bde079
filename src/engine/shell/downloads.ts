// Remembers the files a script downloads (curl -o, wget -O), so that running them later is recognised.
import type { CommandView } from './view.ts';
import { optionValue } from '../catalog/flags.ts';
import { DOWNLOADERS } from '../catalog/programs.ts';
import { EXTRACTED } from '../catalog/danger-exec.ts';

/** Unpackers: fed a download on stdin, they put its files here. */
const UNPACK = /^(tar|bsdtar|unzip|cpio|gunzip|bunzip2|unxz|7z|busybox)$/;

const URL = /^[a-z][a-z0-9+.-]*:\/\/[^\s]+/i;

/** Adds the files this command downloads to `downloads` (paths as written, without a leading `./`). */
export function recordDownloads(view: CommandView, downloads: Set<string>): void {
  const { program, args } = view;
  if (UNPACK.test(program) && view.stdin?.kind === 'pipe' && view.stdin.upstream.some((p) => DOWNLOADERS.has(p))) downloads.add(EXTRACTED);
  if (program !== 'curl' && program !== 'wget' && program !== 'aria2c' && program !== 'fetch') return;
  const named = program === 'wget' ? optionValue(args, ['-O', '--output-document']) : optionValue(args, ['-o', '--output', '--out']);
  const add = (p: string): void => { downloads.add(p.replace(/^\.\//, '')); };
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
