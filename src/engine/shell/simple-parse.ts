// Parses the plainest command lines without tree-sitter: plain words, quotes, variable expansions (`$x`, `${x}`,
// `"a $x"`), words glued together (`--name="$x"`), assignments (`X="$HOME/a"`), `|`, `&&`, `||`, `;` and simple
// redirections. It builds exactly the tree tree-sitter-bash builds for them (a test checks that on every corpus
// command and on generated ones) and returns undefined for anything else.
// Inside a script tree-sitter did parse, the plain statements are rebuilt here too (parseSimpleStatement).
import type { SyntaxNode } from './syntax.ts';

/** A syntax node built here: same types, spans and fields as tree-sitter-bash's. */
export class PlainNode implements SyntaxNode {
  readonly namedChildren: readonly PlainNode[];

  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly source: string,
    readonly isNamed: boolean,
    readonly children: readonly PlainNode[] = NONE,
    /** The field of each child, by position (undefined: none). */
    readonly fields: readonly (string | undefined)[] = NONE,
  ) {
    this.namedChildren = allNamed(children) ? children : children.filter((c) => c.isNamed);
  }

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get firstNamedChild(): PlainNode | undefined {
    return this.namedChildren[0];
  }

  childForFieldName(field: string): PlainNode | undefined {
    const i = this.fields.indexOf(field);
    return i < 0 ? undefined : this.children[i];
  }
}

/** True when no child is anonymous (a loop: this runs for every node built). */
function allNamed(children: readonly PlainNode[]): boolean {
  for (let i = 0; i < children.length; i++) if (!children[i]!.isNamed) return false;
  return true;
}

/** True when text[start, end) is an integer, optionally negative (`-1`, `42`), without slicing it. */
function isInteger(text: string, start: number, end: number): boolean {
  let i = text[start] === '-' ? start + 1 : start;
  if (i >= end) return false;
  for (; i < end; i++) { const c = text.charCodeAt(i); if (c < 48 || c > 57) return false; }
  return true;
}

/** True when the word at `start` begins with a digit, or with `-` and a digit. */
function digitLed(text: string, start: number): boolean {
  const c = text.charCodeAt(text[start] === '-' ? start + 1 : start);
  return c >= 48 && c <= 57;
}

/** True when text[start, end) contains `=`. */
function hasEquals(text: string, start: number, end: number): boolean {
  const at = text.indexOf('=', start);
  return at >= 0 && at < end;
}

/** The children and fields of a leaf (shared: most nodes are leaves). */
const NONE: readonly never[] = Object.freeze([]);

/** Characters of a plain word: nothing the shell expands, quotes, escapes, globs or treats as syntax. */
const WORD_CHARS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:@%+~=-*?') WORD_CHARS[c.charCodeAt(0)] = 1;

function isWordChar(code: number): boolean {
  return code < 128 && WORD_CHARS[code] === 1;
}

// Character codes the tokenizer compares (it reads codes, not one-character strings: it runs on every command line).
const SPACE = 0x20, NEWLINE = 0x0a, PIPE = 0x7c, AMPERSAND = 0x26, SEMICOLON = 0x3b, GREATER = 0x3e, LESS = 0x3c, OPEN_PAREN = 0x28, CLOSE_PAREN = 0x29;
const DOUBLE_QUOTE = 0x22, SINGLE_QUOTE = 0x27, DOLLAR = 0x24, BACKTICK = 0x60, BACKSLASH = 0x5c, DIGIT_0 = 0x30, DIGIT_9 = 0x39;
const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d, UNDERSCORE = 0x5f, EQUALS = 0x3d;
/** Special parameters one character long (`$_` only when no name character follows: `$_x` is a variable). */
const SPECIAL_PARAMETERS = '*@#?$!-';
/** Words tree-sitter-bash may read as syntax (keywords, declarations) in some position: left to tree-sitter. */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv']);
const LONGEST_RESERVED = Math.max(...[...RESERVED].map((w) => w.length));
/** Reserved words of the compound statements built here (`for`, `if`): tokens of their own. */
const KEYWORDS = new Set(['for', 'in', 'do', 'done', 'if', 'then', 'elif', 'else', 'fi']);
/** The keywords that end the statements of an `if` clause. */
const CLAUSE_ENDS = new Set(['elif', 'else', 'fi']);
/** The unary operators of `[ … ]` built here (`[ -f x ]`); other tests are left to tree-sitter. */
const TEST_OPERATOR = /^-[a-zA-Z]$/;
/** Redirection operators handled here (the longest first); a descriptor digit may precede the first four. */
const REDIRECT_OPS = ['>>', '>&', '>', '<', '&>>', '&>'];

