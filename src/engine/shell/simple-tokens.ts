// The tokens simple-parse.ts builds its trees from: words, quotes, expansions, `$(…)`, operators, redirections, a
// trailing here-doc, and the keywords and brackets of the compound statements it builds. It refuses (undefined)
// anything tree-sitter-bash may read in a way of its own, so the builder never meets it.
import {
  AMPERSAND,
  BACKSLASH,
  BACKTICK,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  CLOSE_PAREN,
  DIGIT_0,
  DIGIT_9,
  digitLed,
  DOLLAR,
  DOUBLE_QUOTE,
  GREATER,
  isBlank,
  isInteger,
  isNameChar,
  isWordChar,
  KEYWORDS,
  LESS,
  LONGEST_RESERVED,
  nameEnd,
  NEWLINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  OPEN_PAREN,
  PIPE,
  redirectOp,
  RESERVED,
  SEMICOLON,
  SINGLE_QUOTE,
  SPACE,
  SPECIAL_PARAMETERS,
  UNDERSCORE,
} from './simple-chars.ts';
export { EQUALS, SPACE, digitLed, hasEquals, isInteger, isName, nameEnd } from './simple-chars.ts';

/**
 * A token. Words, strings, raw strings and expansions are units; units glued together make a `concat` token.
 * `parts`: a string's pieces (`content`, `expansion`, `substitution`, `dollar` for a `$` before the closing quote),
 * a concat's units, or the tokens inside a `$(…)`.
 */
export interface Token {
  kind:
    | 'word'
    | 'string'
    | 'raw'
    | 'expansion'
    | 'substitution'
    | 'concat'
    | 'content'
    | 'dollar'
    | 'op'
    | 'redirect'
    | 'heredoc'
    | 'keyword'
    | 'punct';
  start: number;
  end: number;
  fd?: number;
  opEnd?: number;
  parts?: Token[];
  /** An expansion written `${…}`. */
  braced?: boolean;
  /** An expansion of a special parameter (`$*`, `$@`, `$?`, `$_`, …). */
  special?: boolean;
  /** A here-doc's body: from the line after the operator's to the start of its end line. */
  bodyStart?: number;
  bodyEnd?: number;
}

export function tokenize(text: string): Token[] | undefined {
  if (text.charCodeAt(0) === SPACE || text.charCodeAt(text.length - 1) === SPACE) return undefined;
  const body = tokenizeFrom(text, 0, false);
  return body?.tokens;
}

/**
 * The tokens from `from` to the end of the text, or, `inner`, to the `)` closing a `$(` (its offset is `end`).
 */
