// Reads flags the way programs parse them: combined short flags (-rf), split (-r -f), long (--recursive).

/** Arguments up to `--` (options can only appear there for getopt-style programs). */
export function optionArgs(args: string[]): string[] {
  const end = args.indexOf('--');
  return end < 0 ? args : args.slice(0, end);
}

/** True when any short flag cluster contains `letter` (`-rf` has r and f) or a long flag is present. */
export function hasFlag(args: string[], letters: string, longs: string[] = []): boolean {
  for (const a of optionArgs(args)) {
    if (a.startsWith('--')) {
      if (longs.includes(a.split('=', 1)[0]!)) return true;
    } else if (a.startsWith('-') && a.length > 1 && /^-[A-Za-z]+$/.test(a)) {
      for (const l of letters) if (a.includes(l)) return true;
    }
  }
  return false;
}

/** Positional operands: arguments that are not options, skipping the values of options that take one. */
export function operands(args: string[], withArg: string[] = []): string[] {
  const out: string[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (ended) {
      out.push(a);
      continue;
    }
    if (a === '--') {
      ended = true;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      if (withArg.includes(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** The value of an option (`-X DELETE`, `-XDELETE`, `--request=DELETE`, `--request DELETE`), last one wins. */
export function optionValue(args: string[], names: string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    for (const n of names) {
      if (a === n && i + 1 < args.length) value = args[i + 1];
      else if (n.startsWith('--') && a.startsWith(n + '=')) value = a.slice(n.length + 1);
      else if (!n.startsWith('--') && n.length === 2 && a.startsWith(n) && a.length > 2 && !a.startsWith('--'))
        value = a.slice(2);
      // A cluster of short flags ending in this one takes the next word (`curl -sLo out URL`).
      else if (
        !n.startsWith('--') &&
        n.length === 2 &&
        /^-[a-zA-Z]{2,}$/.test(a) &&
        a.endsWith(n[1]!) &&
        i + 1 < args.length
      )
        value = args[i + 1];
    }
  }
  return value;
}

/** The subcommand words of a multi-command CLI, skipping its global options (`git -C x -c k=v push`). */
export function subcommands(args: string[], globalWithArg: string[] = []): string[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    const a = args[i]!;
    i += globalWithArg.includes(a) ? 2 : 1;
  }
  return args.slice(i);
}

/** ssh's options that take a value: the first operand after them is the host, the rest the remote command. */
export const SSH_WITH_ARG: string[] = [
  '-B',
  '-b',
  '-c',
  '-D',
  '-E',
  '-e',
  '-F',
  '-I',
  '-i',
  '-J',
  '-L',
  '-l',
  '-m',
  '-O',
  '-o',
  '-P',
  '-p',
  '-Q',
  '-R',
  '-S',
  '-W',
  '-w',
];

/** xargs's options that take a value (the first operand after them is the program it runs). */
export const XARGS_WITH_ARG = [
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
