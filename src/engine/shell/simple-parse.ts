// Parses the plainest command lines without tree-sitter: plain words, quotes without expansions, `|`, `&&`,
// `||`, `;` and simple redirections. It builds exactly the tree tree-sitter-bash builds for them (a test
// checks that on every corpus command and on generated ones) and returns undefined for anything else.
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
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:@%+~=-') WORD_CHARS[c.charCodeAt(0)] = 1;

function isWordChar(code: number): boolean {
  return code < 128 && WORD_CHARS[code] === 1;
}

// Character codes the tokenizer compares (it reads codes, not one-character strings: it runs on every command line).
const SPACE = 0x20, NEWLINE = 0x0a, PIPE = 0x7c, AMPERSAND = 0x26, SEMICOLON = 0x3b, GREATER = 0x3e, LESS = 0x3c, OPEN_PAREN = 0x28;
const DOUBLE_QUOTE = 0x22, SINGLE_QUOTE = 0x27, DOLLAR = 0x24, BACKTICK = 0x60, BACKSLASH = 0x5c, DIGIT_0 = 0x30, DIGIT_9 = 0x39;
/** Words tree-sitter-bash may read as syntax (keywords, declarations) in some position: left to tree-sitter. */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv']);
const LONGEST_RESERVED = Math.max(...[...RESERVED].map((w) => w.length));
/** Redirection operators handled here (the longest first); a descriptor digit may precede the first four. */
const REDIRECT_OPS = ['>>', '>&', '>', '<', '&>>', '&>'];

interface Token { kind: 'word' | 'string' | 'raw' | 'op' | 'redirect'; start: number; end: number; fd?: number; opEnd?: number }

/** The tree tree-sitter-bash would build for `text`, when the text is plain enough; otherwise undefined. */
export function parseSimple(text: string): PlainNode | undefined {
  if (text.length === 0 || text.length > 512) return undefined;
  const tokens = tokenize(text);
  if (!tokens) return undefined;
  return new Builder(text, tokens).program();
}

/** Statement types whose plain instances parseSimpleStatement rebuilds. */
export const PLAIN_STATEMENT_TYPES: ReadonlySet<string> = new Set(['command', 'redirected_statement', 'pipeline', 'list']);

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
  const tokens: Token[] = [];
  const length = text.length;
  if (text.charCodeAt(0) === SPACE || text.charCodeAt(length - 1) === SPACE) return undefined;
  // Where the previous word or string ended (-1 at the start and after an operator or a redirection).
  let gluedEnd = -1;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === SPACE) { i++; continue; }
    const start = i;
    // Tokens must be separated by a space or an operator: `a"b"` is a concatenation, `a>f` is left to tree-sitter.
    const glued = gluedEnd === start;
    const next = text.charCodeAt(i + 1);
    if (c === PIPE || c === AMPERSAND || c === SEMICOLON) {
      if ((c === AMPERSAND || c === PIPE) && next === c) { tokens.push({ kind: 'op', start, end: i + 2 }); i += 2; gluedEnd = -1; continue; }
      if (c === AMPERSAND && next === GREATER) { /* `&>` redirection, below */ } else if (c === AMPERSAND || (c === PIPE && next === AMPERSAND)) return undefined;
      else { tokens.push({ kind: 'op', start, end: i + 1 }); i++; gluedEnd = -1; continue; }
    }
    let fd: number | undefined;
    let at = i;
    if (c >= DIGIT_0 && c <= DIGIT_9 && (next === GREATER || next === LESS)) { fd = c - DIGIT_0; at = i + 1; }
    const op = fd !== undefined || c === GREATER || c === LESS || c === AMPERSAND ? redirectOp(text, at) : undefined;
    if (op) {
      if (glued || (fd !== undefined && op.startsWith('&'))) return undefined;
      const after = text.charCodeAt(at + op.length);
      if (after === GREATER || after === LESS || after === AMPERSAND || after === PIPE || after === OPEN_PAREN) return undefined;
      const token: Token = { kind: 'redirect', start, end: at + op.length, opEnd: at + op.length };
      if (fd !== undefined) token.fd = fd;
      tokens.push(token);
      i = at + op.length;
      gluedEnd = -1;
      continue;
    }
    if (glued) return undefined;
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const close = text.indexOf(text[i]!, i + 1);
      if (close < 0) return undefined;
      for (let k = i + 1; k < close; k++) {
        const b = text.charCodeAt(k);
        if (b === NEWLINE || (c === DOUBLE_QUOTE && (b === DOLLAR || b === BACKTICK || b === BACKSLASH))) return undefined;
      }
      tokens.push({ kind: c === DOUBLE_QUOTE ? 'string' : 'raw', start, end: close + 1 });
      i = close + 1;
      gluedEnd = i;
      continue;
    }
    while (i < length && isWordChar(text.charCodeAt(i))) i++;
    if (i === start) return undefined;
    // Digit-led words other than plain integers (`0x1f`, `1#2`) and reserved words: tree-sitter decides.
    if ((i - start <= LONGEST_RESERVED && RESERVED.has(text.slice(start, i))) || (digitLed(text, start) && !isInteger(text, start, i))) return undefined;
    tokens.push({ kind: 'word', start, end: i });
    gluedEnd = i;
  }
  return tokens;
}

