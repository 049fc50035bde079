// The compound statements simple-parse.ts builds: `name() { …; }`, `for x in …; do …; done`, `if …; then …;
// [elif …; then …;] [else …;] fi`, and the plainest tests (`[ x ]`, `[ -f x ]`, `[ a = b ]`), exactly as
// tree-sitter-bash builds them. They read tokens through the builder (StatementReader), which parses the statements
// inside them.
import { PlainNode } from './plain-node.ts';
import { isName, type Token } from './simple-tokens.ts';

/** What the compound statements need of the builder: a cursor over the tokens, and statements and words read there. */
export interface StatementReader {
  /** The text the tokens are in. */
  readonly source: string;
  /** The token `ahead` places after the current one (the current one by default). */
  peek(ahead?: number): Token | undefined;
  /** Moves past `count` tokens (one by default). */
  advance(count?: number): void;
  /** Moves past the current token and returns the one after it. */
  next(): Token | undefined;
  /** The current token, moving past it. */
  take(): Token | undefined;
  text(t: Token): string;
  /** The operator a token is (`;`, `|`, `&&`, `||`), if it is one. */
  op(t: Token): string | undefined;
  leaf(t: Token, named: boolean): PlainNode;
  statement(): PlainNode | undefined;
  word(t: Token): PlainNode | undefined;
}

/** The keywords that end the statements of an `if` clause. */
const CLAUSE_ENDS = new Set(['elif', 'else', 'fi']);
/** The unary operators of `[ … ]` built here (`[ -f x ]`); other tests are left to tree-sitter. */
const TEST_OPERATOR = /^-[a-zA-Z]$/;

/**
 * `name() { …; }`, `for x in …; do …; done` or `if …; fi` at the next token: the node; null when it starts one but is
 * not plain; undefined when it is no such statement.
 */
export function compoundStatement(r: StatementReader): PlainNode | null | undefined {
  const t = r.peek();
  if (!t) return undefined;
  if (t.kind === 'keyword' && r.text(t) === 'for') return forStatement(r) ?? null;
  if (t.kind === 'keyword' && r.text(t) === 'if') return ifStatement(r) ?? null;
  const open = r.peek(1);
  if (t.kind === 'word' && open?.kind === 'punct' && r.text(open) === '(') return functionDefinition(r) ?? null;
  return undefined;
}

function functionDefinition(r: StatementReader): PlainNode | undefined {
  const name = r.peek()!;
  if (!isName(r.source, name.start, name.end)) return undefined;
  const open = r.peek(1)!;
  const close = r.peek(2);
  r.advance(3);
  const body = block(r, '{', '}', 'compound_statement');
  if (!body || !close) return undefined;
  return new PlainNode(
    'function_definition',
    name.start,
    body.endIndex,
    r.source,
    true,
    [new PlainNode('word', name.start, name.end, r.source, true), r.leaf(open, false), r.leaf(close, false), body],
    ['name', undefined, undefined, 'body'],
  );
}

/** `for name in word…; do …; done`. */
function forStatement(r: StatementReader): PlainNode | undefined {
  const start = r.peek()!;
  const variable = r.peek(1);
  const keyword = r.peek(2);
  if (
    variable?.kind !== 'word' ||
    !isName(r.source, variable.start, variable.end) ||
    keyword?.kind !== 'keyword' ||
    r.text(keyword) !== 'in'
  )
    return undefined;
  r.advance(3);
  const children = [
    r.leaf(start, false),
    new PlainNode('variable_name', variable.start, variable.end, r.source, true),
    r.leaf(keyword, false),
  ];
  const fields: (string | undefined)[] = [undefined, 'variable', undefined];
  for (
    let t = r.peek();
    t && t.kind !== 'op' && t.kind !== 'keyword' && t.kind !== 'punct' && t.kind !== 'redirect';
    t = r.next()
  ) {
    const word = r.word(t);
    if (!word) return undefined;
    children.push(word);
    fields.push('value');
  }
  const semicolon = r.peek();
  if (children.length === 3 || !semicolon || r.op(semicolon) !== ';') return undefined;
  children.push(r.leaf(semicolon, false));
  fields.push(undefined);
  r.advance();
  const body = block(r, 'do', 'done', 'do_group');
  if (!body) return undefined;
  children.push(body);
  fields.push('body');
  return new PlainNode('for_statement', start.start, body.endIndex, r.source, true, children, fields);
}

