// The shape every benchmark returns: named figures, each with its target and whether it holds.

/** One measured figure checked against a target. */
export interface Figure {
  /** Which benchmark (1–5) it belongs to, e.g. `http`. */
  bench: string;
  /** What was measured, e.g. `throughput vs raw node:http (repeated commands)`. */
  name: string;
  value: number;
  unit: string;
  /** The target as a person reads it, e.g. `≥ 0.5×`. */
  target: string;
  /** Whether the target holds; undefined for context figures without a target. */
  ok?: boolean;
  /** The baseline it was compared with, when the figure is a ratio, and any detail worth keeping. */
  detail?: string;
}

/** What one benchmark returns: its figures plus raw data for the JSON file. */
export interface BenchResult {
  bench: string;
  figures: Figure[];
  raw?: unknown;
  /** Set when the benchmark could not run (a missing tool); the runner reports it as a failure. */
  error?: string;
}

/** Options every benchmark receives. */
export interface BenchOptions {
  /** Smoke run: tiny sizes, seconds in total, asserts nothing about time. */
  quick: boolean;
  /** Progress lines go here (stderr). */
  log: (line: string) => void;
}

/** A figure with a "at most" target. */
export function atMost(
  bench: string,
  name: string,
  value: number,
  limit: number,
  unit: string,
  detail?: string,
): Figure {
  return {
    bench,
    name,
    value,
    unit,
    target: `≤ ${limit}${unit === '×' ? '×' : ` ${unit}`}`,
    ok: value <= limit,
    detail,
  };
}

/** A figure with a "at least" target. */
export function atLeast(
  bench: string,
  name: string,
  value: number,
  limit: number,
  unit: string,
  detail?: string,
): Figure {
  return {
    bench,
    name,
    value,
    unit,
    target: `≥ ${limit}${unit === '×' ? '×' : ` ${unit}`}`,
    ok: value >= limit,
    detail,
  };
}

/** A context figure (no target). */
export function info(bench: string, name: string, value: number, unit: string, detail?: string): Figure {
  return { bench, name, value, unit, target: '—', detail };
}
