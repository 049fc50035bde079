// Peels wrapper programs (sudo, env, nice, timeout, …) off a command to find the program that really runs.
import { literalWord, type Word } from './word.ts';
import { escapeLiteral } from './template.ts';

/** How one wrapper takes its options before the wrapped command. */
interface WrapperSpec {
  /** Short and long options that consume the next word (`-u root`, `--user root`). */
  withArg?: string[];
  /** Options that consume the next two words (`bwrap --bind SRC DEST`). */
  withTwoArgs?: string[];
  /** Operands before the command (`timeout 60 …`, `chroot /srv …`). */
  operands?: number;
  /** Leading `NAME=value` words belong to the wrapper (`env FOO=1 …`). */
  assignments?: boolean;
  /** Options after which nothing is run (`command -v x`, `ionice -p 42`). */
  noExec?: string[];
  /** The rest is one shell string, not an argv (`watch 'a | b'`), unless one of these options is present. */
  scriptUnless?: string[];
  /** Options whose argument is itself a shell string (`flock -c 'cmd'`, `env -S 'cmd args'`). */
  scriptArg?: string[];
  /** Options whose value, when it starts with `|`, is a shell command the output is piped into (`strace -o '|cmd'`). */
  pipeArg?: string[];
  /** Options whose argument is the directory the command runs in (`env -C DIR`, `sudo --chdir DIR`). */
  chdirArg?: string[];
  /**
   * It runs a command only through one of these subcommands (`poetry run …`, `npm exec …`, `docker compose exec …`),
   * the first words after its global options.
   */
  subcommands?: string[];
  /**
   * The command is the words after one of these options (`nix develop -c cmd`, `xterm -e cmd`); without one,
   * nothing is run (the other operands are not a command).
   */
  commandAfter?: string[];
}

/** `conda run -n env cmd` and its relatives mamba and micromamba. */
const CONDA_RUN: WrapperSpec = { subcommands: ['run'], withArg: ['-n', '--name', '-p', '--prefix', '--cwd'] };

/** Options of `exec` in a container (docker, podman, compose) and of compose's project, that take a value. */
const CONTAINER_EXEC_OPTIONS = [
  '-e',
  '--env',
  '--env-file',
  '-u',
  '--user',
  '-w',
  '--workdir',
  '--detach-keys',
  '--index',
  '-f',
  '--file',
  '-p',
  '--project-name',
  '--profile',
  '--project-directory',
];

