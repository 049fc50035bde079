// The functions a script defines: their bodies (walked where they are defined, and again at each call with the
// call's words), the ones that run their arguments (`run() { "$@"; }`), and the calls already walked.
import type { SyntaxNode } from './syntax.ts';
import type { Frame } from './frame.ts';
import type { ShellPath } from './types.ts';
import type { Word } from './word.ts';

export class FunctionTable {
  /** Every function the script defines (`docker() { cat; }` is not docker). */
  readonly defined = new Set<string>();
  /**
   * Functions that run their arguments as a command (`run() { echo "+ $*"; "$@"; }`): name → how many arguments
   * `shift` may drop first. A call (`run npm test`) is judged as the command it passes (command.ts).
   */
  readonly argumentRunners = new Map<string, number>();
  /** The definitions being walked, innermost last. */
  readonly #defining: { name: string; body: string }[] = [];
  /** The bodies of the functions defined so far in the scripts being walked (dropped with their script's tree). */
  readonly #bodies = new Map<string, SyntaxNode>();
  /** Functions whose body is being walked for a call (a recursive call is not walked again). */
  readonly #calling = new Set<string>();
  /** Calls already walked, and the variable names each body uses. */
  readonly #calls = new Set<string>();
  readonly #bodyNames = new WeakMap<SyntaxNode, string[]>();
  /** Paths a function's definition named through words unknown there (its parameters): settled by a call. */
  readonly #definitionPaths = new Map<string, ShellPath[]>();

  /** A definition starts being walked. */
  define(name: string, body: SyntaxNode | null | undefined): void {
    this.#defining.push({ name, body: body?.text ?? '' });
    this.defined.add(name);
    if (body) this.#bodies.set(name, body);
  }

  /** The definition is walked; `unknown`: the paths its body named through words it could not know. */
  defineDone(name: string, unknown: ShellPath[]): void {
    this.#defining.pop();
    if (unknown.length > 0) this.#definitionPaths.set(name, unknown);
  }

  /**
   * True when `word` is `"$@"` (or `$*`) run as a command inside a function being defined: the function runs its
   * arguments, and each call is judged by what it passes instead.
   */
  runsArguments(word: Word): boolean {
    const fn = this.#defining.at(-1);
    if (!fn || !/^"?\$(?:\{[@*]\}|[@*])"?$/.test(word.source)) return false;
    let shifts = 0;
    for (const m of fn.body.matchAll(/(?:^|[\s;&|{(])shift(?:\s+(\d+))?(?=$|[\s;&|})])/g)) shifts += Number(m[1] ?? 1);
    this.argumentRunners.set(fn.name, Math.max(shifts, this.argumentRunners.get(fn.name) ?? 0));
    return true;
  }

  /**
   * The body to walk for a call, or undefined: not a function of these scripts, a recursive call, or the same call
   * again (`… || log "build failed"` in every block) — same words, directory and values of the variables the body
   * names — which judges the same.
   */
  callBody(name: string, args: readonly Word[], frame: Frame): SyntaxNode | undefined {
    const body = this.#bodies.get(name);
    if (!body || this.#calling.has(name)) return undefined;
    let names = this.#bodyNames.get(body);
    if (!names)
      this.#bodyNames.set(
        body,
        (names = [...new Set([...body.text.matchAll(/\$\{?([A-Za-z_]\w*)/g)].map((m) => m[1]!))]),
      );
    if (args.some((w) => w.dynamic)) return body;
    const key = [
      name,
      frame.base ?? '',
      ...args.map((w) => w.value),
      '\u0001',
      ...names.map((n) => frame.vars.get(n) ?? '\u0002'),
    ].join('\u0000');
    if (this.#calls.has(key)) return undefined;
    this.#calls.add(key);
    return body;
  }

  /** A call with known words settles the definition's unknown paths: they are handed back (once) to be dropped. */
  settle(name: string): ShellPath[] | undefined {
    const unknown = this.#definitionPaths.get(name);
    this.#definitionPaths.delete(name);
    return unknown;
  }

  /** Runs `walk` with `name` marked as being called (a recursive call inside is not walked again). */
  calling(name: string, walk: () => void): void {
    this.#calling.add(name);
    try {
      walk();
    } finally {
      this.#calling.delete(name);
    }
  }

  /** The bodies known now, to put back when a script ends (undefined when there are none). */
  snapshot(): Map<string, SyntaxNode> | undefined {
    return this.#bodies.size > 0 ? new Map(this.#bodies) : undefined;
  }

  /** Puts back the bodies known before a script (its tree goes; a child shell's functions are not the caller's). */
  restore(before: Map<string, SyntaxNode> | undefined): void {
    this.#bodies.clear();
    if (before) for (const [name, body] of before) this.#bodies.set(name, body);
  }
}
