// Splits a multi-line script at the lines where bash is back at its top level: plain lines, which simple-parse.ts
// parses, and runs of other lines (one statement each, over as many lines as it spans), each parsed by tree-sitter
// on its own. A script of mostly plain lines is not parsed whole, and tree-sitter never sees two top-level
// statements together (tree-sitter-bash 0.25 runs some lines into the next when it does: see the walker's guard).
//
// Sound by construction, not by the heuristics below: a run starts where the script starts or after a piece that
// parsed cleanly, and the walker uses the pieces only when every run parses without an error. tree-sitter-bash
// reports an error for a construct left open at the end of a run (a quote, `$(`, `if`, `{`, a trailing `|`, `&&`
// or `\`); a here-doc it cannot close is caught by the walker (its end line must be the delimiter). So a clean
// run ends where bash is back at its top level, and the next line starts a statement of its own (a test compares
// the pieces with the whole script's tree on generated scripts). The heuristics only keep the lines of a construct
// together, so that a plain line inside it (a loop's body, a here-doc's text) does not split it and force the
// fallback: parsing the whole script at once.
import type { PlainNode } from './plain-node.ts';
import { parseSimple } from './simple-parse.ts';

/** A plain line (parsed) or a run of lines for tree-sitter; offsets into the script. */
export interface ScriptPiece {
  start: number;
  end: number;
  /** The line's tree (its own text; spans count from the line's first character); absent for a run. */
  plain?: PlainNode;
}

/**
 * The script's pieces in order, or undefined when there is nothing to split (one line, or one statement).
 * Blank lines and comment lines between pieces belong to no piece: they run nothing.
 */
