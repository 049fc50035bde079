// The tests the file entries (danger-files.ts, danger-files-control.ts) use: recursive and forced rm flags, disk and
// volume tools that erase, chmod and install modes, the files a command empties, and history variables that stop it.
import type { CommandView } from '../shell/view.ts';
import { atBase, stdoutToFile } from '../shell/view.ts';
import { hasFlag, operands, optionValue } from './flags.ts';
import { logFileName } from './overwritten-files.ts';
import { sedScripts } from './sed-script.ts';
import { isKernelControl, isSystemPath } from './sensitive-targets.ts';

export const RECURSIVE = ['--recursive'];
const FORCE = ['--force'];
export const RECURSIVE_RM = (args: string[]): boolean => hasFlag(args, 'rR', RECURSIVE);
export const FORCE_RM = (args: string[]): boolean => hasFlag(args, 'f', FORCE);
/** `/`, or inside a system directory. */
export const isSystemOrRoot = (p: string): boolean => isSystemPath(p) || /^\/+$/.test(p);

/**
 * A history variable set so that nothing is recorded: no history file (`HISTFILE` unset, empty or `/dev/null`),
 * no lines kept (`HISTSIZE`, `HISTFILESIZE`, zsh's `SAVEHIST` of 0), or every line ignored (`HISTIGNORE='*'`).
 */
export function stopsHistory(name: string, value: string | undefined): boolean {
  switch (name) {
    case 'HISTFILE':
      return value === undefined || value === '' || value === '/dev/null';
    case 'HISTSIZE':
    case 'HISTFILESIZE':
    case 'SAVEHIST':
      return value !== undefined && /^0+$/.test(value.trim());
    case 'HISTIGNORE':
      return value !== undefined && value.split(':').includes('*');
    default:
      return false;
  }
}
export const writesSystem = (p: string): boolean => isSystemOrRoot(p) && !isKernelControl(p);

export const DISK_TOOLS =
  /^(mkfs(\..+)?|mke2fs|mkswap|mkntfs|mkdosfs|mkexfatfs|wipefs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|blkdiscard|zpool|badblocks)$/;

/** `fdisk -l`, `sfdisk -l`, `gdisk -l`, `sgdisk -p`, `parted -l` / `parted DISK print`, `zpool status|list|iostat`, `wipefs DISK` (no -a): they only print. */
export function onlyListsDisks(v: CommandView): boolean {
  const ops = v.args.filter((a) => !a.startsWith('-'));
  switch (v.program) {
    case 'fdisk':
    case 'sfdisk':
    case 'gdisk':
    case 'cfdisk':
      return v.args.some(
        (a) =>
          a === '-l' ||
          a === '--list' ||
          a === '-s' ||
          a === '--show-size' ||
          a === '-d' ||
          a === '--dump' ||
          a === '-V' ||
          a === '--verify',
      );
    case 'sgdisk':
      return (
        v.args.length > 0 &&
        v.args.every((a) => /^(-p|--print|-i|--info(=\d+)?|-v|--verify|-O|--print-mbr)$/.test(a) || !a.startsWith('-'))
      );
    case 'parted':
      return v.args.some((a) => a === '-l' || a === '--list') || (ops.length === 2 && ops[1] === 'print');
    case 'zpool':
      return /^(status|list|iostat|history|get|events)$/.test(ops[0] ?? '');
    case 'wipefs':
      return !v.args.some((a) => /^-[a-zA-Z]*a/.test(a) || a === '--all' || a === '-o' || a.startsWith('--offset'));
    case 'badblocks':
      return !v.args.some((a) => /^-[a-zA-Z]*[wn]/.test(a));
    default:
      return false;
  }
}

const VOLUME_TOOLS = new Set([
  'cryptsetup',
  'nvme',
  'lvremove',
  'vgremove',
  'pvremove',
  'zfs',
  'btrfs',
  'mdadm',
  'hdparm',
  'diskutil',
  'fallocate',
]);

