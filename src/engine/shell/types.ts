// The result of analysing one bash command or script: what runs, what it touches, what is dangerous.
import type { Finding } from '../types.ts';

/** One simple command that would run, after unwrapping and word resolution. */
export interface SimpleCommand {
  /** Every resolved word of the command as written, wrappers included (`sudo -u x rm -rf /tmp/a` → all of them). */
  words: string[];
  /** The effective command once wrappers (sudo, env, nice, timeout, command, …) are peeled off: argv[0] is the program as written (`/bin/rm`). */
  argv: string[];
  /** Basename of argv[0] (`rm` for `/bin/rm` or `\rm`); '' when the name is not literal. */
  program: string;
  /** The wrappers peeled off, outermost first (`['sudo', 'env']`). */
  wrappers: string[];
  /** Source text of the command (for nested commands: the nested text). */
  text: string;
  /** False when the command name is not a literal word (variable, substitution, glob, brace expansion). */
  literal: boolean;
  /** Resolved targets of the command's output redirections (`> f`, `>> f`), other than /dev/null and the standard streams. */
  writes?: string[];
  /** Its standard output goes to a file (`> f`, `&> f`), not to whoever ran it. */
  stdoutToFile?: true;
  /** Nesting depth: 0 at top level, +1 inside `bash -c`, `eval`, `$(…)`, `xargs`, `find -exec`, … */
  depth: number;
}

/** A path an analysed command touches. */
export interface ShellPath {
  /** The resolved word (`~`, `$HOME`, `${HOME}` expanded; may stay relative; may contain glob characters). */
  path: string;
  /** Where it came from. */
  kind: 'argument' | 'redirect' | 'cwd';
  /** Directory the command runs in when it is not the call's cwd (after `cd X &&`), relative or absolute. */
  base?: string;
  /** The path contains glob characters that the shell would expand. */
  glob: boolean;
  /** Part of the path could not be resolved statically (unknown variable, substitution). */
  dynamic: boolean;
  /** The source text of the command it came from. */
  command: string;
  /**
   * The path as an escaped template (see `shell/template.ts`): quoted characters escaped with `\`, unresolvable
   * parts wrapped in U+0000 … U+0001. Lets the protected-path matcher tell a glob `*` from a quoted one.
   */
  template?: string;
}

/** The analysis of one bash command or script. */
export interface ShellAnalysis {
  /** False when the command could not be analysed (parse error, too large, too deep, timeout); `error` says why. */
  ok: boolean;
  error?: string;
  commands: SimpleCommand[];
  findings: Finding[];
  paths: ShellPath[];
  /** True when every command is known to be read-only (for `read_only` mode). */
  readOnly: boolean;
}
