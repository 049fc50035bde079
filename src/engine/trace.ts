// The explanation of a decision: what each stage of the pipeline saw and whether it decided.

/** One stage's account, in pipeline order. */
export interface TraceStep {
  stage:
    | 'normalize'
    | 'protected_path'
    | 'deny_rules'
    | 'read_only'
    | 'allow_rules'
    | 'ask_rules'
    | 'danger'
    | 'unmatched'
    | 'mode'
    | 'fallback'
    | 'plugin';
  /** `decided` when this stage produced the decision, `passed` when it looked and did not. */
  outcome: 'decided' | 'passed' | 'skipped';
  detail: string;
}

/**
 * Collects trace steps. A decision makes one only when asked to explain and writes `trace?.add(…)`: without a
 * trace the optional call evaluates none of its arguments, so the hot path builds no detail text and no closure.
 */
export class Trace {
  readonly steps: TraceStep[] = [];
  add(stage: TraceStep['stage'], outcome: TraceStep['outcome'], detail: string): void {
    this.steps.push({ stage, outcome, detail });
  }
}
