// Where a piece of script runs: its nesting depth, the variables known there, and the directory after `cd`.

/** Where a piece of script runs: nesting depth, known variables, directory after `cd`. */
export interface Frame {
  depth: number;
  vars: Map<string, string | undefined>;
  base?: string;
  /** Directories `pushd` left, for `popd` (relative to the call's cwd like `base`; `.` is that cwd). */
  dirs?: string[];
}

/** The frame of code run one level deeper (`$(…)`, `sh -c`, a subscript bash evaluates): a copy of the variables. */
export function deeper(frame: Frame): Frame {
  return { depth: frame.depth + 1, vars: new Map(frame.vars), ...(frame.base !== undefined ? { base: frame.base } : {}) };
}
