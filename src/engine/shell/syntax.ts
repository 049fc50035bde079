// A tree-sitter node read at most once: every read of a web-tree-sitter Node crosses into wasm (and a child
// list allocates a Node per child), so the walker reads each node through this cache instead.
import type { Node } from 'web-tree-sitter';

/** One syntax node with its type, span, text and children cached; text is sliced from the parsed source. */
export class SyntaxNode {
  /** The grammar's node type (`command`, `word`, `string`, …). */
  readonly type: string;
  /** Offset of the first character in the source (UTF-16 code units, as JavaScript strings count). */
  readonly startIndex: number;
  #endIndex = -1;
  #text: string | undefined;
  #namedChildren: SyntaxNode[] | undefined;
  #children: SyntaxNode[] | undefined;

  /** `source` is the exact string the tree was parsed from. */
  constructor(readonly node: Node, readonly source: string) {
    this.type = node.type;
    this.startIndex = node.startIndex;
  }

  /** Offset just past the last character. */
  get endIndex(): number {
    if (this.#endIndex < 0) this.#endIndex = this.node.endIndex;
    return this.#endIndex;
  }

  /** The source text of the node (what `Node.text` returns, without the wasm round trips). */
  get text(): string {
    this.#text ??= this.source.slice(this.startIndex, this.endIndex);
    return this.#text;
  }

  get namedChildren(): SyntaxNode[] {
    this.#namedChildren ??= this.#wrap(this.node.namedChildren);
    return this.#namedChildren;
  }

  /** Every child, anonymous ones (operators, keywords) included. */
  get children(): SyntaxNode[] {
    this.#children ??= this.#wrap(this.node.children);
    return this.#children;
  }

  get firstNamedChild(): SyntaxNode | undefined {
    return this.namedChildren[0];
  }

  /** The named child in a grammar field (`body`, `name`, `value`, …), as the same object `namedChildren` holds. */
  childForFieldName(field: string): SyntaxNode | undefined {
    const child = this.node.childForFieldName(field);
    if (!child) return undefined;
    const id = child.id;
    return this.namedChildren.find((c) => c.node.id === id) ?? new SyntaxNode(child, this.source);
  }

  get isNamed(): boolean {
    return this.node.isNamed;
  }

  #wrap(nodes: (Node | null)[]): SyntaxNode[] {
    const out: SyntaxNode[] = [];
    for (const n of nodes) if (n) out.push(new SyntaxNode(n, this.source));
    return out;
  }
}
