// Secrets a script holds and prints: variables and files holding one, and "printed a secret" findings held aside
// until it is known whether what the command prints reaches the agent (a file, a `$(…)` or a keeper may take it).
import type { Finding } from '../types.ts';
import { PRINTED_SECRETS } from '../catalog/danger-secrets.ts';

/** A printed-secret finding held aside; `at` is how many other findings came before it (its place in the list). */
interface Held {
  finding: Finding;
  at: number;
  /** Its output went somewhere else than to the agent: it is never reported. */
  captured: boolean;
}

/**
 * Where a piece of script prints (a pipeline stage, a `$(…)`, a group whose output is redirected, a function body):
 * the printed-secret findings raised while it runs are held in it until the walker knows where its output goes.
 */
export class Output {
  readonly held: Held[] = [];
  constructor(readonly parent: Output | undefined) {}
}

/**
 * The secret tracker. Findings are only ever added: a printed secret is held in the output it is printed into, and
 * that output is either captured (its findings are never reported) or passed on to the output around it; whatever
 * is not captured is reported, in the place it was raised (`reported`). An analysis that stops halfway reports
 * everything not yet captured, as the output would have been printed.
 */
export class SecretTracker {
  /** Variables holding a secret copied from one (`x=$GITHUB_TOKEN`): printing them prints it. */
  readonly vars = new Set<string>();
  /** Files a secret was written into (`echo "$GITHUB_TOKEN" > /tmp/t`): printing one prints the secret. */
  readonly files = new Set<string>();
  /** Every printed-secret finding raised, in order. */
  readonly #all: Held[] = [];
  #current = new Output(undefined);

  /** A secret was written into the file at `path` (as written): printing it prints the secret. */
  wroteTo(path: string): void {
    this.files.add(path.replace(/^\.\//, ''));
  }

  /** True for a finding that prints a secret: held by `hold` instead of reported at once. */
  static isPrint(finding: Finding): boolean {
    return PRINTED_SECRETS.has(finding.id);
  }

  /** Holds a printed-secret finding in the current output; `at`: how many other findings were raised before it. */
  hold(finding: Finding, at: number): void {
    const held: Held = { finding, at, captured: false };
    this.#all.push(held);
    this.#current.held.push(held);
  }

  /** Starts a new output inside the current one: what is printed now is held there. */
  open(): Output {
    this.#current = new Output(this.#current);
    return this.#current;
  }

  /** Stops printing into `output` (back to the one around it); what it holds waits for `capture` or `release`. */
  close(output: Output): void {
    this.#current = output.parent ?? output;
  }

  /** What `output` printed goes elsewhere than to the agent (a file, a `$(…)`, a keeper); true when it held any. */
  capture(output: Output): boolean {
    for (const h of output.held) h.captured = true;
    const any = output.held.length > 0;
    output.held.length = 0;
    return any;
  }

  /** What `output` printed goes to the output around it. */
  release(output: Output): void {
    output.parent?.held.push(...output.held);
    output.held.length = 0;
  }

  /** `run` inside an output of its own, closed after it (also when it throws); returns run's value. */
  within<T>(run: () => T): { value: T; output: Output } {
    const output = this.open();
    try {
      return { value: run(), output };
    } finally {
      this.close(output);
    }
  }

  /** The findings with the printed secrets not captured put back in their places (`findings` holds the others). */
  reported(findings: Finding[]): Finding[] {
    if (this.#all.length === 0) return findings;
    const out: Finding[] = [];
    let next = 0;
    for (const h of this.#all) {
      if (h.captured) continue;
      while (next < h.at) out.push(findings[next++]!);
      out.push(h.finding);
    }
    while (next < findings.length) out.push(findings[next++]!);
    return out;
  }
}