/**
 * A token. Words, strings, raw strings and expansions are units; units glued together make a `concat` token.
 * `parts`: a string's pieces (`content`, `expansion`, `substitution`, `dollar` for a `$` before the closing quote),
 * a concat's units, or the tokens inside a `$(…)`.
 */
interface Token {
  kind: 'word' | 'string' | 'raw' | 'expansion' | 'substitution' | 'concat' | 'content' | 'dollar' | 'op' | 'redirect' | 'heredoc' | 'keyword' | 'punct';
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

/** The tree tree-sitter-bash would build for `text`, when the text is plain enough; otherwise undefined. */
export function parseSimple(text: string): PlainNode | undefined {
  // Long lines are left to tree-sitter (a statement inside a parsed script is re-read at each level it fails at);
  // a here-doc's body after the first line is only scanned for its end line.
  const firstLine = text.indexOf('\n');
  if (text.length === 0 || (firstLine < 0 ? text.length : firstLine) > 512) return undefined;
  const tokens = tokenize(text);
  if (!tokens) return undefined;
  return new Builder(text, tokens).program();
}

/** Statement types whose plain instances parseSimpleStatement rebuilds. */
export const PLAIN_STATEMENT_TYPES: ReadonlySet<string> = new Set(['command', 'redirected_statement', 'pipeline', 'list', 'variable_assignment']);

/**
 * A statement of a larger tree-sitter tree rebuilt from its text: tree-sitter-bash parses a plain statement the same
 * wherever it stands (in a function, a loop, `$(…)`), so when its text alone is one plain statement of the same
 * type, this is its subtree (spans counted from the start of `text`) without reading it node by node from wasm.
 */
export function parseSimpleStatement(text: string, type: string): PlainNode | undefined {
  const program = parseSimple(text);
  if (!program || program.children.length !== 1) return undefined;
  const statement = program.children[0]!;
  return statement.type === type ? statement : undefined;
}

function tokenize(text: string): Token[] | undefined {
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
    if (c === SPACE) { i++; continue; }
    if (inner && c === CLOSE_PAREN) return { tokens, end: i };
    const start = i;
    // Tokens must be separated by a space or an operator: `a"b"` is a concatenation, `a>f` is left to tree-sitter.
    const glued = gluedEnd === start;
    const next = text.charCodeAt(i + 1);
    if (c === PIPE || c === AMPERSAND || c === SEMICOLON) {
      if ((c === AMPERSAND || c === PIPE) && next === c) { tokens.push({ kind: 'op', start, end: i + 2 }); i += 2; gluedEnd = -1; continue; }
      if (c === AMPERSAND && next === GREATER) { /* `&>` redirection, below */ } else if (c === AMPERSAND || (c === PIPE && next === AMPERSAND)) return undefined;
      else { tokens.push({ kind: 'op', start, end: i + 1 }); i++; gluedEnd = -1; continue; }
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
    if (c >= DIGIT_0 && c <= DIGIT_9 && (next === GREATER || next === LESS)) { fd = c - DIGIT_0; at = i + 1; }
    const op = fd !== undefined || c === GREATER || c === LESS || c === AMPERSAND ? redirectOp(text, at) : undefined;
    if (op) {
      if (glued || (fd !== undefined && op.startsWith('&'))) return undefined;
      // tree-sitter-bash drops a lone `-` word before `2>` (`a - 2>f` has no `-` argument in its tree): left to it.
      if (fd !== undefined && lonePreviousDash(text, tokens)) return undefined;
      const after = text.charCodeAt(at + op.length);
      if (after === GREATER || after === LESS || after === AMPERSAND || after === PIPE || after === OPEN_PAREN) return undefined;
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
    const closes = (i + 1 === length || next === SPACE || next === SEMICOLON);
    if (((c === OPEN_BRACE || c === OPEN_BRACKET) && next === SPACE && !glued) || ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && text.charCodeAt(i - 1) === SPACE && closes)) {
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
      for (const part of parts) if (part.kind === 'word' && (digitLed(text, part.start) || RESERVED.has(text.slice(part.start, part.end)))) return undefined;
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
  if (quote) { if (text.charCodeAt(at) !== quote) return undefined; at++; }
  if (text.charCodeAt(at) !== NEWLINE) return undefined;
  const bodyStart = at + 1;
  // The end line is the first line that is the delimiter, and it must end the text.
  let bodyEnd = -1;
  for (let line = bodyStart; line <= text.length;) {
    let lineEnd = text.indexOf('\n', line);
    if (lineEnd < 0) lineEnd = text.length;
    if (lineEnd - line === delimiter.length && text.startsWith(delimiter, line)) { bodyEnd = line; break; }
    // tree-sitter-bash also ends a here-doc at a line that starts with its word (`EOFx`, `  EOF`), where bash does not,
    // and skips blank lines at the start of the body: such bodies are left to it.
    const word = text.indexOf(delimiter, line);
    if (word >= 0 && word < lineEnd && isBlank(text, line, word)) return undefined;
    if (line === bodyStart && lineEnd === line) return undefined;
    line = lineEnd + 1;
  }
  if (bodyEnd < 0 || bodyEnd + delimiter.length !== text.length) return undefined;
  if (!quote) for (let k = bodyStart; k < bodyEnd; k++) { const b = text.charCodeAt(k); if (b === DOLLAR || b === BACKTICK || b === BACKSLASH) return undefined; }
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
  if ((i + 1 < text.length && SPECIAL_PARAMETERS.includes(text[i + 1]!)) || (c === UNDERSCORE && !isNameChar(text.charCodeAt(i + 2)))) return { kind: 'expansion', start: i, end: i + 2, special: true };
  const end = nameEnd(text, i + 1);
  return end === i + 1 ? undefined : { kind: 'expansion', start: i, end };
}

/** Where a variable name (`[A-Za-z_][A-Za-z0-9_]*`) or a positional parameter (digits) starting at `i` ends. */
function nameEnd(text: string, i: number): number {
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

function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= DIGIT_0 && c <= DIGIT_9) || c === UNDERSCORE;
}

/** True when text[start, end) is a variable name (`[A-Za-z_][A-Za-z0-9_]*`). */
function isName(text: string, start: number, end: number): boolean {
  return end > start && nameEnd(text, start) === end && !digitLed(text, start);
}

/** True when text[start, end) is only spaces and tabs. */
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) { const c = text.charCodeAt(i); if (c !== SPACE && c !== 0x09) return false; }
  return true;
}

