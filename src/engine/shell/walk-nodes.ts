// Node types and helpers the walker's parts share (walker.ts and the walk-*.ts files).
import type { SyntaxNode } from './syntax.ts';
import { AnalysisAbort } from './limits.ts';

/** Redirection nodes. */
export const REDIRECT_TYPES: ReadonlySet<string> = new Set([
  'file_redirect',
  'heredoc_redirect',
  'herestring_redirect',
]);

/** The default of `trailing` (shared: most visits have none). */
export const NO_NODES: readonly SyntaxNode[] = Object.freeze([]);

/** The abort for a node tree-sitter-bash read across two lines (misreadings.ts). */
export function misread(node: SyntaxNode, what = 'two lines read as one'): AnalysisAbort {
  return new AnalysisAbort(`cannot parse the command reliably: ${what} near "${node.text.slice(0, 40)}"`);
}