function tokenizeFrom(text: string, from: number, inner: boolean): { tokens: Token[]; end: number } | undefined {
  const tokens: Token[] = [];
  const length = text.length;
  // Where the previous word or string ended (-1 at the start and after an operator or a redirection).
  let gluedEnd = -1;
  let i = from;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === SPACE) {
      i++;
      continue;
    }
    if (inner && c === CLOSE_PAREN) return { tokens, end: i };
    const start = i;
    // Tokens must be separated by a space or an operator: `a"b"` is a concatenation, `a>f` is left to tree-sitter.
    const glued = gluedEnd === start;
    const next = text.charCodeAt(i + 1);
    if (c === PIPE || c === AMPERSAND || c === SEMICOLON) {
      if ((c === AMPERSAND || c === PIPE) && next === c) {
        tokens.push({ kind: 'op', start, end: i + 2 });
        i += 2;
        gluedEnd = -1;
        continue;
      }
      if (c === AMPERSAND && next === GREATER) {
        /* `&>` redirection, below */
      } else if (c === AMPERSAND || (c === PIPE && next === AMPERSAND)) return undefined;
      else {
        tokens.push({ kind: 'op', start, end: i + 1 });
        i++;
        gluedEnd = -1;
        continue;
      }
    }
    // A here-doc ending the first line (`cat > f <<'EOF'`): its body and end line are the rest of the text.
    if (c === LESS && next === LESS && !inner && !glued) {
      if (lonePreviousDash(text, tokens)) return undefined;
      const heredoc = hereDocument(text, i);
      if (!heredoc) return undefined;
      tokens.push(heredoc);
      return { tokens, end: length };
    }
    let fd: number | undefined;
    let at = i;
    if (c >= DIGIT_0 && c <= DIGIT_9 && (next === GREATER || next === LESS)) {
      fd = c - DIGIT_0;
      at = i + 1;
    }
    const op = fd !== undefined || c === GREATER || c === LESS || c === AMPERSAND ? redirectOp(text, at) : undefined;
    if (op) {
      if (glued || (fd !== undefined && op.startsWith('&'))) return undefined;
      // tree-sitter-bash drops a lone `-` word before `2>` (`a - 2>f` has no `-` argument in its tree): left to it.
      if (fd !== undefined && lonePreviousDash(text, tokens)) return undefined;
      const after = text.charCodeAt(at + op.length);
      if (after === GREATER || after === LESS || after === AMPERSAND || after === PIPE || after === OPEN_PAREN)
        return undefined;
      const token: Token = { kind: 'redirect', start, end: at + op.length, opEnd: at + op.length };
      if (fd !== undefined) token.fd = fd;
      tokens.push(token);
      i = at + op.length;
      gluedEnd = -1;
      continue;
    }
    // `()` after a function's name, and `{` `}` standing alone: the punctuation of a function definition.
    if (c === OPEN_PAREN && next === CLOSE_PAREN && tokens.at(-1)?.kind === 'word') {
      tokens.push({ kind: 'punct', start, end: i + 1 }, { kind: 'punct', start: i + 1, end: i + 2 });
      i += 2;
      gluedEnd = -1;
      continue;
    }
    // `{` `}` of a function body, `[` `]` of a test: alone between blanks (`}` and `]` may end the line or meet `;`).
    const closes = i + 1 === length || next === SPACE || next === SEMICOLON;
    if (
      ((c === OPEN_BRACE || c === OPEN_BRACKET) && next === SPACE && !glued) ||
      ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && text.charCodeAt(i - 1) === SPACE && closes)
    ) {
      tokens.push({ kind: 'punct', start, end: i + 1 });
      i++;
      gluedEnd = -1;
      continue;
    }
    if (glued) return undefined;
    // Units glued together (`a"b"`, `$x/bin`, `--name="$x"`) are one word: a concatenation.
    const first = unit(text, i);
    if (!first) return undefined;
    i = first.end;
    let token = first;
    if (i < length && startsUnit(text.charCodeAt(i))) {
      const parts = [first];
      while (i < length && startsUnit(text.charCodeAt(i))) {
        const next = unit(text, i);
        if (!next) return undefined;
        parts.push(next);
        i = next.end;
      }
      // Digit-led and reserved pieces have shapes of their own in tree-sitter-bash: left to it.
      for (const part of parts)
        if (part.kind === 'word' && (digitLed(text, part.start) || RESERVED.has(text.slice(part.start, part.end))))
          return undefined;
      token = { kind: 'concat', start, end: i, parts };
    } else if (first.kind === 'word') {
      // Digit-led words other than plain integers (`0x1f`, `1#2`) and reserved words: tree-sitter decides, but for
      // the keywords of the statements built here (the builder refuses them anywhere else).
      if (i - start <= LONGEST_RESERVED && RESERVED.has(text.slice(start, i))) {
        if (!KEYWORDS.has(text.slice(start, i))) return undefined;
        token = { kind: 'keyword', start, end: i };
      } else if (digitLed(text, start) && !isInteger(text, start, i)) return undefined;
    }
    tokens.push(token);
    gluedEnd = i;
  }
  return inner ? undefined : { tokens, end: length };
}

/** True when a unit (word, quote, expansion) can start with this character. */
function startsUnit(c: number): boolean {
  return c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === DOLLAR || isWordChar(c);
}

/** One word, quote or expansion at `i`; undefined when it is anything else. */
function unit(text: string, i: number): Token | undefined {
  const c = text.charCodeAt(i);
  if (c === SINGLE_QUOTE) {
    const close = text.indexOf("'", i + 1);
    if (close < 0 || text.lastIndexOf('\n', close) > i) return undefined;
    return { kind: 'raw', start: i, end: close + 1 };
  }
  if (c === DOUBLE_QUOTE) return doubleQuoted(text, i);
  if (c === DOLLAR) return text.charCodeAt(i + 1) === OPEN_PAREN ? substitution(text, i) : expansion(text, i);
  let end = i;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
  return end === i ? undefined : { kind: 'word', start: i, end };
}

/**
 * `"…"` with text (escapes included), `$x` / `${x}` expansions and `$(…)` in it. tree-sitter-bash folds text that is only
 * blanks into the tokens beside it (`" $x "`, `"  "`), and backticks are its own: both left to it.
 */
