// Peels wrapper programs (sudo, env, nice, timeout, …) off a command to find the program that really runs.
import type { Word } from './word.ts';
import { escapeLiteral } from './template.ts';

/** How one wrapper takes its options before the wrapped command. */
interface WrapperSpec {
  /** Short and long options that consume the next word (`-u root`, `--user root`). */
  withArg?: string[];
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
  /** Options whose argument is the directory the command runs in (`env -C DIR`, `sudo --chdir DIR`). */
  chdirArg?: string[];
}

/** The wrapper table; every entry is a program that runs its arguments as another command. */
export const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { chdirArg: ['-D', '--chdir'], withArg: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--role', '--type', '--command-timeout', '--other-user'], noExec: ['-l', '--list', '-v', '--validate', '-k', '-K', '-V', '--version', '-e', '--edit'] },
  doas: { withArg: ['-u', '-C'] },
  pkexec: { withArg: ['--user'] },
  run0: { withArg: ['-u', '--user', '-g', '--group', '-D', '--chdir'], chdirArg: ['-D', '--chdir'] },
  env: { withArg: ['-u', '--unset', '-C', '--chdir'], chdirArg: ['-C', '--chdir'], assignments: true, scriptArg: ['-S', '--split-string'] },
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
  nocorrect: {},
  // Sandboxing, tracing and session tools that run the rest as a command.
  unshare: { withArg: ['-R', '--root', '-w', '--wd', '-S', '--setuid', '-G', '--setgid', '--map-user', '--map-group', '--map-users', '--map-groups', '--propagation', '--setgroups', '--monotonic', '--boottime'], noExec: ['-V', '--version', '-h', '--help'] },
  setarch: { withArg: [], noExec: ['--list', '-h', '--help'] },
  setpriv: { withArg: ['--reuid', '--regid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--selinux-label', '--apparmor-profile', '--pdeathsig', '--landlock-access', '--landlock-rule'], noExec: ['-d', '--dump'] },
  prlimit: { withArg: [], noExec: ['-p', '--pid'] },
  'ssh-agent': { withArg: ['-a', '-E', '-t', '-P'], noExec: ['-k', '-l', '-D'] },
  valgrind: {},
  strace: { withArg: ['-o', '-e', '-s', '-u', '-a', '-b', '-E', '-I', '-O', '-P', '-S', '-X', '--output', '--signal', '--trace', '--string-limit', '--user'], noExec: ['-p', '--attach'] },
  ltrace: { withArg: ['-o', '-e', '-s', '-u', '-a', '-n', '-F'], noExec: ['-p'] },
  fakeroot: { withArg: ['-l', '--lib', '--faked', '-s', '-i', '-b'] },
  'dbus-run-session': { withArg: ['--config-file', '--dbus-daemon'] },
  'dbus-launch': { withArg: ['--config-file'] },
};

/** Architectures `setarch` takes before the command. */
const ARCH = /^(x86_64|i[3-6]86|linux32|linux64|aarch64|arm\w*|ppc\w*|s390x?|riscv64|mips\w*|sparc\w*|ia64|alpha|parisc\w*|sh\w*|m68k|loongarch64|uname26)$/;

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
    wrappers.push(name);
    let i = 1;
    let operands = spec.operands ?? 0;
    let asScript = spec.scriptUnless !== undefined;
    for (; i < rest.length; i++) {
      const w = rest[i]!.value;
      if (w === '--') { i++; break; }
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
        if (attached) { scripts.push(suffixWord(rest[i]!, 2)); continue; }
        if (spec.chdirArg?.includes(flag)) chdir = w.includes('=') ? { ...rest[i]!, value: w.slice(w.indexOf('=') + 1), template: rest[i]!.template.slice(rest[i]!.template.indexOf('=') + 1) } : rest[i + 1] ?? chdir;
        if (spec.withArg?.includes(flag) && !w.includes('=')) i++;
        else if (name === 'nice' && /^-\d+$/.test(w)) continue;
        continue;
      }
      if (operands > 0) { operands--; continue; }
      if (name === 'setarch' && i === 1 && ARCH.test(w)) continue; // `setarch x86_64 cmd` (the architecture may be left out)
      break;
    }
    rest = rest.slice(i);
    if (asScript && rest.length > 0) {
      scripts.push(...rest);
      return { argv: [], wrappers, scripts, noExec: false, chdir };
    }
    if (scripts.length > 0 && rest.length === 0) return { argv: [], wrappers, scripts, noExec: false, chdir };
  }
  return { argv: rest, wrappers, scripts, noExec: false, chdir };
}