/** Builds program → statements → lists → pipelines → commands, as tree-sitter-bash nests them. */
class Builder {
  #next = 0;

  constructor(readonly text: string, readonly tokens: Token[]) {}

  program(): PlainNode | undefined {
    // A trailing `;` leaves its statement missing (undefined); another operator left over is tree-sitter's.
    const children = this.#separated(';');
    if (!children || this.#next < this.tokens.length) return undefined;
    return new PlainNode('program', 0, this.text.length, this.text, true, children);
  }

  /** `item (separator item)*`: the items with the separator leaves between them; undefined if an item is not plain. */
  #separated(separator: ';' | '|'): PlainNode[] | undefined {
    const nodes: PlainNode[] = [];
    for (;;) {
      // Statements split by `;`, pipeline stages by `|` (no closure per call: this runs for every statement).
      const node = separator === ';' ? this.#statement() : this.#command();
      if (!node) return undefined;
      nodes.push(node);
      const t = this.tokens[this.#next];
      if (!t || this.#op(t) !== separator) return nodes;
      nodes.push(this.#leaf(t, false));
      this.#next++;
    }
  }

  /**
   * `a | b && c || d`: pipelines joined left to right into nested lists. A redirection after any command but the
   * first of a statement belongs to everything before it in tree-sitter-bash (`a | b > f | c` redirects `a | b`,
   * `a && b > f` the list): those shapes are left to it.
   */
  #statement(): PlainNode | undefined {
    const compound = this.#compound();
    if (compound !== undefined) {
      // A function or loop is a statement alone here (`f() { …; } > f`, `for …; done | x` are left to tree-sitter).
      const after = this.tokens[this.#next];
      return compound && (!after || this.#op(after) === ';') ? compound : undefined;
    }
    let left = this.#pipeline();
    if (!left) return undefined;
    for (;;) {
      const t = this.tokens[this.#next];
      const op = t && this.#op(t);
      if (op !== '&&' && op !== '||') return left;
      this.#next++;
      const right = this.#pipeline();
      if (!right || hasRedirect(right)) return undefined;
      left = new PlainNode('list', left.startIndex, right.endIndex, this.text, true, [left, this.#leaf(t!, false), right]);
    }
  }

  /**
   * `name() { …; }` and `for x in …; do …; done` at the next token: the node; null when it starts one but is not
   * plain; undefined when it is no such statement.
   */
  #compound(): PlainNode | null | undefined {
    const t = this.tokens[this.#next];
    if (!t) return undefined;
    if (t.kind === 'keyword' && this.#text(t) === 'for') return this.#for() ?? null;
    if (t.kind === 'keyword' && this.#text(t) === 'if') return this.#if() ?? null;
    const open = this.tokens[this.#next + 1];
    if (t.kind === 'word' && open?.kind === 'punct' && this.#text(open) === '(') return this.#function() ?? null;
    return undefined;
  }

  #function(): PlainNode | undefined {
    const name = this.tokens[this.#next]!;
    if (!isName(this.text, name.start, name.end)) return undefined;
    const open = this.tokens[this.#next + 1]!;
    const close = this.tokens[this.#next + 2];
    this.#next += 3;
    const body = this.#block('{', '}', 'compound_statement');
    if (!body || !close) return undefined;
    return new PlainNode('function_definition', name.start, body.endIndex, this.text, true,
      [new PlainNode('word', name.start, name.end, this.text, true), this.#leaf(open, false), this.#leaf(close, false), body], ['name', undefined, undefined, 'body']);
  }

  /** `for name in word…; do …; done`. */
  #for(): PlainNode | undefined {
    const start = this.tokens[this.#next]!;
    const variable = this.tokens[this.#next + 1];
    const keyword = this.tokens[this.#next + 2];
    if (variable?.kind !== 'word' || !isName(this.text, variable.start, variable.end) || keyword?.kind !== 'keyword' || this.#text(keyword) !== 'in') return undefined;
    this.#next += 3;
    const children = [this.#leaf(start, false), new PlainNode('variable_name', variable.start, variable.end, this.text, true), this.#leaf(keyword, false)];
    const fields: (string | undefined)[] = [undefined, 'variable', undefined];
    for (let t = this.tokens[this.#next]; t && t.kind !== 'op' && t.kind !== 'keyword' && t.kind !== 'punct' && t.kind !== 'redirect'; t = this.tokens[++this.#next]) {
      const word = this.#word(t);
      if (!word) return undefined;
      children.push(word);
      fields.push('value');
    }
    const semicolon = this.tokens[this.#next];
    if (children.length === 3 || !semicolon || this.#op(semicolon) !== ';') return undefined;
    children.push(this.#leaf(semicolon, false));
    fields.push(undefined);
    this.#next++;
    const body = this.#block('do', 'done', 'do_group');
    if (!body) return undefined;
    children.push(body);
    fields.push('body');
    return new PlainNode('for_statement', start.start, body.endIndex, this.text, true, children, fields);
  }

  /** `if …; then …; [elif …; then …;]… [else …;] fi`. */
  #if(): PlainNode | undefined {
    const start = this.tokens[this.#next++]!;
    const first = this.#conditional();
    if (!first) return undefined;
    const children = [this.#leaf(start, false), ...first];
    // tree-sitter-bash's condition field covers the condition and its `;`.
    const fields: (string | undefined)[] = [undefined, 'condition', 'condition', ...first.slice(2).map(() => undefined)];
    for (let t = this.tokens[this.#next]; t?.kind === 'keyword' && this.#text(t) === 'elif'; t = this.tokens[this.#next]) {
      this.#next++;
      const clause = this.#conditional();
      if (!clause) return undefined;
      children.push(new PlainNode('elif_clause', t.start, clause.at(-1)!.endIndex, this.text, true, [this.#leaf(t, false), ...clause]));
      fields.push(undefined);
    }
    const otherwise = this.tokens[this.#next];
    if (otherwise?.kind === 'keyword' && this.#text(otherwise) === 'else') {
      this.#next++;
      const elseBody = this.#terminated();
      if (!elseBody) return undefined;
      children.push(new PlainNode('else_clause', otherwise.start, elseBody.at(-1)!.endIndex, this.text, true, [this.#leaf(otherwise, false), ...elseBody]));
      fields.push(undefined);
    }
    const fi = this.#keyword('fi');
    if (!fi) return undefined;
    children.push(fi);
    fields.push(undefined);
    return new PlainNode('if_statement', start.start, fi.endIndex, this.text, true, children, fields);
  }

  /** `condition; then statements;` (of an `if` or an `elif`): the condition, `;`, `then` and the statements with their `;`. */
  #conditional(): PlainNode[] | undefined {
    const condition = this.#statement();
    const semicolon = this.tokens[this.#next];
    if (!condition || !semicolon || this.#op(semicolon) !== ';') return undefined;
    this.#next++;
    const then = this.#keyword('then');
    const body = then && this.#terminated();
    return body && [condition, this.#leaf(semicolon, false), then!, ...body];
  }

  /** The keyword `word` at the next token, consumed, as a leaf; undefined when it is not there. */
  #keyword(word: string): PlainNode | undefined {
    const t = this.tokens[this.#next];
    if (t?.kind !== 'keyword' || this.#text(t) !== word) return undefined;
    this.#next++;
    return this.#leaf(t, false);
  }

  /** Statements each ended by `;` up to the next keyword (`elif`, `else`, `fi`): statements and `;` leaves. */
  #terminated(): PlainNode[] | undefined {
    const children: PlainNode[] = [];
    for (;;) {
      const statement = this.#statement();
      const semicolon = this.tokens[this.#next];
      if (!statement || !semicolon || this.#op(semicolon) !== ';') return undefined;
      this.#next++;
      children.push(statement, this.#leaf(semicolon, false));
      const next = this.tokens[this.#next];
      if (!next) return undefined;
      if (next.kind === 'keyword' && CLAUSE_ENDS.has(this.#text(next))) return children;
    }
  }

  /** `[ x ]`, `[ -f x ]` or `[ a = b ]`: a test_command (`==` makes its right side a pattern: left to tree-sitter). */
  #test(): PlainNode | undefined {
    const open = this.tokens[this.#next]!;
    const parts: Token[] = [];
    let close: Token | undefined;
    for (let t = this.tokens[++this.#next]; t; t = this.tokens[++this.#next]) {
      if (t.kind === 'punct' && this.#text(t) === ']') { close = t; this.#next++; break; }
      if (t.kind === 'op' || t.kind === 'redirect' || t.kind === 'keyword' || t.kind === 'punct') return undefined;
      parts.push(t);
    }
    if (!close) return undefined;
    let expression: PlainNode | undefined;
    const [a, b, c] = parts;
    if (parts.length === 1) expression = this.#word(a!);
    else if (parts.length === 2 && a!.kind === 'word' && TEST_OPERATOR.test(this.#text(a!))) {
      const operand = this.#word(b!);
      if (operand) expression = new PlainNode('unary_expression', a!.start, b!.end, this.text, true, [new PlainNode('test_operator', a!.start, a!.end, this.text, true), operand], ['operator', undefined]);
    } else if (parts.length === 3 && b!.kind === 'word' && this.#text(b!) === '=') {
      const left = this.#word(a!);
      const right = this.#word(c!);
      if (left && right) expression = new PlainNode('binary_expression', a!.start, c!.end, this.text, true, [left, this.#leaf(b!, false), right], ['left', 'operator', 'right']);
    }
    if (!expression) return undefined;
    return new PlainNode('test_command', open.start, close.end, this.text, true, [this.#leaf(open, false), expression, this.#leaf(close, false)]);
  }

  /** `{ a; b; }` or `do a; b; done`: statements each ended by `;`, between the two tokens. */
  #block(open: string, close: string, type: string): PlainNode | undefined {
    const first = this.tokens[this.#next];
    if (!first || first.kind === 'op' || this.#text(first) !== open) return undefined;
    this.#next++;
    const children = [this.#leaf(first, false)];
    for (;;) {
      const statement = this.#statement();
      const semicolon = this.tokens[this.#next];
      if (!statement || !semicolon || this.#op(semicolon) !== ';') return undefined;
      children.push(statement, this.#leaf(semicolon, false));
      const last = this.tokens[++this.#next];
      if (last && last.kind !== 'op' && this.#text(last) === close) {
        this.#next++;
        children.push(this.#leaf(last, false));
        return new PlainNode(type, first.start, last.end, this.text, true, children);
      }
    }
  }

  #text(t: Token): string {
    return this.text.slice(t.start, t.end);
  }

  #pipeline(): PlainNode | undefined {
    const stages = this.#separated('|');
    if (!stages) return undefined;
    if (stages.length === 1) return stages[0];
    for (let i = 0; i < stages.length; i += 2) if (stages[i]!.type === 'variable_assignment') return undefined;
    for (let i = 2; i < stages.length; i += 2) if (stages[i]!.type === 'redirected_statement') return undefined;
    return new PlainNode('pipeline', stages[0]!.startIndex, stages.at(-1)!.endIndex, this.text, true, stages);
  }

  /** Words, then redirections; `redirected_statement` when there are any. */
  #command(): PlainNode | undefined {
    const parts: PlainNode[] = [];
    const fields: string[] = [];
    let t = this.tokens[this.#next];
    if (t?.kind === 'punct' && this.#text(t) === '[') {
      const test = this.#test();
      const after = this.tokens[this.#next];
      // `[ … ] > f`, `[ … ] x`: left to tree-sitter.
      return test && (!after || after.kind === 'op' || after.kind === 'keyword' || after.kind === 'punct') ? test : undefined;
    }
    const assignment = t && this.#assignment(t);
    if (assignment !== undefined) return assignment ?? undefined;
    // A keyword or `{` `}` ends the command (and the statement must close a block there, or it is not plain).
    while (t && t.kind !== 'op' && t.kind !== 'redirect' && t.kind !== 'heredoc' && t.kind !== 'keyword' && t.kind !== 'punct') {
      const word = this.#word(t);
      if (!word) return undefined;
      if (parts.length === 0) {
        // `2 x` may be a number, `$x y` names its program at run time: command names are plain words or quotes.
        if (t.kind === 'concat' || t.kind === 'expansion' || t.kind === 'substitution' || (t.kind === 'string' && t.parts!.some((p) => p.kind !== 'content'))) return undefined;
        if (t.kind === 'word' && (hasEquals(this.text, t.start, t.end) || isInteger(this.text, t.start, t.end))) return undefined;
        // tree-sitter-bash misreads `a@b` and `a%b` as command names (an error node): it decides those.
        if (t.kind === 'word' && /[@%]/.test(this.text.slice(t.start, t.end))) return undefined;
        parts.push(new PlainNode('command_name', t.start, t.end, this.text, true, [word]));
        fields.push('name');
      } else {
        parts.push(word);
        fields.push('argument');
      }
      t = this.tokens[++this.#next];
    }
    if (parts.length === 0) return undefined;
    const command = new PlainNode('command', parts[0]!.startIndex, parts.at(-1)!.endIndex, this.text, true, parts, fields);
    const redirects: PlainNode[] = [];
    while (t && (t.kind === 'redirect' || t.kind === 'heredoc')) {
      if (t.kind === 'heredoc') {
        redirects.push(this.#heredoc(t));
        t = this.tokens[++this.#next];
        continue;
      }
      const destination = this.tokens[this.#next + 1];
      if (!destination || destination.kind !== 'word') return undefined;
      // `>&2`, `2>&1`: only descriptor numbers (`>&-` and `>& file` are left to tree-sitter).
      const op = this.text.slice(t.fd !== undefined ? t.start + 1 : t.start, t.opEnd);
      if (op === '>&' && !/^\d+$/.test(this.text.slice(destination.start, destination.end))) return undefined;
      const children: PlainNode[] = [];
      const redirectFields: (string | undefined)[] = [];
      if (t.fd !== undefined) { children.push(new PlainNode('file_descriptor', t.start, t.start + 1, this.text, true)); redirectFields.push('descriptor'); }
      children.push(new PlainNode(op, t.opEnd! - op.length, t.opEnd!, this.text, false));
      redirectFields.push(undefined);
      children.push(this.#word(destination)!);
      redirectFields.push('destination');
      redirects.push(new PlainNode('file_redirect', t.start, destination.end, this.text, true, children, redirectFields));
      this.#next += 2;
      t = this.tokens[this.#next];
    }
    if (redirects.length === 0) return command;
    // More words after a redirection (`a > f b`) make tree-sitter-bash's own shapes: left to it.
    if (t && t.kind !== 'op' && t.kind !== 'keyword' && t.kind !== 'punct') return undefined;
    return new PlainNode('redirected_statement', command.startIndex, redirects.at(-1)!.endIndex, this.text, true, [command, ...redirects], ['body', ...redirects.map(() => 'redirect')]);
  }

  /** The heredoc_redirect node of a here-doc token: `<<`, its start word, its body and its end line. */
  #heredoc(t: Token): PlainNode {
    const { opEnd, bodyStart, bodyEnd } = t as Token & { opEnd: number; bodyStart: number; bodyEnd: number };
    return new PlainNode('heredoc_redirect', t.start, t.end, this.text, true, [
      new PlainNode('<<', t.start, opEnd, this.text, false),
      new PlainNode('heredoc_start', opEnd, bodyStart - 1, this.text, true),
      new PlainNode('heredoc_body', bodyStart, bodyEnd, this.text, true),
      new PlainNode('heredoc_end', bodyEnd, t.end, this.text, true),
    ]);
  }

  /**
   * A statement that is one assignment (`X=1`, `X="$HOME/a"`, `X=`): its variable_assignment node; null when the
   * token is an assignment in a shape left to tree-sitter (`A=1 cmd`, `X=a"b"`, in a pipeline); undefined when the
   * token is no assignment.
   */
  #assignment(t: Token): PlainNode | null | undefined {
    const head = t.kind === 'concat' ? t.parts![0]! : t;
    if (head.kind !== 'word') return undefined;
    const equals = nameEnd(this.text, head.start);
    if (equals === head.start || this.text.charCodeAt(equals) !== EQUALS || digitLed(this.text, head.start)) return undefined;
    const after = this.tokens[this.#next + 1];
    const op = after && this.#op(after);
    if (after && op !== ';' && op !== '&&' && op !== '||') return null;
    // `X=||…`, `$(X=)`: with no value, anything but a blank or the end right after `=` is an error to tree-sitter-bash.
    if (t.end === equals + 1 && t.end < this.text.length && this.text.charCodeAt(t.end) !== SPACE) return null;
    let value: PlainNode | undefined;
    if (t.kind === 'concat') {
      // `X="…"`, `X=$y`: the word is `X=` and one more unit.
      if (head.end !== equals + 1 || t.parts!.length !== 2) return null;
      value = this.#word(t.parts![1]!);
      if (!value) return null;
    } else if (t.end > equals + 1) {
      value = new PlainNode(isInteger(this.text, equals + 1, t.end) ? 'number' : 'word', equals + 1, t.end, this.text, true);
    }
    this.#next++;
    const children = [new PlainNode('variable_name', head.start, equals, this.text, true), new PlainNode('=', equals, equals + 1, this.text, false)];
    const fields: (string | undefined)[] = ['name', undefined];
    if (value) { children.push(value); fields.push('value'); }
    return new PlainNode('variable_assignment', t.start, t.end, this.text, true, children, fields);
  }

  /** The node of a word-like token; undefined when a `$(…)` in it holds something not plain. */
  #word(t: Token): PlainNode | undefined {
    switch (t.kind) {
      case 'raw': return new PlainNode('raw_string', t.start, t.end, this.text, true);
      case 'string': {
        const quote = (at: number): PlainNode => new PlainNode('"', at, at + 1, this.text, false);
        const children = [quote(t.start)];
        for (const part of t.parts!) {
          if (part.kind === 'content') children.push(new PlainNode('string_content', part.start, part.end, this.text, true));
          else if (part.kind === 'dollar') children.push(new PlainNode('$', part.start, part.end, this.text, false));
          else {
            const node = this.#word(part);
            if (!node) return undefined;
            children.push(node);
          }
        }
        children.push(quote(t.end - 1));
        return new PlainNode('string', t.start, t.end, this.text, true, children);
      }
      case 'expansion': {
        if (t.braced) {
          const name = new PlainNode('variable_name', t.start + 2, t.end - 1, this.text, true);
          return new PlainNode('expansion', t.start, t.end, this.text, true, [new PlainNode('${', t.start, t.start + 2, this.text, false), name, new PlainNode('}', t.end - 1, t.end, this.text, false)]);
        }
        const name = new PlainNode(t.special ? 'special_variable_name' : 'variable_name', t.start + 1, t.end, this.text, true);
        return new PlainNode('simple_expansion', t.start, t.end, this.text, true, [new PlainNode('$', t.start, t.start + 1, this.text, false), name]);
      }
      case 'concat': {
        const units: PlainNode[] = [];
        for (const part of t.parts!) {
          const node = this.#word(part);
          if (!node) return undefined;
          units.push(node);
        }
        return new PlainNode('concatenation', t.start, t.end, this.text, true, units);
      }
      case 'substitution': {
        // Its statements are built by a builder of their own, over the tokens inside the parentheses.
        const inner = new Builder(this.text, t.parts!);
        const statements = inner.#separated(';');
        if (!statements || inner.#next < t.parts!.length) return undefined;
        return new PlainNode('command_substitution', t.start, t.end, this.text, true, [new PlainNode('$(', t.start, t.start + 2, this.text, false), ...statements, new PlainNode(')', t.end - 1, t.end, this.text, false)]);
      }
      default: return new PlainNode(isInteger(this.text, t.start, t.end) ? 'number' : 'word', t.start, t.end, this.text, true);
    }
  }

  #op(t: Token): string | undefined {
    return t.kind === 'op' ? this.text.slice(t.start, t.end) : undefined;
  }

  #leaf(t: Token, named: boolean): PlainNode {
    return new PlainNode(this.text.slice(t.start, t.end), t.start, t.end, this.text, named);
  }
}

/** The redirection operator at `at`, if one is there. */
function redirectOp(text: string, at: number): string | undefined {
  for (const op of REDIRECT_OPS) if (text.startsWith(op, at)) return op;
  return undefined;
}

/** A command with redirections, alone or as a stage of a pipeline. */
function hasRedirect(node: PlainNode): boolean {
  if (node.type === 'redirected_statement') return true;
  return node.type === 'pipeline' && node.children.some((c) => c.type === 'redirected_statement');
}