/** Builds program → statements → lists → pipelines → commands, as tree-sitter-bash nests them. */
class Builder {
  #next = 0;

  constructor(readonly text: string, readonly tokens: Token[]) {}

  program(): PlainNode | undefined {
    // A trailing `;` leaves its statement missing (undefined); another operator left over is tree-sitter's.
    const children = this.#separated(() => this.#statement(), ';');
    if (!children || this.#next < this.tokens.length) return undefined;
    return new PlainNode('program', 0, this.text.length, this.text, true, children);
  }

  /** `item (separator item)*`: the items with the separator leaves between them; undefined if an item is not plain. */
  #separated(item: () => PlainNode | undefined, separator: string): PlainNode[] | undefined {
    const nodes: PlainNode[] = [];
    for (;;) {
      const node = item();
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

  #pipeline(): PlainNode | undefined {
    const stages = this.#separated(() => this.#command(), '|');
    if (!stages) return undefined;
    if (stages.length === 1) return stages[0];
    for (let i = 2; i < stages.length; i += 2) if (stages[i]!.type === 'redirected_statement') return undefined;
    return new PlainNode('pipeline', stages[0]!.startIndex, stages.at(-1)!.endIndex, this.text, true, stages);
  }

  /** Words, then redirections; `redirected_statement` when there are any. */
  #command(): PlainNode | undefined {
    const parts: PlainNode[] = [];
    const fields: string[] = [];
    let t = this.tokens[this.#next];
    while (t && t.kind !== 'op' && t.kind !== 'redirect') {
      const word = this.#word(t);
      if (parts.length === 0) {
        // `A=1 cmd` is an assignment, `2 x` may be a number: command names are plain non-numeric words or quotes.
        if (t.kind === 'word' && (hasEquals(this.text, t.start, t.end) || isInteger(this.text, t.start, t.end))) return undefined;
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
    while (t && t.kind === 'redirect') {
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
      children.push(this.#word(destination));
      redirectFields.push('destination');
      redirects.push(new PlainNode('file_redirect', t.start, destination.end, this.text, true, children, redirectFields));
      this.#next += 2;
      t = this.tokens[this.#next];
    }
    if (redirects.length === 0) return command;
    // More words after a redirection (`a > f b`) make tree-sitter-bash's own shapes: left to it.
    if (t && t.kind !== 'op') return undefined;
    return new PlainNode('redirected_statement', command.startIndex, redirects.at(-1)!.endIndex, this.text, true, [command, ...redirects], ['body', ...redirects.map(() => 'redirect')]);
  }

  #word(t: Token): PlainNode {
    if (t.kind === 'raw') return new PlainNode('raw_string', t.start, t.end, this.text, true);
    if (t.kind === 'string') {
      const quote = (at: number): PlainNode => new PlainNode('"', at, at + 1, this.text, false);
      const content = t.end - t.start > 2 ? [new PlainNode('string_content', t.start + 1, t.end - 1, this.text, true)] : [];
      return new PlainNode('string', t.start, t.end, this.text, true, [quote(t.start), ...content, quote(t.end - 1)]);
    }
    return new PlainNode(isInteger(this.text, t.start, t.end) ? 'number' : 'word', t.start, t.end, this.text, true);
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