/**
 * Subcommands of volume and disk tools that erase or destroy: `cryptsetup luksFormat`, `nvme format`, `lvremove`,
 * `zfs destroy`, `btrfs subvolume delete`, `mdadm --zero-superblock`, `hdparm --security-erase`, `diskutil eraseDisk`.
 */
export function destroysVolume(v: CommandView): boolean {
  if (!VOLUME_TOOLS.has(v.program)) return false; // every command reaches this entry: most leave here
  const ops = v.args.filter((a) => !a.startsWith('-'));
  switch (v.program) {
    case 'cryptsetup':
      return /^(luksFormat|erase|luksErase|reencrypt)$/.test(ops[0] ?? '');
    case 'nvme':
      return /^(format|sanitize)$/.test(ops[0] ?? '');
    case 'lvremove':
    case 'vgremove':
    case 'pvremove':
      return true;
    case 'zfs':
      return ops[0] === 'destroy' || ops[0] === 'rollback';
    case 'btrfs':
      return ops.includes('delete') && /^(subvolume|sub|device)$/.test(ops[0] ?? '');
    case 'mdadm':
      return v.args.some((a) => a === '--zero-superblock' || a === '--create' || a === '-C');
    case 'hdparm':
      return v.args.some((a) =>
        /^--(security-erase|security-erase-enhanced|trim-sector-ranges|write-sector|make-bad-sector)/.test(a),
      );
    case 'diskutil':
      return (
        /^(erase|eraseDisk|eraseVolume|zeroDisk|randomDisk|secureErase|partitionDisk|reformat)$/.test(ops[0] ?? '') ||
        (ops[0] === 'apfs' && /^delete/.test(ops[1] ?? ''))
      );
    case 'fallocate':
      return (
        v.args.some((a) => /^(-p|--punch-hole|-z|--zero-range|-c|--collapse-range)$/.test(a)) &&
        ops.some((o) => o.startsWith('/dev/'))
      );
    default:
      return false;
  }
}

/** The mode `install -m 755 …` / `--mode=u+x` gives what it copies, and what it grants (undefined without -m or with -d). */
export function installMode(args: string[]): ReturnType<typeof chmodMode> {
  if (args.some((a) => a === '-d' || a === '--directory' || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(a))) return undefined;
  const at = args.findIndex((a) => a === '-m' || a === '--mode' || a.startsWith('--mode=') || /^-m\S/.test(a));
  if (at < 0) return undefined;
  const a = args[at]!;
  const mode = a === '-m' || a === '--mode' ? args[at + 1] : a.startsWith('--mode=') ? a.slice(7) : a.slice(2);
  return mode === undefined ? undefined : chmodMode([mode]);
}

/** `install -m 755 …`: a copy whose mode lets it run. */
export const installMakesExecutable = (args: string[]): boolean => installMode(args)?.exec === true;

/** A chmod mode (numeric or symbolic) and what it grants. */
export function chmodMode(args: string[]): { exec: boolean; worldWritable: boolean; setid: boolean } | undefined {
  const mode = operands(args, ['--reference'])[0];
  if (mode === undefined) return undefined;
  // Octal, with leading zeros (`04777`) or an operator (`=4755`, `+4000`; `-` only takes bits away).
  const octal = /^([-+=]?)0*([0-7]{1,4})$/.exec(mode);
  if (octal) {
    if (octal[1] === '-') return { exec: false, worldWritable: false, setid: false };
    const [special, u, g, o] = [...octal[2]!.padStart(4, '0')].map(Number) as [number, number, number, number];
    return { exec: [u, g, o].some((d) => d % 2 === 1), worldWritable: (o & 2) !== 0, setid: (special & 6) !== 0 };
  }
  if (!/^[ugoa]*[-+=]/.test(mode)) return undefined;
  const clauses = mode.split(',');
  const grants = (re: RegExp): boolean =>
    clauses.some((c) => /^[ugoa]*[+=]/.test(c) && re.test(c.replace(/^[ugoa]*[+=]/, '')));
  const who = (c: string): string => /^([ugoa]*)/.exec(c)![1] || 'a';
  return {
    exec: grants(/x/),
    worldWritable: clauses.some((c) => /[+=][^-+=]*w/.test(c) && /[ao]/.test(who(c))),
    setid: grants(/s/),
  };
}

