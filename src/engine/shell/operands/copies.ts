// Operands of copies, archives, images, backups and uploads: what each reads as a whole tree (`cp -r`, `tar c`,
// `zip -r`, `restic backup`, `aws s3 sync` …), which operand is only written (the destination, the archive) and the
// file lists they read from stdin.
import type { Word } from '../word.ts';
import { expandTilde } from '../template.ts';
import { allButLast, hasShort, stdinLines, type OperandEntry, type TreeRead } from './support.ts';

/** tar's options whose value is no input tree (the archive written, a pattern, a list file). */
const TAR_OPTION_VALUES = new Set([
  '-f',
  '--file',
  '-C',
  '--directory',
  '-T',
  '--files-from',
  '-X',
  '--exclude-from',
  '--exclude',
  '-I',
  '--use-compress-program',
  '-g',
  '--listed-incremental',
  '-V',
  '--label',
]);
/** zip's options whose value is no input tree. */
const ZIP_OPTION_VALUES = new Set(['-x', '-i', '-b', '-n', '-P', '-t', '-tt', '-TT', '-O', '--out']);

/**
 * tar's input trees: its non-option words, less the archive written (`tar czf "$OUT" dist`: `-czf FILE`, the
 * old-style `czf FILE`) and the values of its other options.
 */
function tarOperands(rest: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!.value;
    if (a.startsWith('-')) {
      // `-czf FILE`, tar's old-style `czf FILE`: a cluster ending in f takes the archive's name.
      if (TAR_OPTION_VALUES.has(a) || (/^-?[a-zA-Z]*f$/.test(a) && !a.startsWith('--'))) i++;
      continue;
    }
    if (i === 0 && /^[a-zA-Z]*[ctrux][a-zA-Z]*$/.test(a)) {
      if (a.endsWith('f')) i++;
      continue;
    }
    out.push(rest[i]!);
  }
  return out;
}

/** zip's input trees: its operands less the zip file written (the first) and its options' values. */
function zipOperands(rest: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!.value;
    if (a.startsWith('-')) {
      if (ZIP_OPTION_VALUES.has(a)) i++;
      continue;
    }
    out.push(rest[i]!);
  }
  return out.slice(1);
}

/**
 * tar's members with the directory they are read from: a relative member after `-C DIR` (`--directory DIR`,
 * `-CDIR`, `--directory=DIR`) is DIR's (`tar czf x.tgz -C ~ .config/app` reads ~/.config/app, not ~).
 */
function tarMembers(rest: Word[], members: Word[], home: string): TreeRead[] {
  const out: TreeRead[] = [];
  let dir: string | undefined;
  const wanted = new Set(members);
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    const v = word.value;
    if (v === '-C' || v === '--directory')
      dir = rest[++i] ? expandTilde(rest[i]!.template, home).replace(/\/+$/, '') : dir;
    else if (/^-C./.test(v)) dir = expandTilde(word.template.slice(2), home).replace(/\/+$/, '');
    else if (v.startsWith('--directory='))
      dir = expandTilde(word.template.slice('--directory='.length), home).replace(/\/+$/, '');
    else if (wanted.has(word)) {
      out.push({
        word,
        template: dir === undefined || /^[/~]/.test(word.template) ? word.template : `${dir}/${word.template}`,
      });
    }
  }
  return out;
}

/** The sources of a copy: every operand but the destination, which is only written (`cp -r src ~/`, `scp -r d host:`). */
function copySources(_rest: Word[], operands: Word[]): TreeRead[] {
  return allButLast(operands).map((word) => ({ word, template: word.template }));
}

/** cp's sources: with `-t DIR` / `--target-directory=DIR` every operand but DIR is a source. */
function cpSources(rest: Word[], operands: Word[]): TreeRead[] {
  const target = rest.findIndex((w) => w.value === '-t' || w.value === '--target-directory');
  const sources =
    target >= 0
      ? operands.filter((w) => w !== rest[target + 1])
      : rest.some((w) => w.value.startsWith('--target-directory=') || /^-t./.test(w.value))
        ? operands
        : allButLast(operands);
  return sources.map((word) => ({ word, template: word.template }));
}

