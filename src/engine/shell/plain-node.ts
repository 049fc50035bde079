// The syntax nodes simple-parse.ts builds: the same types, spans, fields and children as tree-sitter-bash's.
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

/** The children and fields of a leaf (shared: most nodes are leaves). */
const NONE: readonly never[] = Object.freeze([]);
