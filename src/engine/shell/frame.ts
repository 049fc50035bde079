// Where a piece of script runs: its nesting depth, the variables known there, and the directory after `cd`.
import type { Word } from './word.ts';
import type { Stdin } from './view.ts';

/** Where a piece of script runs: nesting depth, known variables, directory after `cd`. */
export interface Frame {
  depth: number;
  vars: Map<string, string | undefined>;
  base?: string;
  /** Directories `pushd` left, for `popd` (relative to the call's cwd like `base`; `.` is that cwd). */
  dirs?: string[];
  /** Descriptors `exec 3< <(…)` opened on a process substitution, by number (see redirects.ts). */
  fds?: Map<string, Word>;
  /** The standard input `exec < <(…)` gave every later command of the script. */
  stdin?: Stdin;
}

/** The frame of code run one level deeper (`$(…)`, `sh -c`, a subscript bash evaluates): a copy of the variables. */
export function deeper(frame: Frame): Frame {
  const inner: Frame = { depth: frame.depth + 1, vars: new Map(frame.vars) };
  if (frame.base !== undefined) inner.base = frame.base;
  if (frame.fds) inner.fds = frame.fds;
  if (frame.stdin) inner.stdin = frame.stdin;
  return inner;
}

/** The directory after `cd DIR` from `base` (relative to it; `cd` alone goes home; `cd -`: not known here). */
export function changeDir(base: string | undefined, target: Word | undefined, home: string): string | undefined {
  if (!target) return home;
  if (target.value === '-') return undefined;
  const dir = target.value;
  if (dir.startsWith('/') || base === undefined) return dir;
  return `${base.replace(/\/+$/, '')}/${dir}`;
}