const always = () => true;

export const COPY_ENTRIES: OperandEntry[] = [
  {
    programs: ['cp'],
    readsTree: (args) => hasShort(args, /[rRa]/) || args.includes('--recursive') || args.includes('--archive'),
    treeReads: cpSources,
  },
  {
    programs: ['scp'],
    readsTree: (args) => hasShort(args, /[rRa]/) || args.includes('--recursive') || args.includes('--archive'),
    treeReads: copySources,
  },
  {
    programs: ['rsync'],
    readsTree: (args) => hasShort(args, /[ra]/) || args.includes('--recursive') || args.includes('--archive'),
    treeReads: copySources,
    // `rsync --files-from=-`: the paths come from stdin.
    textPaths: (view) => (view.args.some((a) => a === '--files-from=-') ? stdinLines(view) : []),
  },
  {
    programs: ['tar', 'bsdtar'],
    directory: 'members',
    readsTree: (args) =>
      args.some((a) => /^-?[a-zA-Z]*[cru][a-zA-Z]*$/.test(a) && !a.startsWith('--')) ||
      args.includes('--create') ||
      args.includes('--append') ||
      args.includes('--update'),
    treeOperands: tarOperands,
    treeReads: tarMembers,
    // `tar -T -` / `--files-from=-`: the member list comes from stdin.
    textPaths: (view) => {
      const { args } = view;
      const fromStdin = args.some(
        (a, i) =>
          (a === '-T' && args[i + 1] === '-') ||
          a === '--files-from=-' ||
          (a === '--files-from' && args[i + 1] === '-'),
      );
      return fromStdin ? stdinLines(view) : [];
    },
  },
  {
    programs: ['zip'],
    readsTree: (args) => hasShort(args, /r/) || args.includes('--recurse-paths'),
    treeOperands: zipOperands,
    // `zip -@`: the file list comes from stdin.
    textPaths: (view) => (view.args.includes('-@') ? stdinLines(view) : []),
  },
  // `cpio -o`: the file list comes from stdin.
  {
    programs: ['cpio'],
    textPaths: (view) => (view.args.some((a) => /^-[a-zA-Z]*o/.test(a) || a === '--create') ? stdinLines(view) : []),
  },
  { programs: ['7z', '7za'], readsTree: (args) => args[0] === 'a' },
  // Archives, images and backups of whole trees; uploads of whole trees to storage.
  { programs: ['pax'], readsTree: (args) => args.includes('-w') },
  { programs: ['mksquashfs', 'genisoimage', 'mkisofs', 'xorriso'], readsTree: always },
  { programs: ['borg'], readsTree: (args) => args.includes('create') },
  { programs: ['restic'], readsTree: (args) => args.includes('backup') },
  { programs: ['duplicity', 'rdiff-backup'], readsTree: always },
  { programs: ['rclone'], readsTree: (args) => args.some((a) => /^(sync|copy|move|copyto|bisync)$/.test(a)) },
  {
    programs: ['aws'],
    readsTree: (args) =>
      args[0] === 's3' && (args[1] === 'sync' || (/^(cp|mv)$/.test(args[1] ?? '') && args.includes('--recursive'))),
  },
  { programs: ['gsutil'], readsTree: (args) => args.some((a) => a === 'rsync' || a === '-r' || a === '-R') },
  {
    programs: ['azcopy'],
    readsTree: (args) => args.includes('--recursive') || args.some((a) => a.startsWith('--recursive=')),
  },
  {
    programs: ['s3cmd'],
    readsTree: (args) =>
      args.includes('sync') || (args.includes('put') && hasShort(args, /r/)) || args.includes('--recursive'),
  },
  {
    programs: ['mc'],
    readsTree: (args) =>
      args.includes('mirror') || (args.includes('cp') && (hasShort(args, /r/) || args.includes('--recursive'))),
  },
];