function doubleQuoted(text: string, start: number): Token | undefined {
  const parts: Token[] = [];
  let segment = start + 1;
  for (let i = start + 1; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === DOUBLE_QUOTE) {
      if (i > segment) parts.push({ kind: 'content', start: segment, end: i });
      for (const part of parts) if (part.kind === 'content' && isBlank(text, part.start, part.end)) return undefined;
      return { kind: 'string', start, end: i + 1, parts };
    }
    if (c === NEWLINE || c === BACKTICK) return undefined;
    if (c === BACKSLASH) {
      // An escape (`\"`, `\$`, `\n`) is part of the text around it.
      if (i + 1 >= text.length || text.charCodeAt(i + 1) === NEWLINE) return undefined;
      i += 2;
      continue;
    }
    if (c === DOLLAR) {
      if (i > segment) parts.push({ kind: 'content', start: segment, end: i });
      if (text.charCodeAt(i + 1) === DOUBLE_QUOTE) {
        // `"^$"`: a `$` before the closing quote is a `$` leaf of its own.
        parts.push({ kind: 'dollar', start: i, end: i + 1 });
        i++;
      } else {
        const part = text.charCodeAt(i + 1) === OPEN_PAREN ? substitution(text, i) : expansion(text, i);
        if (!part) return undefined;
        parts.push(part);
        i = part.end;
      }
      segment = i;
      continue;
    }
    i++;
  }
  return undefined;
}

/** True when the last token is a lone `-` (tree-sitter-bash drops it before `2>` and `<<`). */
function lonePreviousDash(text: string, tokens: Token[]): boolean {
  const previous = tokens.at(-1);
  return previous?.kind === 'word' && previous.end - previous.start === 1 && text.charCodeAt(previous.start) === 0x2d;
}

/**
 * `<<'EOF'`, `<<"EOF"` or `<<EOF` at `i`, last on its line, with the rest of the text its body and end line (the end
 * line is the text's last). Unquoted, the body must be plain text (no `$`, backquote or backslash: tree-sitter-bash
 * splits such bodies in its own ways); `<<-`, `<< EOF` and anything after the word are left to tree-sitter.
 */
function hereDocument(text: string, i: number): Token | undefined {
  let at = i + 2;
  const quote = text.charCodeAt(at) === SINGLE_QUOTE || text.charCodeAt(at) === DOUBLE_QUOTE ? text.charCodeAt(at) : 0;
  if (quote) at++;
  const wordStart = at;
  while (at < text.length && isNameChar(text.charCodeAt(at))) at++;
  if (at === wordStart) return undefined;
  const delimiter = text.slice(wordStart, at);
  if (quote) {
    if (text.charCodeAt(at) !== quote) return undefined;
    at++;
  }
  if (text.charCodeAt(at) !== NEWLINE) return undefined;
  const bodyStart = at + 1;
  // The end line is the first line that is the delimiter, and it must end the text.
  let bodyEnd = -1;
  for (let line = bodyStart; line <= text.length;) {
    let lineEnd = text.indexOf('\n', line);
    if (lineEnd < 0) lineEnd = text.length;
    if (lineEnd - line === delimiter.length && text.startsWith(delimiter, line)) {
      bodyEnd = line;
      break;
    }
    // tree-sitter-bash also ends a here-doc at a line that starts with its word (`EOFx`, `  EOF`), where bash does not,
    // and skips blank lines at the start of the body: such bodies are left to it.
    const word = text.indexOf(delimiter, line);
    if (word >= 0 && word < lineEnd && isBlank(text, line, word)) return undefined;
    if (line === bodyStart && lineEnd === line) return undefined;
    line = lineEnd + 1;
  }
  if (bodyEnd < 0 || bodyEnd + delimiter.length !== text.length) return undefined;
  if (!quote)
    for (let k = bodyStart; k < bodyEnd; k++) {
      const b = text.charCodeAt(k);
      if (b === DOLLAR || b === BACKTICK || b === BACKSLASH) return undefined;
    }
  return { kind: 'heredoc', start: i, end: text.length, opEnd: i + 2, bodyStart, bodyEnd };
}

/** `$(…)` at `i` holding plain statements (`$((…))` is arithmetic: left to tree-sitter). */
function substitution(text: string, i: number): Token | undefined {
  if (text.charCodeAt(i + 2) === OPEN_PAREN) return undefined;
  const body = tokenizeFrom(text, i + 2, true);
  if (!body || body.tokens.length === 0) return undefined;
  return { kind: 'substitution', start: i, end: body.end + 1, parts: body.tokens };
}

/** `$name`, `$1`, `$*` (and the other special parameters) or `${name}` at `i`. */
function expansion(text: string, i: number): Token | undefined {
  const c = text.charCodeAt(i + 1);
  if (c === OPEN_BRACE) {
    const end = nameEnd(text, i + 2);
    if (end === i + 2 || text.charCodeAt(end) !== CLOSE_BRACE) return undefined;
    return { kind: 'expansion', start: i, end: end + 1, braced: true };
  }
  if (
    (i + 1 < text.length && SPECIAL_PARAMETERS.includes(text[i + 1]!)) ||
    (c === UNDERSCORE && !isNameChar(text.charCodeAt(i + 2)))
  )
    return { kind: 'expansion', start: i, end: i + 2, special: true };
  const end = nameEnd(text, i + 1);
  return end === i + 1 ? undefined : { kind: 'expansion', start: i, end };
}