/** The mode of the chmod a find runs on every file it matches (`find . -exec chmod 0777 {} \;`). */
export function findExecChmod(args: string[]): ReturnType<typeof chmodMode> {
  const at = args.findIndex((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a) && /(^|\/)chmod$/.test(args[i + 1] ?? ''));
  if (at < 0) return undefined;
  const end = args.findIndex((a, i) => i > at && (a === ';' || a === '+'));
  return chmodMode(args.slice(at + 2, end < 0 ? undefined : end).filter((a) => a !== '{}'));
}

/** Operands of a path-taking command, the mode / owner first operand excluded. */
export const targetsAfterFirst = (args: string[]): string[] => operands(args, ['--reference']).slice(1);

/** A `truncate` size that leaves the file smaller: `0`, `-N`, `<N`, `/N` (`-s 1G` grows or makes one). */
const SHRINKS = /^(0+[KMGTPEZY]?i?B?|[-</]\S*)$/;

/**
 * The files a command empties: `truncate -s 0 F`, a redirection `>` from a command that writes nothing (`: > F`,
 * `true > F`, `cat /dev/null > F`, `echo -n > F`, `printf '' > F`, a bare `> F`), `cp /dev/null F`. Not devices, not
 * logs, not a path known only at run time.
 */
export function emptiedFiles(v: CommandView): string[] {
  let files: string[] = [];
  if (v.program === 'truncate') {
    const size = optionValue(v.args, ['-s', '--size']) ?? v.args.find((a) => /^-s./.test(a))?.slice(2);
    if (size !== undefined && SHRINKS.test(size)) files = operands(v.args, ['-s', '--size', '-r', '--reference']);
  } else if (v.program === 'cp') {
    const ops = operands(v.args, ['-t', '--target-directory', '-S', '--suffix']);
    if (ops.length === 2 && ops[0] === '/dev/null') files = [ops[1]!];
  } else if (v.program === 'sed') {
    if (sedEmptiesInPlace(v.args)) files = operands(v.args, SED_WITH_ARG).slice(sedScriptGiven(v.args) ? 0 : 1);
  } else if (v.program === 'tee') {
    // `true | tee src/app.py`, `tee data.csv < /dev/null`: tee copies nothing into its files (`-a` keeps them).
    if (readsNothing(v) && !hasFlag(v.args, 'a', ['--append'])) files = operands(v.args);
  } else if (writesNothing(v)) {
    files = v.redirects
      .filter(
        (r) =>
          r.write &&
          (r.op === '>' || r.op === '>|') &&
          (r.fd === undefined || r.fd === '1') &&
          r.target &&
          !r.target.dynamic,
      )
      .map((r) => r.target!.value);
  }
  if (v.words.some((w) => w.dynamic)) return [];
  // (A scratch file in /tmp, like a log, holds nothing anyone keeps.)
  return files
    .filter((f) => f !== '' && !f.startsWith('/dev/') && !logFileName(f) && !/^\/(var\/)?tmp\//.test(f))
    .map((f) => atBase(f, v.base));
}

/** A command that writes nothing to its stdout (`:`, `true`, `cat /dev/null`, `echo -n`, `printf ''`, a bare redirection). */
function writesNothing(v: CommandView): boolean {
  switch (v.program) {
    case ':':
    case 'true':
      return true;
    case 'cat':
      return v.args.length > 0 && v.args.every((a) => a === '/dev/null');
    // `echo "" > src/app.py`, `echo > f`: one empty line is what is left of the file.
    case 'echo':
      return v.args.every((a) => /^-[neE]+$/.test(a) || BLANK.test(a));
    case 'printf':
      return v.args.length > 0 && v.args.every((a) => a === '--' || /^(\s|\\[nrt]|%s)*$/.test(a));
    // (Only a redirection alone: a group's `{ …; } > f` writes what the group prints.)
    case '':
      return /^\s*(1?>\|?)\s*\S+\s*$/.test(v.text);
    default:
      return false;
  }
}

/** Text that leaves nothing but blank lines. */
const BLANK = /^\s*$/;

/** What tee copies is nothing: an empty here-string or known empty input, `true |`, `: |`, `< /dev/null`. */
function readsNothing(v: CommandView): boolean {
  if (v.redirects.some((r) => !r.write && r.op === '<' && r.target?.value === '/dev/null')) return true;
  const stdin = v.stdin;
  if (!stdin || stdin.dynamic) return false;
  if (stdin.text !== undefined) return BLANK.test(stdin.text);
  return stdin.kind === 'pipe' && stdin.upstream.length > 0 && stdin.upstream.every((p) => p === 'true' || p === ':');
}

/** sed's options that take a value (its script, a script file, a line length). */
const SED_WITH_ARG = ['-e', '--expression', '-f', '--file', '-l', '--line-length'];
/** Whether the script comes from `-e` / `-f` (then every operand is a file), not from the first operand. */
const sedScriptGiven = (args: readonly string[]): boolean =>
  args.some((a) => /^(-e|--expression|-f|--file)$/.test(a) || a.startsWith('--expression='));
/** A sed script that deletes every line: `d`, `1,$d`, `0,$ d`, `/^/d`, `/.*\/d` (not `/^$/d`, blank lines only). */
const DELETES_ALL = /^\s*(?:[01]\s*,\s*\$|\/(?:\^|\$|\.\*|\^\.\*|\.\*\$|\^\.\*\$)\/)?\s*d\s*;?\s*$/;

/** `sed -i '1,$d' src/main.go`, `sed -i d file`, `sed -i.bak -e d f`: an in-place edit whose script deletes every line. */
function sedEmptiesInPlace(args: readonly string[]): boolean {
  if (!args.some((a) => /^(-[a-zA-Z]*i|--in-place)/.test(a))) return false;
  const scripts = sedScripts([...args]);
  return scripts.length > 0 && scripts.some((s) => DELETES_ALL.test(s));
}

/** Filters that read the files they are given and print the result: `f > f` leaves them nothing to read. */
export const READS_THEN_PRINTS = [
  'cat',
  'sort',
  'uniq',
  'grep',
  'egrep',
  'fgrep',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'jq',
  'yq',
  'head',
  'tail',
  'cut',
  'tr',
  'column',
  'fmt',
  'fold',
  'nl',
  'tac',
  'rev',
  'expand',
  'unexpand',
  'iconv',
  'xmllint',
  'envsubst',
  'paste',
  'prettier',
  'black',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
];

/**
 * `sort f > f`, `jq . package.json > package.json`, `cat < f > f`: the files a command names (or reads on stdin) that
 * its own `>` redirection truncates before it runs. (`sed -i`, `perl -i` and `sort -o` write after reading.)
 */
export function overwritesInput(v: CommandView): string[] {
  if (v.redirects.length === 0 || v.words.some((w) => w.dynamic)) return [];
  const truncated = v.redirects
    .filter((r) => stdoutToFile(r) && (r.op === '>' || r.op === '>|' || r.op === '&>') && !r.target!.dynamic)
    .map((r) => r.target!.value.replace(/^\.\//, ''));
  if (truncated.length === 0) return [];
  const read = new Set(v.args.filter((a) => !a.startsWith('-')).map((a) => a.replace(/^\.\//, '')));
  for (const r of v.redirects) if (!r.write && r.op === '<' && r.target) read.add(r.target.value.replace(/^\.\//, ''));
  return truncated.filter((t) => t !== '' && !t.startsWith('/dev/') && read.has(t)).map((t) => atBase(t, v.base));
}
