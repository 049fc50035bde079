// What simple-tokens.ts classifies characters and words by: plain-word characters, the character codes it compares,
// the reserved words it leaves to tree-sitter-bash, the keywords it builds, variable names and redirection operators.

/** True when text[start, end) is an integer, optionally negative (`-1`, `42`), without slicing it. */
export function isInteger(text: string, start: number, end: number): boolean {
  let i = text[start] === '-' ? start + 1 : start;
  if (i >= end) return false;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** True when the word at `start` begins with a digit, or with `-` and a digit. */
export function digitLed(text: string, start: number): boolean {
  const c = text.charCodeAt(text[start] === '-' ? start + 1 : start);
  return c >= 48 && c <= 57;
}

/** True when text[start, end) contains `=`. */
export function hasEquals(text: string, start: number, end: number): boolean {
  const at = text.indexOf('=', start);
  return at >= 0 && at < end;
}

/** Characters of a plain word: nothing the shell expands, quotes, escapes, globs or treats as syntax. */
const WORD_CHARS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:@%+~=-*?')
  WORD_CHARS[c.charCodeAt(0)] = 1;

export function isWordChar(code: number): boolean {
  return code < 128 && WORD_CHARS[code] === 1;
}

// Character codes the tokenizer compares (it reads codes, not one-character strings: it runs on every command line).
export const SPACE = 0x20,
  NEWLINE = 0x0a,
  PIPE = 0x7c,
  AMPERSAND = 0x26,
  SEMICOLON = 0x3b,
  GREATER = 0x3e,
  LESS = 0x3c,
  OPEN_PAREN = 0x28,
  CLOSE_PAREN = 0x29;
export const DOUBLE_QUOTE = 0x22,
  SINGLE_QUOTE = 0x27,
  DOLLAR = 0x24,
  BACKTICK = 0x60,
  BACKSLASH = 0x5c,
  DIGIT_0 = 0x30,
  DIGIT_9 = 0x39;
export const OPEN_BRACE = 0x7b,
  CLOSE_BRACE = 0x7d,
  OPEN_BRACKET = 0x5b,
  CLOSE_BRACKET = 0x5d,
  UNDERSCORE = 0x5f;
/** `=`, which the builder looks for after a variable name. */
export const EQUALS = 0x3d;
/** Special parameters one character long (`$_` only when no name character follows: `$_x` is a variable). */
export const SPECIAL_PARAMETERS = '*@#?$!-';
/** Words tree-sitter-bash may read as syntax (keywords, declarations) in some position: left to tree-sitter. */
export const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
  'declare',
  'typeset',
  'export',
  'readonly',
  'local',
  'unset',
  'unsetenv',
]);
export const LONGEST_RESERVED = Math.max(...[...RESERVED].map((w) => w.length));
/** Reserved words of the compound statements built here (`for`, `if`): tokens of their own. */
export const KEYWORDS = new Set(['for', 'in', 'do', 'done', 'if', 'then', 'elif', 'else', 'fi']);
/** Redirection operators handled here (the longest first); a descriptor digit may precede the first four. */
const REDIRECT_OPS = ['>>', '>&', '>', '<', '&>>', '&>'];

/** Where a variable name (`[A-Za-z_][A-Za-z0-9_]*`) or a positional parameter (digits) starting at `i` ends. */
export function nameEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  let end = i;
  if (c >= DIGIT_0 && c <= DIGIT_9) {
    while (end < text.length && text.charCodeAt(end) >= DIGIT_0 && text.charCodeAt(end) <= DIGIT_9) end++;
    return end;
  }
  if (!(isNameChar(c) && !(c >= DIGIT_0 && c <= DIGIT_9))) return i;
  while (end < text.length && isNameChar(text.charCodeAt(end))) end++;
  return end;
}

export function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= DIGIT_0 && c <= DIGIT_9) || c === UNDERSCORE;
}

/** True when text[start, end) is a variable name (`[A-Za-z_][A-Za-z0-9_]*`). */
export function isName(text: string, start: number, end: number): boolean {
  return end > start && nameEnd(text, start) === end && !digitLed(text, start);
}

/** True when text[start, end) is only spaces and tabs. */
export function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== 0x09) return false;
  }
  return true;
}

/** The redirection operator at `at`, if one is there. */
export function redirectOp(text: string, at: number): string | undefined {
  for (const op of REDIRECT_OPS) if (text.startsWith(op, at)) return op;
  return undefined;
}
