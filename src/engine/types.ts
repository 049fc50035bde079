// The domain of toolgate's decision engine: calls, decisions, findings, rules and modes.

/** What toolgate answers for a tool call. */
export type Decision = 'allow' | 'deny' | 'ask';

/** What a rule does when it matches. */
export type Effect = Decision;

/** How bad it would be if the call did harm: high = data loss or code from the network, medium = privilege or process/service control. */
export type Risk = 'high' | 'medium' | 'low';

/** The operator's permission mode (docs/rules.md, "Modes"). */
export type Mode = 'default' | 'strict' | 'auto_approve' | 'read_only' | 'bypass_all';

/** Which stage (or who) decided. */
export type DecisionSource =
  | 'protected_path'
  | 'rule'
  | 'session_grant'
  | 'danger'
  | 'mode'
  | 'default'
  | 'fallback'
  | 'plugin'
  | 'human'
  | 'timeout';

/** A danger (or analysis) finding: one catalogue entry that fired on one command. */
export interface Finding {
  /** Catalogue id, e.g. `rm-recursive-force`. */
  id: string;
  risk: Risk;
  /** Human-readable reason. */
  reason: string;
  /** The simple command (source text) the finding came from. */
  command?: string;
  /** [start, end) character offsets of the dangerous part in the original command, when known. */
  span?: [number, number];
  /**
   * An allow rule cannot silence it: the command does something its words do not show (code run by a
   * prompt expansion, a function that shadows the command), so a rule matching the words proves nothing.
   */
  hard?: boolean;
  /**
   * The paths a recursive delete removes, when every one is known (as the command names them, joined to the
   * directory the script moved to). Engine-internal: decide() drops the finding when all of them are disposable
   * build output inside the working directory (disposable-deletes.ts) and never hands this field out.
   */
  deletes?: readonly string[];
  /**
   * The files a command changes, when the finding only matters outside the project (`chmod +x`): engine-internal,
   * decide() drops the finding when every one lies inside the working directory.
   */
  inProject?: readonly string[];
  /** The files a command overwrites: engine-internal, decide() drops the finding when none of them exists. */
  overwrites?: readonly string[];
  /**
   * Those of `overwrites` taken to be new files when nothing tells whether they exist (no service, or a directory
   * this host does not have): engine-internal, judged by their names (`of=blank.img` is made, `of=README.md` is there).
   */
  presumedNew?: readonly string[];
  /** A fact the service must have found for this finding to count (engine-internal; decide() drops it without). */
  when?: 'remote-credentials';
}

/** Ordering of risks, for taking the highest. */
export const RISK_ORDER: Record<Risk, number> = { low: 1, medium: 2, high: 3 };

/** The highest risk of a list, or undefined for an empty list. */
export function highestRisk(risks: Iterable<Risk | undefined | null>): Risk | undefined {
  let best: Risk | undefined;
  for (const r of risks) if (r && (!best || RISK_ORDER[r] > RISK_ORDER[best])) best = r;
  return best;
}
