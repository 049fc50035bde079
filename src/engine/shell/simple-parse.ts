// Parses the lines agents write most without tree-sitter: words and globs, quotes, variable expansions (`$x`, `${x}`,
// `"a $x"`), `$(…)`, words glued together (`--name="$x"`), assignments (`X="$HOME/a"`), `|`, `&&`, `||`, `;`, simple
// redirections, `name() { …; }`, `for … in …; do …; done`, `if …; then …; fi` with plain `[ … ]` tests, and a
// command ending in a here-doc. It builds exactly the tree tree-sitter-bash builds for them (tests check that on
// every corpus command and on generated ones) and returns undefined for anything else. Tokens: simple-tokens.ts.
// Inside a script tree-sitter did parse, the plain statements are rebuilt here too (parseSimpleStatement).
import { PlainNode } from './plain-node.ts';
import { compoundStatement, testCommand, type StatementReader } from './simple-compound.ts';
import { digitLed, EQUALS, hasEquals, isInteger, nameEnd, SPACE, tokenize, type Token } from './simple-tokens.ts';

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
export const PLAIN_STATEMENT_TYPES: ReadonlySet<string> = new Set([
  'command',
  'redirected_statement',
  'pipeline',
  'list',
  'variable_assignment',
]);

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

/** Builds program → statements → lists → pipelines → commands, as tree-sitter-bash nests them. */
class Builder implements StatementReader {
  #next = 0;

  constructor(
    readonly source: string,
    readonly tokens: Token[],
  ) {}

