// Parses a script for the walker: tree-sitter with the analysis's deadline, a script in pieces (script-lines.ts)
// where each parses cleanly, and same-length rewrites of what tree-sitter-bash cannot read.
import type { Node, Tree } from 'web-tree-sitter';
import { TreeSitterNode, type SyntaxNode } from './syntax.ts';
import { parseSimple } from './simple-parse.ts';
import type { ScriptPiece } from './script-lines.ts';
import { BRACE_PLACEHOLDER, TILDE_PLACEHOLDER } from './template.ts';
import { AnalysisAbort } from './limits.ts';
import type { WalkTools } from './walker.ts';

/** A `{` that opens a brace-expanded command word (`{rm,-rf,~}`): tree-sitter reads it as a group. */
const BRACE_COMMAND = /(^|[;&|(\n]\s*)\{(?=[^\s{}]*,[^\s]*\})/g;

/** A lone `~` word, which tree-sitter-bash misreads inside `[[ … ]]` and `[ … ]`. */
const LONE_TILDE = /(?<=[\s(])~(?=[\s/;)]|$)/g;

/** One parse under the analysis's deadline. */
export function parseOnce(tools: WalkTools, text: string): Tree {
  const tree = tools.parser.parse(text, null, tools.parseOptions as { progressCallback: () => void });
  if (!tree) throw new AnalysisAbort('parsing took longer than its time limit', true);
  return tree;
}

/**
 * The statements of a script split by scriptPieces, in order (comments left out), with the trees to delete after
 * the walk; undefined (nothing kept) when a run does not parse cleanly on its own: the whole script is parsed then.
 */
export function parsePieces(
  tools: WalkTools,
  text: string,
  pieces: ScriptPiece[],
): { nodes: SyntaxNode[]; trees: Tree[] } | undefined {
  const nodes: SyntaxNode[] = [];
  const trees: Tree[] = [];
  for (const piece of pieces) {
    if (piece.plain) {
      nodes.push(...piece.plain.namedChildren);
      continue;
    }
    const source = text.slice(piece.start, piece.end);
    // A run of several lines that simple-parse still reads: a command ending in a here-doc (`cat > f <<'EOF'`).
    const plain = source.includes('<<') ? parseSimple(source) : undefined;
    if (plain) {
      nodes.push(...plain.namedChildren);
      continue;
    }
    const tree = parseOnce(tools, source);
    trees.push(tree);
    if (tree.rootNode.hasError) {
      for (const t of trees) t.delete();
      return undefined;
    }
    for (const node of new TreeSitterNode(tree.rootNode, source).namedChildren)
      if (node.type !== 'comment') nodes.push(node);
  }
  return { nodes, trees };
}

/** The tree and the exact text it was parsed from (node text is sliced from it). */
export function parseScript(tools: WalkTools, text: string): { tree: Tree; source: string } {
  const tree = parseOnce(tools, text);
  if (!tree.rootNode.hasError) return { tree, source: text };
  // Rewrites of the same length (node offsets stay those of the text) for what tree-sitter-bash cannot read:
  // `{ rm …`-style brace words, a lone `~`, a line continuation ending the text, the read-write redirection `<>`
  // (read here as `>`: what it opens is judged as written, `exec 5<>/dev/tcp/…` as a socket).
  const rescued = text
    .replace(BRACE_COMMAND, `$1${BRACE_PLACEHOLDER}`)
    .replace(LONE_TILDE, TILDE_PLACEHOLDER)
    .replace(/\\\r?\n?$/, (m) => ' '.repeat(m.length))
    .replace(/(\d|\s)<>(?=\S)/g, '$1> ');
  if (rescued !== text) {
    const second = parseOnce(tools, rescued);
    if (!second.rootNode.hasError) {
      tree.delete();
      return { tree: second, source: rescued };
    }
    second.delete();
  }
  const bad = firstError(tree.rootNode);
  tree.delete();
  throw new AnalysisAbort(`cannot parse the command (syntax error near "${bad.slice(0, 40)}")`);
}

/** The text near the first syntax error of a tree. */
function firstError(node: Node): string {
  if (node.isMissing) return `missing ${node.type}`;
  if (node.type === 'ERROR') return node.text || node.type;
  for (const c of node.children) if (c && (c.hasError || c.isMissing)) return firstError(c);
  return node.text;
}
