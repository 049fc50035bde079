// Permission modes as flags, so that a request may make the operator's mode stricter but never looser.
import type { Mode } from './types.ts';

export const MODES: readonly Mode[] = ['default', 'strict', 'auto_approve', 'read_only', 'bypass_all'];

/** What a mode changes in the pipeline. */
export interface ModeFlags {
  /** Deny every call classified as a write (stage 4). */
  readOnly: boolean;
  /** Unmatched calls ask (low) instead of being allowed (stage 8). */
  askUnmatched: boolean;
  /** How an ask is resolved without a human: `none`, `below_high` (auto_approve) or `all` (bypass_all). */
  autoResolve: 'none' | 'below_high' | 'all';
}

const FLAGS: Record<Mode, ModeFlags> = {
  default: { readOnly: false, askUnmatched: false, autoResolve: 'none' },
  strict: { readOnly: false, askUnmatched: true, autoResolve: 'none' },
  auto_approve: { readOnly: false, askUnmatched: false, autoResolve: 'below_high' },
  read_only: { readOnly: true, askUnmatched: false, autoResolve: 'none' },
  bypass_all: { readOnly: false, askUnmatched: false, autoResolve: 'all' },
};

const RESOLVE_RANK = { none: 0, below_high: 1, all: 2 } as const;

/** The effective mode of a request: the operator's, tightened by the request's where the request is stricter. */
export interface EffectiveMode {
  name: string;
  flags: ModeFlags;
  /** The request asked for a looser mode than the operator's, and was refused that part. */
  loosenRefused: boolean;
}

/** Combines the operator's mode with a request's: every flag takes the stricter side. */
export function effectiveMode(operator: Mode, requested?: Mode): EffectiveMode {
  const op = FLAGS[operator];
  if (!requested || requested === operator) return { name: operator, flags: op, loosenRefused: false };
  const req = FLAGS[requested];
  const flags: ModeFlags = {
    readOnly: op.readOnly || req.readOnly,
    askUnmatched: op.askUnmatched || req.askUnmatched,
    autoResolve: RESOLVE_RANK[op.autoResolve] <= RESOLVE_RANK[req.autoResolve] ? op.autoResolve : req.autoResolve,
  };
  const loosenRefused =
    (op.readOnly && !req.readOnly) ||
    (op.askUnmatched && !req.askUnmatched) ||
    RESOLVE_RANK[req.autoResolve] > RESOLVE_RANK[op.autoResolve];
  const sameAs = (m: Mode) => sameFlags(FLAGS[m], flags);
  const name = sameAs(requested) ? requested : sameAs(operator) ? operator : `${operator}+${requested}`;
  return { name, flags, loosenRefused };
}

function sameFlags(a: ModeFlags, b: ModeFlags): boolean {
  return a.readOnly === b.readOnly && a.askUnmatched === b.askUnmatched && a.autoResolve === b.autoResolve;
}