/** `if …; then …; [elif …; then …;]… [else …;] fi`. */
function ifStatement(r: StatementReader): PlainNode | undefined {
  const start = r.take()!;
  const first = conditional(r);
  if (!first) return undefined;
  const children = [r.leaf(start, false), ...first];
  // tree-sitter-bash's condition field covers the condition and its `;`.
  const fields: (string | undefined)[] = [undefined, 'condition', 'condition', ...first.slice(2).map(() => undefined)];
  for (let t = r.peek(); t?.kind === 'keyword' && r.text(t) === 'elif'; t = r.peek()) {
    r.advance();
    const clause = conditional(r);
    if (!clause) return undefined;
    children.push(
      new PlainNode('elif_clause', t.start, clause.at(-1)!.endIndex, r.source, true, [r.leaf(t, false), ...clause]),
    );
    fields.push(undefined);
  }
  const otherwise = r.peek();
  if (otherwise?.kind === 'keyword' && r.text(otherwise) === 'else') {
    r.advance();
    const elseBody = terminated(r);
    if (!elseBody) return undefined;
    children.push(
      new PlainNode('else_clause', otherwise.start, elseBody.at(-1)!.endIndex, r.source, true, [
        r.leaf(otherwise, false),
        ...elseBody,
      ]),
    );
    fields.push(undefined);
  }
  const fi = keyword(r, 'fi');
  if (!fi) return undefined;
  children.push(fi);
  fields.push(undefined);
  return new PlainNode('if_statement', start.start, fi.endIndex, r.source, true, children, fields);
}

/** `condition; then statements;` (of an `if` or an `elif`): the condition, `;`, `then` and the statements with their `;`. */
function conditional(r: StatementReader): PlainNode[] | undefined {
  const condition = r.statement();
  const semicolon = r.peek();
  if (!condition || !semicolon || r.op(semicolon) !== ';') return undefined;
  r.advance();
  const then = keyword(r, 'then');
  const body = then && terminated(r);
  return body && [condition, r.leaf(semicolon, false), then!, ...body];
}

/** The keyword `word` at the next token, consumed, as a leaf; undefined when it is not there. */
function keyword(r: StatementReader, word: string): PlainNode | undefined {
  const t = r.peek();
  if (t?.kind !== 'keyword' || r.text(t) !== word) return undefined;
  r.advance();
  return r.leaf(t, false);
}

/** Statements each ended by `;` up to the next keyword (`elif`, `else`, `fi`): statements and `;` leaves. */
function terminated(r: StatementReader): PlainNode[] | undefined {
  const children: PlainNode[] = [];
  for (;;) {
    const statement = r.statement();
    const semicolon = r.peek();
    if (!statement || !semicolon || r.op(semicolon) !== ';') return undefined;
    r.advance();
    children.push(statement, r.leaf(semicolon, false));
    const next = r.peek();
    if (!next) return undefined;
    if (next.kind === 'keyword' && CLAUSE_ENDS.has(r.text(next))) return children;
  }
}

/** `[ x ]`, `[ -f x ]` or `[ a = b ]`: a test_command (`==` makes its right side a pattern: left to tree-sitter). */
export function testCommand(r: StatementReader): PlainNode | undefined {
  const open = r.peek()!;
  const parts: Token[] = [];
  let close: Token | undefined;
  for (let t = r.next(); t; t = r.next()) {
    if (t.kind === 'punct' && r.text(t) === ']') {
      close = t;
      r.advance();
      break;
    }
    if (t.kind === 'op' || t.kind === 'redirect' || t.kind === 'keyword' || t.kind === 'punct') return undefined;
    parts.push(t);
  }
  if (!close) return undefined;
  let expression: PlainNode | undefined;
  const [a, b, c] = parts;
  if (parts.length === 1) expression = r.word(a!);
  else if (parts.length === 2 && a!.kind === 'word' && TEST_OPERATOR.test(r.text(a!))) {
    const operand = r.word(b!);
    if (operand)
      expression = new PlainNode(
        'unary_expression',
        a!.start,
        b!.end,
        r.source,
        true,
        [new PlainNode('test_operator', a!.start, a!.end, r.source, true), operand],
        ['operator', undefined],
      );
  } else if (parts.length === 3 && b!.kind === 'word' && r.text(b!) === '=') {
    const left = r.word(a!);
    const right = r.word(c!);
    if (left && right)
      expression = new PlainNode(
        'binary_expression',
        a!.start,
        c!.end,
        r.source,
        true,
        [left, r.leaf(b!, false), right],
        ['left', 'operator', 'right'],
      );
  }
  if (!expression) return undefined;
  return new PlainNode('test_command', open.start, close.end, r.source, true, [
    r.leaf(open, false),
    expression,
    r.leaf(close, false),
  ]);
}

/** `{ a; b; }` or `do a; b; done`: statements each ended by `;`, between the two tokens. */
function block(r: StatementReader, open: string, close: string, type: string): PlainNode | undefined {
  const first = r.peek();
  if (!first || first.kind === 'op' || r.text(first) !== open) return undefined;
  r.advance();
  const children = [r.leaf(first, false)];
  for (;;) {
    const statement = r.statement();
    const semicolon = r.peek();
    if (!statement || !semicolon || r.op(semicolon) !== ';') return undefined;
    children.push(statement, r.leaf(semicolon, false));
    const last = r.next();
    if (last && last.kind !== 'op' && r.text(last) === close) {
      r.advance();
      children.push(r.leaf(last, false));
      return new PlainNode(type, first.start, last.end, r.source, true, children);
    }
  }
}