export function scriptPieces(text: string): ScriptPiece[] | undefined {
  if (!text.includes('\n')) return undefined;
  const pieces: ScriptPiece[] = [];
  const run = new RunState();
  let runStart = -1;
  let runEnd = -1;
  for (let lineStart = 0; lineStart <= text.length;) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    if (runStart >= 0 && run.open()) {
      run.feed(text, lineStart, lineEnd);
      runEnd = lineEnd;
    } else {
      const start = skipBlanks(text, lineStart, lineEnd);
      const end = trimEnd(text, start, lineEnd);
      if (start === end || text.charCodeAt(start) === HASH) {
        // Blank or a comment: part of an open run's text, otherwise of nothing.
      } else {
        const plain = parseSimple(text.slice(start, end));
        if (plain) {
          if (runStart >= 0) {
            pieces.push({ start: runStart, end: runEnd });
            runStart = -1;
          }
          pieces.push({ start, end, plain });
        } else {
          // Each statement a run of its own: tree-sitter-bash 0.25 runs some lines into the next one when it parses
          // them together (`a | b | c⏎d > f` makes `d` an argument of `c`), never when they are apart.
          if (runStart >= 0) pieces.push({ start: runStart, end: runEnd });
          runStart = lineStart;
          run.reset();
          run.feed(text, lineStart, lineEnd);
          runEnd = lineEnd;
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  if (runStart >= 0) pieces.push({ start: runStart, end: runEnd });
  // One run is the whole script: nothing to split.
  return pieces.length === 0 || (pieces.length === 1 && !pieces[0]!.plain) ? undefined : pieces;
}

const HASH = 0x23,
  SPACE = 0x20,
  TAB = 0x09,
  BACKSLASH = 0x5c,
  SINGLE = 0x27,
  DOUBLE = 0x22,
  BACKTICK = 0x60,
  DOLLAR = 0x24;
const LESS = 0x3c,
  PIPE = 0x7c,
  AMPERSAND = 0x26,
  OPEN_PAREN = 0x28,
  CLOSE_PAREN = 0x29,
  OPEN_BRACE = 0x7b,
  CLOSE_BRACE = 0x7d,
  MINUS = 0x2d;
/** Characters that end a word outside quotes. */
const BREAKS = new Set([SPACE, TAB, 0x3b, AMPERSAND, PIPE, OPEN_PAREN, CLOSE_PAREN, LESS, 0x3e]);
const OPENERS = new Set(['if', 'case', 'for', 'while', 'until', 'select']);
const CLOSERS = new Set(['fi', 'esac', 'done']);
/** Words after which the next word is again in command position. */
const LEADERS = new Set(['then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', 'time']);

function skipBlanks(text: string, i: number, end: number): number {
  while (i < end && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  return i;
}

function trimEnd(text: string, start: number, end: number): number {
  while (
    end > start &&
    (text.charCodeAt(end - 1) === SPACE || text.charCodeAt(end - 1) === TAB || text.charCodeAt(end - 1) === 0x0d)
  )
    end--;
  return end;
}

/**
 * A rough lexer over the lines of a run: is a construct still open at the end of the last line fed? A wrong answer
 * costs time (a split run fails to parse and the script is parsed whole, or a run is longer than it needs to be),
 * never a wrong tree.
 */
class RunState {
  /** The quote open at the end of the last line: 0, `'`, `"`, a backtick, or DOLLAR for `$'…'`. */
  #quote = 0;
  /** Open brackets and compound keywords (`if`, `for`, `case`, … minus `fi`, `done`, `esac`). */
  #depth = 0;
  /** Open `case` statements: their patterns' `)` are not brackets. */
  #cases = 0;
  /** Here-doc delimiters whose end line has not come yet, in order; with `<<-` leading tabs are stripped. */
  #heredocs: { word: string; tabs: boolean }[] = [];
  /** The last line ended with `\`, `|`, `&&` or `||`: the statement goes on. */
  #continued = false;

  reset(): void {
    this.#quote = 0;
    this.#depth = 0;
    this.#cases = 0;
    this.#heredocs = [];
    this.#continued = false;
  }

  open(): boolean {
    return this.#quote !== 0 || this.#depth > 0 || this.#heredocs.length > 0 || this.#continued;
  }

  feed(text: string, start: number, end: number): void {
    const heredoc = this.#heredocs[0];
    if (heredoc) {
      // A here-doc body line: only its end line matters.
      const from = heredoc.tabs ? skipTabs(text, start, end) : start;
      if (text.slice(from, end) === heredoc.word) this.#heredocs.shift();
      return;
    }
    this.#continued = false;
    let commandPosition = this.#quote === 0;
    let last = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (this.#quote !== 0) {
        if (c === BACKSLASH && this.#quote !== SINGLE) {
          i++;
          if (i >= end) this.#continued = true;
          continue;
        }
        if (c === (this.#quote === DOLLAR ? SINGLE : this.#quote)) this.#quote = 0;
        continue;
      }
      if (c === SPACE || c === TAB || c === 0x0d) continue;
      last = c;
      if (c === BACKSLASH) {
        i++;
        if (i >= end) this.#continued = true;
        continue;
      }
      if (c === SINGLE || c === DOUBLE || c === BACKTICK) {
        this.#quote = c;
        continue;
      }
      if (c === DOLLAR && text.charCodeAt(i + 1) === SINGLE) {
        this.#quote = DOLLAR;
        i++;
        continue;
      }
      if (c === HASH && (i === start || BREAKS.has(text.charCodeAt(i - 1)))) break;
      if (c === LESS && text.charCodeAt(i + 1) === LESS && text.charCodeAt(i + 2) !== LESS) {
        i = this.#heredoc(text, i + 2, end) - 1;
        continue;
      }
      if (c === OPEN_PAREN || c === OPEN_BRACE) {
        if (this.#cases === 0 || c === OPEN_BRACE) this.#depth++;
        commandPosition = true;
        continue;
      }
      if (c === CLOSE_PAREN || c === CLOSE_BRACE) {
        if (this.#cases === 0 || c === CLOSE_BRACE) this.#depth = Math.max(0, this.#depth - 1);
        commandPosition = c === CLOSE_PAREN;
        continue;
      }
      if (BREAKS.has(c)) {
        commandPosition = true;
        continue;
      }
      let j = i;
      while (j < end && !BREAKS.has(text.charCodeAt(j)) && !isQuoteOrBrace(text.charCodeAt(j))) j++;
      if (j === i) continue;
      const word = text.slice(i, j);
      if (commandPosition && OPENERS.has(word)) {
        this.#depth++;
        if (word === 'case') this.#cases++;
      } else if (commandPosition && CLOSERS.has(word)) {
        this.#depth = Math.max(0, this.#depth - 1);
        if (word === 'esac') this.#cases = Math.max(0, this.#cases - 1);
      }
      commandPosition = LEADERS.has(word);
      last = text.charCodeAt(j - 1);
      i = j - 1;
    }
    if (last === PIPE || (last === AMPERSAND && text.charCodeAt(trimEnd(text, start, end) - 2) === AMPERSAND))
      this.#continued = true;
  }

  /** Reads a here-doc operator's delimiter after `<<` (quotes removed); returns where the word ends. */
  #heredoc(text: string, i: number, end: number): number {
    let tabs = false;
    if (text.charCodeAt(i) === MINUS) {
      tabs = true;
      i++;
    }
    i = skipBlanks(text, i, end);
    let word = '';
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === SINGLE || c === DOUBLE) {
        const close = text.indexOf(text[i]!, i + 1);
        if (close < 0 || close > end) {
          i = end;
          break;
        }
        word += text.slice(i + 1, close);
        i = close + 1;
      } else if (c === BACKSLASH) {
        word += text[i + 1] ?? '';
        i += 2;
      } else if (BREAKS.has(c)) break;
      else {
        word += text[i];
        i++;
      }
    }
    // An operator without a word (`<<` in arithmetic, or a syntax error): the run stays open to the end, which is safe.
    this.#heredocs.push({ word: word || '\u0000', tabs });
    return i;
  }
}

function isQuoteOrBrace(c: number): boolean {
  return (
    c === SINGLE ||
    c === DOUBLE ||
    c === BACKTICK ||
    c === OPEN_BRACE ||
    c === CLOSE_BRACE ||
    c === HASH ||
    c === DOLLAR
  );
}

function skipTabs(text: string, i: number, end: number): number {
  while (i < end && text.charCodeAt(i) === TAB) i++;
  return i;
}