  peek(ahead = 0): Token | undefined {
    return this.tokens[this.#next + ahead];
  }

  advance(count = 1): void {
    this.#next += count;
  }

  next(): Token | undefined {
    return this.tokens[++this.#next];
  }

  take(): Token | undefined {
    return this.tokens[this.#next++];
  }

  program(): PlainNode | undefined {
    // A trailing `;` leaves its statement missing (undefined); another operator left over is tree-sitter's.
    const children = this.#separated(';');
    if (!children || this.#next < this.tokens.length) return undefined;
    return new PlainNode('program', 0, this.source.length, this.source, true, children);
  }

  /** `item (separator item)*`: the items with the separator leaves between them; undefined if an item is not plain. */
  #separated(separator: ';' | '|'): PlainNode[] | undefined {
    const nodes: PlainNode[] = [];
    for (;;) {
      // Statements split by `;`, pipeline stages by `|` (no closure per call: this runs for every statement).
      const node = separator === ';' ? this.statement() : this.#command();
      if (!node) return undefined;
      nodes.push(node);
      const t = this.tokens[this.#next];
      if (!t || this.op(t) !== separator) return nodes;
      nodes.push(this.leaf(t, false));
      this.#next++;
    }
  }

  /**
   * `a | b && c || d`: pipelines joined left to right into nested lists. A redirection after any command but the
   * first of a statement belongs to everything before it in tree-sitter-bash (`a | b > f | c` redirects `a | b`,
   * `a && b > f` the list): those shapes are left to it.
   */
  statement(): PlainNode | undefined {
    const compound = compoundStatement(this);
    if (compound !== undefined) {
      // A function or loop is a statement alone here (`f() { …; } > f`, `for …; done | x` are left to tree-sitter).
      const after = this.tokens[this.#next];
      return compound && (!after || this.op(after) === ';') ? compound : undefined;
    }
    let left = this.#pipeline();
    if (!left) return undefined;
    for (;;) {
      const t = this.tokens[this.#next];
      const op = t && this.op(t);
      if (op !== '&&' && op !== '||') return left;
      this.#next++;
      const right = this.#pipeline();
      if (!right || hasRedirect(right)) return undefined;
      left = new PlainNode('list', left.startIndex, right.endIndex, this.source, true, [
        left,
        this.leaf(t!, false),
        right,
      ]);
    }
  }

  text(t: Token): string {
    return this.source.slice(t.start, t.end);
  }

  #pipeline(): PlainNode | undefined {
    const stages = this.#separated('|');
    if (!stages) return undefined;
    if (stages.length === 1) return stages[0];
    for (let i = 0; i < stages.length; i += 2) if (stages[i]!.type === 'variable_assignment') return undefined;
    for (let i = 2; i < stages.length; i += 2) if (stages[i]!.type === 'redirected_statement') return undefined;
    return new PlainNode('pipeline', stages[0]!.startIndex, stages.at(-1)!.endIndex, this.source, true, stages);
  }

  /** Words, then redirections; `redirected_statement` when there are any. */
  #command(): PlainNode | undefined {
    const parts: PlainNode[] = [];
    const fields: string[] = [];
    let t = this.tokens[this.#next];
    if (t?.kind === 'punct' && this.text(t) === '[') {
      const test = testCommand(this);
      const after = this.tokens[this.#next];
      // `[ … ] > f`, `[ … ] x`: left to tree-sitter.
      return test && (!after || after.kind === 'op' || after.kind === 'keyword' || after.kind === 'punct')
        ? test
        : undefined;
    }
    const assignment = t && this.#assignment(t);
    if (assignment !== undefined) return assignment ?? undefined;
    // A keyword or `{` `}` ends the command (and the statement must close a block there, or it is not plain).
    while (
      t &&
      t.kind !== 'op' &&
      t.kind !== 'redirect' &&
      t.kind !== 'heredoc' &&
      t.kind !== 'keyword' &&
      t.kind !== 'punct'
    ) {
      const word = this.word(t);
      if (!word) return undefined;
      if (parts.length === 0) {
        // `2 x` may be a number, `$x y` names its program at run time: command names are plain words or quotes.
        if (
          t.kind === 'concat' ||
          t.kind === 'expansion' ||
          t.kind === 'substitution' ||
          (t.kind === 'string' && t.parts!.some((p) => p.kind !== 'content'))
        )
          return undefined;
        if (t.kind === 'word' && (hasEquals(this.source, t.start, t.end) || isInteger(this.source, t.start, t.end)))
          return undefined;
        // tree-sitter-bash misreads `a@b` and `a%b` as command names (an error node): it decides those.
        if (t.kind === 'word' && /[@%]/.test(this.source.slice(t.start, t.end))) return undefined;
        parts.push(new PlainNode('command_name', t.start, t.end, this.source, true, [word]));
        fields.push('name');
      } else {
        parts.push(word);
        fields.push('argument');
      }
      t = this.tokens[++this.#next];
    }
    if (parts.length === 0) return undefined;
    const command = new PlainNode(
      'command',
      parts[0]!.startIndex,
      parts.at(-1)!.endIndex,
      this.source,
      true,
      parts,
      fields,
    );
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
      const op = this.source.slice(t.fd !== undefined ? t.start + 1 : t.start, t.opEnd);
      if (op === '>&' && !/^\d+$/.test(this.source.slice(destination.start, destination.end))) return undefined;
      const children: PlainNode[] = [];
      const redirectFields: (string | undefined)[] = [];
      if (t.fd !== undefined) {
        children.push(new PlainNode('file_descriptor', t.start, t.start + 1, this.source, true));
        redirectFields.push('descriptor');
      }
      children.push(new PlainNode(op, t.opEnd! - op.length, t.opEnd!, this.source, false));
      redirectFields.push(undefined);
      children.push(this.word(destination)!);
      redirectFields.push('destination');
      redirects.push(
        new PlainNode('file_redirect', t.start, destination.end, this.source, true, children, redirectFields),
      );
      this.#next += 2;
      t = this.tokens[this.#next];
    }
    if (redirects.length === 0) return command;
    // More words after a redirection (`a > f b`) make tree-sitter-bash's own shapes: left to it.
    if (t && t.kind !== 'op' && t.kind !== 'keyword' && t.kind !== 'punct') return undefined;
    return new PlainNode(
      'redirected_statement',
      command.startIndex,
      redirects.at(-1)!.endIndex,
      this.source,
      true,
      [command, ...redirects],
      ['body', ...redirects.map(() => 'redirect')],
    );
  }

  /** The heredoc_redirect node of a here-doc token: `<<`, its start word, its body and its end line. */
  #heredoc(t: Token): PlainNode {
    const { opEnd, bodyStart, bodyEnd } = t as Token & { opEnd: number; bodyStart: number; bodyEnd: number };
    return new PlainNode('heredoc_redirect', t.start, t.end, this.source, true, [
      new PlainNode('<<', t.start, opEnd, this.source, false),
      new PlainNode('heredoc_start', opEnd, bodyStart - 1, this.source, true),
      new PlainNode('heredoc_body', bodyStart, bodyEnd, this.source, true),
      new PlainNode('heredoc_end', bodyEnd, t.end, this.source, true),
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
    const equals = nameEnd(this.source, head.start);
    if (equals === head.start || this.source.charCodeAt(equals) !== EQUALS || digitLed(this.source, head.start))
      return undefined;
    const after = this.tokens[this.#next + 1];
    const op = after && this.op(after);
    if (after && op !== ';' && op !== '&&' && op !== '||') return null;
    // `X=||…`, `$(X=)`: with no value, anything but a blank or the end right after `=` is an error to tree-sitter-bash.
    if (t.end === equals + 1 && t.end < this.source.length && this.source.charCodeAt(t.end) !== SPACE) return null;
    let value: PlainNode | undefined;
    if (t.kind === 'concat') {
      // `X="…"`, `X=$y`: the word is `X=` and one more unit.
      if (head.end !== equals + 1 || t.parts!.length !== 2) return null;
      value = this.word(t.parts![1]!);
      if (!value) return null;
    } else if (t.end > equals + 1) {
      value = new PlainNode(
        isInteger(this.source, equals + 1, t.end) ? 'number' : 'word',
        equals + 1,
        t.end,
        this.source,
        true,
      );
    }
    this.#next++;
    const children = [
      new PlainNode('variable_name', head.start, equals, this.source, true),
      new PlainNode('=', equals, equals + 1, this.source, false),
    ];
    const fields: (string | undefined)[] = ['name', undefined];
    if (value) {
      children.push(value);
      fields.push('value');
    }
    return new PlainNode('variable_assignment', t.start, t.end, this.source, true, children, fields);
  }

  /** The node of a word-like token; undefined when a `$(…)` in it holds something not plain. */
  word(t: Token): PlainNode | undefined {
    switch (t.kind) {
      case 'raw':
        return new PlainNode('raw_string', t.start, t.end, this.source, true);
      case 'string': {
        const quote = (at: number): PlainNode => new PlainNode('"', at, at + 1, this.source, false);
        const children = [quote(t.start)];
        for (const part of t.parts!) {
          if (part.kind === 'content')
            children.push(new PlainNode('string_content', part.start, part.end, this.source, true));
          else if (part.kind === 'dollar') children.push(new PlainNode('$', part.start, part.end, this.source, false));
          else {
            const node = this.word(part);
            if (!node) return undefined;
            children.push(node);
          }
        }
        children.push(quote(t.end - 1));
        return new PlainNode('string', t.start, t.end, this.source, true, children);
      }
      case 'expansion': {
        if (t.braced) {
          const name = new PlainNode('variable_name', t.start + 2, t.end - 1, this.source, true);
          return new PlainNode('expansion', t.start, t.end, this.source, true, [
            new PlainNode('${', t.start, t.start + 2, this.source, false),
            name,
            new PlainNode('}', t.end - 1, t.end, this.source, false),
          ]);
        }
        const name = new PlainNode(
          t.special ? 'special_variable_name' : 'variable_name',
          t.start + 1,
          t.end,
          this.source,
          true,
        );
        return new PlainNode('simple_expansion', t.start, t.end, this.source, true, [
          new PlainNode('$', t.start, t.start + 1, this.source, false),
          name,
        ]);
      }
      case 'concat': {
        const units: PlainNode[] = [];
        for (const part of t.parts!) {
          const node = this.word(part);
          if (!node) return undefined;
          units.push(node);
        }
        return new PlainNode('concatenation', t.start, t.end, this.source, true, units);
      }
      case 'substitution': {
        // Its statements are built by a builder of their own, over the tokens inside the parentheses.
        const inner = new Builder(this.source, t.parts!);
        const statements = inner.#separated(';');
        if (!statements || inner.#next < t.parts!.length) return undefined;
        return new PlainNode('command_substitution', t.start, t.end, this.source, true, [
          new PlainNode('$(', t.start, t.start + 2, this.source, false),
          ...statements,
          new PlainNode(')', t.end - 1, t.end, this.source, false),
        ]);
      }
      default:
        return new PlainNode(
          isInteger(this.source, t.start, t.end) ? 'number' : 'word',
          t.start,
          t.end,
          this.source,
          true,
        );
    }
  }

  op(t: Token): string | undefined {
    return t.kind === 'op' ? this.source.slice(t.start, t.end) : undefined;
  }

  leaf(t: Token, named: boolean): PlainNode {
    return new PlainNode(this.source.slice(t.start, t.end), t.start, t.end, this.source, named);
  }
}

/** A command with redirections, alone or as a stage of a pipeline. */
function hasRedirect(node: PlainNode): boolean {
  if (node.type === 'redirected_statement') return true;
  return node.type === 'pipeline' && node.children.some((c) => c.type === 'redirected_statement');
}
