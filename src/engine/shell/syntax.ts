// The syntax tree the walker reads: tree-sitter nodes read at most once (every read of a web-tree-sitter Node
// crosses into wasm, and a child list allocates a Node per child), or plain nodes built by simple-parse.ts.
import type { Node } from 'web-tree-sitter';

/** What the walker reads of a syntax node (the subset of web-tree-sitter's Node it uses). */
export interface SyntaxNode {
  /** The grammar's node type (`command`, `word`, `string`, …; anonymous nodes: the token, `|`, `>`). */
  readonly type: string;
  /** Offset of the first character in the source (UTF-16 code units, as JavaScript strings count). */
  readonly startIndex: number;
  /** Offset just past the last character. */
  readonly endIndex: number;
  readonly text: string;
  readonly isNamed: boolean;
  readonly namedChildren: readonly SyntaxNode[];
  /** Every child, anonymous ones (operators, keywords) included. */
  readonly children: readonly SyntaxNode[];
  readonly firstNamedChild: SyntaxNode | undefined;
  /** The first child in a grammar field (`body`, `name`, `value`, …), as the same object the child lists hold. */
  childForFieldName(field: string): SyntaxNode | undefined;
}

/** A tree-sitter node with its type, span, text and children cached; text is sliced from the parsed source. */
export class TreeSitterNode implements SyntaxNode {
  readonly startIndex: number;
  #type: string | undefined;
  #isNamed: boolean | undefined;
  #endIndex = -1;
  #text: string | undefined;
  #namedChildren: TreeSitterNode[] | undefined;
  #children: TreeSitterNode[] | undefined;

  /** `source` is the exact string the tree was parsed from. */
  constructor(
    readonly node: Node,
    readonly source: string,
  ) {
    this.startIndex = node.startIndex;
  }

  get type(): string {
    this.#type ??= this.node.type;
    return this.#type;
  }

  get endIndex(): number {
    if (this.#endIndex < 0) this.#endIndex = this.node.endIndex;
    return this.#endIndex;
  }

  /** The source text of the node (what `Node.text` returns, without the wasm round trips). */
  get text(): string {
    this.#text ??= this.source.slice(this.startIndex, this.endIndex);
    return this.#text;
  }

  get namedChildren(): TreeSitterNode[] {
    this.#namedChildren ??= this.#wrap(this.node.namedChildren);
    return this.#namedChildren;
  }

  get children(): TreeSitterNode[] {
    this.#children ??= this.#wrap(this.node.children);
    return this.#children;
  }

  get firstNamedChild(): TreeSitterNode | undefined {
    return this.namedChildren[0];
  }

  /** A field's child is always named here: it is looked up among `namedChildren`, to keep one object per node. */
  childForFieldName(field: string): TreeSitterNode | undefined {
    const child = this.node.childForFieldName(field);
    if (!child) return undefined;
    const id = child.id;
    return this.namedChildren.find((c) => c.node.id === id) ?? new TreeSitterNode(child, this.source);
  }

  get isNamed(): boolean {
    this.#isNamed ??= this.node.isNamed;
    return this.#isNamed;
  }

  #wrap(nodes: (Node | null)[]): TreeSitterNode[] {
    const out: TreeSitterNode[] = [];
    for (const n of nodes) if (n) out.push(new TreeSitterNode(n, this.source));
    return out;
  }
}