/** The wrapper table; every entry is a program that runs its arguments as another command. */
// One line per entry: the table is read down its rows, so the formatter leaves it as written.
// prettier-ignore
export const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { chdirArg: ['-D', '--chdir'], withArg: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--role', '--type', '--command-timeout', '--other-user'], noExec: ['-l', '--list', '-v', '--validate', '-k', '-K', '-V', '--version', '-e', '--edit'] },
  doas: { withArg: ['-u', '-C'] },
  pkexec: { withArg: ['--user'] },
  run0: { withArg: ['-u', '--user', '-g', '--group', '-D', '--chdir'], chdirArg: ['-D', '--chdir'] },
  env: { withArg: ['-u', '--unset', '-C', '--chdir', '-a', '--argv0'], chdirArg: ['-C', '--chdir'], assignments: true, scriptArg: ['-S', '--split-string'] },
  command: { withArg: [], noExec: ['-v', '-V'] },
  builtin: {},
  exec: { withArg: ['-a'] },
  nohup: {},
  nice: { withArg: ['-n', '--adjustment'] },
  ionice: { withArg: ['-c', '-n', '--class', '--classdata'], noExec: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  timeout: { withArg: ['-s', '-k', '--signal', '--kill-after'], operands: 1 },
  time: { withArg: ['-f', '-o', '--format', '--output'] },
  stdbuf: { withArg: ['-i', '-o', '-e'] },
  watch: { withArg: ['-n', '--interval', '-d', '-q', '--equexit'], scriptUnless: ['-x', '--exec'] },
  busybox: {},
  chroot: { withArg: ['--userspec', '--groups'], operands: 1 },
  setsid: {},
  unbuffer: {},
  caffeinate: { withArg: ['-t', '-w'] },
  flock: { withArg: ['-w', '--timeout', '-E', '--conflict-exit-code'], operands: 1, scriptArg: ['-c', '--command'] },
  taskset: { operands: 1, noExec: ['-p', '--pid'] },
  chrt: { operands: 1, noExec: ['-p', '--pid'] },
  proxychains: { withArg: ['-f'] },
  proxychains4: { withArg: ['-f'] },
  torsocks: {},
  firejail: {},
  'xvfb-run': { withArg: ['-n', '-s', '-f', '-e', '-p', '--server-args'] },
  noglob: {},
  coproc: {},
  // Package runners run a package's binary (`npx rimraf dist`); `-c` takes a shell string.
  npx: { withArg: ['-p', '--package'], scriptArg: ['-c', '--call'] },
  bunx: { withArg: ['-p', '--package'] },
  pnpx: { withArg: ['-p', '--package'] },
  bun: { subcommands: ['x'], withArg: ['-p', '--package', '--cwd'] },
  // npm's environment setters: `cross-env NODE_ENV=test jest`, `env-cmd -f .env.test node x.js`; cross-env-shell
  // runs the rest as one shell string.
  'cross-env': { assignments: true },
  'cross-env-shell': { assignments: true, scriptUnless: [] },
  'env-cmd': { withArg: ['-f', '--file', '-e', '--environments', '-r', '--rc-file'] },
  nocorrect: {},
  // Sandboxing, tracing and session tools that run the rest as a command.
  unshare: { withArg: ['-R', '--root', '-w', '--wd', '-S', '--setuid', '-G', '--setgid', '--map-user', '--map-group', '--map-users', '--map-groups', '--propagation', '--setgroups', '--monotonic', '--boottime'], noExec: ['-V', '--version', '-h', '--help'] },
  setarch: { withArg: [], noExec: ['--list', '-h', '--help'] },
  setpriv: { withArg: ['--reuid', '--regid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--selinux-label', '--apparmor-profile', '--pdeathsig', '--landlock-access', '--landlock-rule'], noExec: ['-d', '--dump'] },
  prlimit: { withArg: [], noExec: ['-p', '--pid'] },
  'ssh-agent': { withArg: ['-a', '-E', '-t', '-P'], noExec: ['-k', '-l', '-D'] },
  valgrind: {},
  strace: { withArg: ['-o', '-e', '-s', '-u', '-a', '-b', '-E', '-I', '-O', '-P', '-S', '-X', '--output', '--signal', '--trace', '--string-limit', '--user'], pipeArg: ['-o', '--output'], noExec: ['-p', '--attach'] },
  ltrace: { withArg: ['-o', '-e', '-s', '-u', '-a', '-n', '-F'], pipeArg: ['-o'], noExec: ['-p'] },
  fakeroot: { withArg: ['-l', '--lib', '--faked', '-s', '-i', '-b'] },
  'dbus-run-session': { withArg: ['--config-file', '--dbus-daemon'] },
  'dbus-launch': { withArg: ['--config-file'] },
  'systemd-run': { withArg: ['-u', '--unit', '-p', '--property', '--description', '--slice', '-E', '--setenv', '--uid', '--gid', '--nice', '-M', '--machine', '-H', '--host', '--working-directory', '--on-active', '--on-boot', '--on-startup', '--on-unit-active', '--on-unit-inactive', '--on-calendar', '--timer-property', '--path-property', '--socket-property', '--service-type'], chdirArg: ['--working-directory'] },
  dotenv: { withArg: ['-e', '-v'] },
  retry: { withArg: ['-t', '--times', '-d', '--delay', '-u', '--until', '-w', '--while', '-m', '--max-time'] },
  nsenter: { withArg: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-w', '--wd', '-r', '--root'] },
  chpst: { withArg: ['-u', '-U', '-b', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c'] },
  numactl: { withArg: ['-C', '--physcpubind', '-N', '--cpunodebind', '-m', '--membind', '-i', '--interleave', '-p', '--preferred'], noExec: ['-s', '--show', '-H', '--hardware'] },
  cgexec: { withArg: ['-g'] },
  cpulimit: { withArg: ['-l', '--limit', '-m', '--monitor-forks'], noExec: ['-p', '--pid', '-e', '--exe', '-P', '--path'] },
  trickle: { withArg: ['-d', '-u', '-w', '-t', '-l', '-n'] },
  catchsegv: {},
  rlwrap: { withArg: ['-a', '-b', '-C', '-D', '-e', '-f', '-g', '-H', '-l', '-M', '-O', '-p', '-P', '-q', '-S', '-t', '-w', '-z'] },
  daemonize: { withArg: ['-a', '-c', '-e', '-E', '-o', '-p', '-l', '-u'] },
  sshpass: { withArg: ['-p', '-f', '-d', '-P'] },
  entr: { scriptArg: ['-s'] },
  perf: { subcommands: ['stat', 'record', 'trace'], withArg: ['-e', '--event', '-o', '--output', '-C', '--cpu', '-r', '--repeat', '-G', '--cgroup', '-F', '--freq', '-c', '--count', '-m', '--mmap-pages', '-I', '--interval-print', '-x', '--field-separator', '--call-graph', '-j', '--branch-filter', '-u', '--uid', '--filter', '-D', '--delay'], scriptArg: ['--pre', '--post'], noExec: ['-p', '--pid', '-t', '--tid'] },
  // Package and environment managers that run a program in the project's environment.
  npm: { subcommands: ['exec', 'x'], withArg: ['-p', '--package', '-w', '--workspace'], scriptArg: ['-c', '--call'] },
  pnpm: { subcommands: ['exec', 'dlx'], withArg: ['-C', '--dir', '--filter', '-F', '-w', '--workspace'], scriptArg: ['-c'] },
  yarn: { subcommands: ['exec', 'dlx'], withArg: ['-p', '--package'] },
  uvx: { withArg: ['--from', '--with', '--python', '-p', '--index'] },
  uv: { subcommands: ['run'], withArg: ['--with', '--with-requirements', '--python', '-p', '--project', '--directory', '--package', '--extra', '--group', '--env-file', '--index', '--from'] },
  poetry: { subcommands: ['run'], withArg: ['-C', '--directory', '-P', '--project'] },
  pipenv: { subcommands: ['run'] },
  pdm: { subcommands: ['run'], withArg: ['-p', '--project'] },
  hatch: { subcommands: ['run'], withArg: ['-e', '--env'] },
  rye: { subcommands: ['run'] },
  pipx: { subcommands: ['run'], withArg: ['--spec', '--python', '--index-url'] },
  bundle: { subcommands: ['exec'], withArg: ['--gemfile'] },
  direnv: { subcommands: ['exec'], operands: 1 },
  mise: { subcommands: ['exec', 'x'], commandAfter: ['--'], withArg: ['-C', '--cd', '-j', '--jobs'] },
  asdf: { subcommands: ['exec'] },
  conda: CONDA_RUN,
  mamba: CONDA_RUN,
  micromamba: CONDA_RUN,
  pixi: { subcommands: ['run', 'exec'], withArg: ['-e', '--environment', '--manifest-path', '-s', '--spec'] },
  nix: { subcommands: ['develop', 'shell'], commandAfter: ['-c', '--command'] },
  // A command in a running container: what it deletes or reads is the container's, often a volume of this host's.
  docker: { subcommands: ['exec', 'container exec', 'compose exec'], withArg: [...CONTAINER_EXEC_OPTIONS, '-c', '--context', '-H', '--host'], operands: 1 },
  podman: { subcommands: ['exec', 'container exec', 'compose exec'], withArg: [...CONTAINER_EXEC_OPTIONS, '-c', '--connection', '--url'], operands: 1 },
  'docker-compose': { subcommands: ['exec'], withArg: CONTAINER_EXEC_OPTIONS, operands: 1 },
  // `kubectl exec -it pod -- cmd`: the command after `--` runs in the pod's container.
  kubectl: { subcommands: ['exec'], commandAfter: ['--'] },
  oc: { subcommands: ['exec'], commandAfter: ['--'] },
  // Container and VM front ends that run a command inside (`lxc exec c -- cmd`, `nerdctl exec c cmd`).
  nerdctl: { subcommands: ['exec', 'container exec', 'compose exec'], withArg: [...CONTAINER_EXEC_OPTIONS, '-n', '--namespace', '-a', '--address'], operands: 1 },
  crictl: { subcommands: ['exec'], withArg: ['-r', '--runtime-endpoint', '-e', '--env'], operands: 1 },
  lxc: { subcommands: ['exec'], withArg: ['--env', '--cwd', '--user', '--group'], operands: 1 },
  incus: { subcommands: ['exec'], withArg: ['--env', '--cwd', '--user', '--group'], operands: 1 },
  'lxc-attach': { withArg: ['-n', '--name', '-P', '--lxcpath', '-e', '--elevated-privileges', '-s', '--namespaces', '-v', '--set-var', '-u', '--uid', '-g', '--gid', '--context'] },
  multipass: { subcommands: ['exec'], withArg: ['-d', '--working-directory'], operands: 1 },
  distrobox: { subcommands: ['enter'], withArg: ['-n', '--name'], commandAfter: ['--', '-e', '--exec'] },
  toolbox: { subcommands: ['run'], withArg: ['-c', '--container', '-d', '--distro', '-r', '--release'] },
  'flatpak-spawn': { withArg: ['--env', '--directory', '--forward-fd'] },
  'systemd-nspawn': { withArg: ['-D', '--directory', '-i', '--image', '-M', '--machine', '-u', '--user', '--chdir', '-E', '--setenv', '--bind', '--bind-ro', '--private-users', '--network-interface'] },
  // Entry points and privilege droppers used in containers (`gosu user cmd`, `tini -- cmd`), and launchers.
  gosu: { operands: 1 },
  'su-exec': { operands: 1 },
  setuidgid: { operands: 1 },
  tini: { withArg: ['-s', '-p', '-e'] },
  'dumb-init': { withArg: ['-r', '--rewrite'] },
  faketime: { withArg: ['-m', '-f'], operands: 1 },
  eatmydata: {},
  toybox: {},
  proot: { withArg: ['-r', '--rootfs', '-b', '--bind', '-m', '--mount', '-w', '--pwd', '--cwd', '-q', '--qemu', '-k', '--kernel-release'] },
  bwrap: {
    withTwoArgs: ['--bind', '--ro-bind', '--dev-bind', '--bind-try', '--ro-bind-try', '--dev-bind-try', '--symlink', '--setenv', '--file', '--bind-data', '--ro-bind-data', '--chmod'],
    withArg: ['--dev', '--proc', '--tmpfs', '--mqueue', '--chdir', '--unsetenv', '--uid', '--gid', '--hostname', '--dir', '--remount-ro', '--seccomp', '--exec-label', '--file-label', '--lock-file', '--sync-fd', '--info-fd', '--json-status-fd', '--block-fd', '--userns-block-fd', '--argv0', '--cap-add', '--cap-drop', '--perms', '--size', '--userns', '--userns2', '--pidns', '--args'],
    chdirArg: ['--chdir'],
  },
  'aa-exec': { withArg: ['-p', '--profile', '-n', '--namespace'] },
  runcon: { withArg: ['-u', '--user', '-r', '--role', '-t', '--type', '-l', '--range'] },
  'systemd-cat': { withArg: ['-t', '--identifier', '-p', '--priority', '--stderr-priority', '--level-prefix', '--namespace'] },
  'systemd-inhibit': { withArg: ['--what', '--who', '--why', '--mode'], noExec: ['--list'] },
  ccache: {},
  dtach: { withArg: ['-e', '-r', '-z'], operands: 1 },
  abduco: { withArg: ['-e'], operands: 1 },
  nq: { withArg: [] },
  tsp: {},
  mpirun: { withArg: ['-n', '-np', '-N', '--host', '-H', '--hostfile', '-machinefile', '--map-by', '--bind-to', '-x', '--mca'] },
  srun: { withArg: ['-n', '--ntasks', '-N', '--nodes', '-c', '--cpus-per-task', '-p', '--partition', '-t', '--time', '-J', '--job-name', '-A', '--account', '--mem'] },
  // Terminal emulators started with a command.
  xterm: { commandAfter: ['-e'] },
  'x-terminal-emulator': { commandAfter: ['-e'] },
  'gnome-terminal': { commandAfter: ['--', '-e', '-x'] },
  konsole: { commandAfter: ['-e'] },
  kitty: { withArg: ['--title', '-T', '--class', '--name', '--config', '-c', '--override', '-o', '--directory', '-d', '--session', '--listen-on'] },
  alacritty: { commandAfter: ['-e', '--command'] },
  terminator: { commandAfter: ['-x', '--execute'], scriptArg: ['-e', '--command'] },
};

/**
 * Wrappers that run their command inside a container or a virtual machine: its `/etc` and its pid 1 are not the
 * host's (catalogue entries about the host's own files and processes are `hostOnly`). Not distrobox or toolbox: their
 * containers share the host's pid namespace and home directory.
 */
export const CONTAINER_WRAPPERS: ReadonlySet<string> = new Set([
  'docker',
  'podman',
  'nerdctl',
  'docker-compose',
  'crictl',
  'lxc',
  'incus',
  'lxc-attach',
  'multipass',
  'systemd-nspawn',
  'kubectl',
  'oc',
]);

/** Each wrapper's subcommands as words (`compose exec` → `compose`, `exec`), split once. */
const SUBCOMMAND_WORDS = new Map(
  Object.entries(WRAPPERS).flatMap(([name, spec]) =>
    spec.subcommands ? [[name, spec.subcommands.map((c) => c.split(' '))] as const] : [],
  ),
);

/** Architectures `setarch` takes before the command. */
const ARCH =
  /^(x86_64|i[3-6]86|linux32|linux64|aarch64|arm\w*|ppc\w*|s390x?|riscv64|mips\w*|sparc\w*|ia64|alpha|parisc\w*|sh\w*|m68k|loongarch64|uname26)$/;

/** What is left after peeling every wrapper. */
export interface Unwrapped {
  argv: Word[];
  wrappers: string[];
  /** Shell strings a wrapper will run (`watch 'cmd'`, `flock -c 'cmd'`, `env -S 'cmd'`). */
  scripts: Word[];
  /** A wrapper was asked only to describe, not to run (`command -v rm`). */
  noExec: boolean;
  /** The directory a wrapper runs the command in (`env -C DIR …`), the last one given. */
  chdir?: Word;
}

/** The rest of a word from `at` (an option's value written in the option's word: `-S'cmd'`, `--command=cmd`). */
export function suffixWord(w: Word, at: number): Word {
  const prefix = w.value.slice(0, at);
  const value = w.value.slice(at);
  return { ...w, value, template: w.template.startsWith(prefix) ? w.template.slice(at) : escapeLiteral(value) };
}

/** The basename of a program word, with a leading backslash (alias bypass) removed. */
export function programName(word: string): string {
  const name = word.startsWith('\\') ? word.slice(1) : word;
  return name.includes('/') ? name.replace(/^.*\//, '') : name;
}

/**
 * Where a subcommand of words ends when `rest` has it at `i` (`compose exec`), options allowed between its words
 * (`docker compose -f docker-compose.prod.yml exec …`); undefined when it is not there.
 */
function subcommandEnd(
  rest: readonly Word[],
  i: number,
  words: readonly string[],
  withArg: readonly string[] | undefined,
): number | undefined {
  let j = i;
  for (let k = 0; k < words.length; k++) {
    if (k > 0) while (j < rest.length && rest[j]!.value.startsWith('-')) j += withArg?.includes(rest[j]!.value) ? 2 : 1;
    if (rest[j]?.value !== words[k]) return undefined;
    j++;
  }
  return j;
}

/** Peels wrappers from the front of `words`, outermost first. */
export function unwrap(words: Word[]): Unwrapped {
  const wrappers: string[] = [];
  const scripts: Word[] = [];
  let chdir: Word | undefined;
  let rest = words;
  for (let guard = 0; guard < 16 && rest.length > 0; guard++) {
    const name = programName(rest[0]!.value);
    const spec = WRAPPERS[name];
    if (!spec || rest[0]!.dynamic) break;
    // `poetry run cmd` wraps; `poetry install` is poetry's own work. Global options may come first (`pnpm -r exec`).
    let i = 1;
    if (spec.subcommands) {
      while (i < rest.length && rest[i]!.value.startsWith('-')) i += spec.withArg?.includes(rest[i]!.value) ? 2 : 1;
      let end: number | undefined;
      for (const words of SUBCOMMAND_WORDS.get(name)!) if ((end = subcommandEnd(rest, i, words, spec.withArg))) break;
      if (end === undefined) break;
      i = end;
    }
    wrappers.push(name);
    if (spec.commandAfter) {
      const at = rest.findIndex((w, k) => k >= i && spec.commandAfter!.includes(w.value));
      const scriptAt = spec.scriptArg ? rest.findIndex((w, k) => k >= i && spec.scriptArg!.includes(w.value)) : -1;
      if (scriptAt >= 0 && (at < 0 || scriptAt < at)) {
        if (rest[scriptAt + 1]) scripts.push(rest[scriptAt + 1]!);
        return { argv: [], wrappers, scripts, noExec: false, chdir };
      }
      if (at < 0 || at + 1 >= rest.length) return { argv: [], wrappers, scripts, noExec: true };
      rest = rest.slice(at + 1);
      // `xterm -e 'make && ./run'`: one word with blanks is a command line for the shell.
      if (rest.length === 1 && /\s/.test(rest[0]!.value))
        return { argv: [], wrappers, scripts: [...scripts, rest[0]!], noExec: false, chdir };
      continue;
    }
    let operands = spec.operands ?? 0;
    let asScript = spec.scriptUnless !== undefined;
    for (; i < rest.length; i++) {
      const w = rest[i]!.value;
      if (w === '--') {
        i++;
        break;
      }
      if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) continue;
      if (w.startsWith('-') && w.length > 1) {
        const [flag] = w.split('=', 1) as [string];
        if (spec.noExec?.includes(flag)) return { argv: [], wrappers, scripts, noExec: true };
        if (spec.scriptUnless?.includes(flag)) asScript = false;
        if (spec.scriptArg?.includes(flag)) {
          if (w.includes('=')) scripts.push(suffixWord(rest[i]!, flag.length + 1));
          else if (rest[i + 1]) scripts.push(rest[++i]!);
          continue;
        }
        // `env -S'cmd'`, `flock -c'cmd'`: a one-letter option with its value in the same word.
        const attached = spec.scriptArg?.find((o) => o.length === 2 && w.startsWith(o) && w.length > 2);
        if (attached) {
          scripts.push(suffixWord(rest[i]!, 2));
          continue;
        }
        if (spec.chdirArg?.includes(flag))
          chdir = w.includes('=')
            ? {
                ...rest[i]!,
                value: w.slice(w.indexOf('=') + 1),
                template: rest[i]!.template.slice(rest[i]!.template.indexOf('=') + 1),
              }
            : (rest[i + 1] ?? chdir);
        if (spec.pipeArg?.includes(flag)) {
          const value = w.includes('=') ? suffixWord(rest[i]!, flag.length + 1) : rest[i + 1];
          if (value?.value.startsWith('|')) scripts.push(suffixWord(value, 1));
        }
        if (spec.withTwoArgs?.includes(flag)) i += 2;
        else if (spec.withArg?.includes(flag) && !w.includes('=')) i++;
        else if (name === 'nice' && /^-\d+$/.test(w)) continue;
        continue;
      }
      if (operands > 0) {
        operands--;
        continue;
      }
      if (name === 'setarch' && i === 1 && ARCH.test(w)) continue; // `setarch x86_64 cmd` (the architecture may be left out)
      break;
    }
    rest = rest.slice(i);
    if (asScript && rest.length > 0) {
      // `watch rm -rf ~`: the words are joined with spaces and run by `sh -c`.
      scripts.push(rest.length === 1 ? rest[0]! : joinWords(rest));
      return { argv: [], wrappers, scripts, noExec: false, chdir };
    }
    if (scripts.length > 0 && rest.length === 0) return { argv: [], wrappers, scripts, noExec: false, chdir };
  }
  return { argv: rest, wrappers, scripts, noExec: false, chdir };
}

/** Words joined with spaces into one (the shell string `watch a b`, `ssh host a b`, `eval a b` run). */
export function joinWords(words: Word[]): Word {
  const value = words.map((w) => w.value).join(' ');
  const dynamic = words.some((w) => w.dynamic);
  const joined = literalWord(value);
  return {
    ...joined,
    dynamic,
    expanded: words.some((w) => w.expanded),
    substituted: words.some((w) => w.substituted),
    inner: { programs: words.flatMap((w) => w.inner?.programs ?? []), processSubstitution: false },
  };
}
