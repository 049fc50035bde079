// How large one analysis may grow: the sizes words, variables and arrays may expand to, and the abort that stops it.

/** Why an analysis stopped: too deep, too slow, too large, or not parseable. */
export class AnalysisAbort extends Error {
  /** True for time limits: a retry may succeed, so the result is not cached. */
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

/** The words every size abort starts with (the decision's reason reads "…could not be analysed: too large to analyse: …"). */
export const TOO_LARGE = 'too large to analyse';

/** The abort for an expansion past a limit: the call is asked about, never allowed on a partial analysis. */
export function tooLarge(what: string): AnalysisAbort {
  return new AnalysisAbort(`${TOO_LARGE}: ${what}`);
}

/**
 * Size limits of one analysis. Bash itself would expand `a=x; a="$a$a"` thirty times to a gigabyte: the analyzer
 * follows variables, substitutions, brace expansion and arrays statically, so each is bounded, and past a bound the
 * analysis stops (the call is asked about: `unanalysable-command`), instead of growing until the process dies.
 */
export interface ExpansionLimits {
  /** Longest value of one variable, one resolved word or one file written with known contents, in characters. */
  maxWordChars: number;
  /** Characters all expansions of one analysis may produce together (variable values, substitution outputs, brace words). */
  maxExpandedChars: number;
  /** Most elements of one array, and most words one brace expression expands to. */
  maxArrayLength: number;
  /**
   * Words all expansions of one analysis may produce together (`x="a b c …"; cat $x $x …`: every word is a path
   * to check after the analysis, outside its time budget).
   */
  maxExpandedWords: number;
}

/** The defaults: far above what agents' commands expand to (a 64 KiB command's largest literal word fits). */
export const DEFAULT_EXPANSION_LIMITS: ExpansionLimits = Object.freeze({
  maxWordChars: 64 * 1024,
  maxExpandedChars: 1024 * 1024,
  maxArrayLength: 1024,
  maxExpandedWords: 8192,
});

/** Counts what one analysis expands; throws `too large to analyse` past a limit. */
export class ExpansionBudget {
  #used = 0;
  #words = 0;

  constructor(readonly limits: ExpansionLimits) {}

  /** Characters expanded so far. */
  get used(): number {
    return this.#used;
  }

  /** Charges `chars` characters an expansion produced (a variable's value put in a word, a brace word, …). */
  charge(chars: number): void {
    this.#used += chars;
    if (this.#used > this.limits.maxExpandedChars)
      throw tooLarge(`its expansions would exceed ${this.limits.maxExpandedChars} characters`);
  }

  /** Counts `count` words an expansion produced (field splitting, brace expansion, an array's elements). */
  words(count: number): void {
    this.#words += count;
    if (this.#words > this.limits.maxExpandedWords)
      throw tooLarge(`its expansions would make more than ${this.limits.maxExpandedWords} words`);
  }

  /** A variable's value, a word or a file's contents of `chars` characters: within `maxWordChars`, or abort. */
  word(chars: number, what = 'a word'): void {
    if (chars > this.limits.maxWordChars) throw tooLarge(`${what} would exceed ${this.limits.maxWordChars} characters`);
  }

  /** An array (or a brace expansion) of `length` elements: within `maxArrayLength`, or abort. */
  array(length: number, what = 'an array'): void {
    if (length > this.limits.maxArrayLength)
      throw tooLarge(`${what} would exceed ${this.limits.maxArrayLength} elements`);
  }
}
