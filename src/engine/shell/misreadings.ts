// Where tree-sitter-bash 0.25 reads a script otherwise than bash runs it, without reporting an error: the walker
// refuses to judge such a tree (the analysis fails and the call is asked about) instead of missing a command.
import type { SyntaxNode } from './syntax.ts';

/**
 * tree-sitter-bash 0.25 sometimes runs two lines into one command or redirection: `a | b | c⏎d > f` (`d` becomes an
 * argument of `c`), `X=1 Y=2⏎cmd`, `a⏎\rm -rf ~` (`\rm` an argument of `a`), `a > f⏎\rm x` (`\rm` and `x` more
 * destinations of `> f`). Bash ends a simple command at a newline that no backslash escapes, so such a newline
 * between the words of a command, a redirection or a redirected statement, or inside a bare word, is that misreading.
 */
export function runsLinesTogether(node: SyntaxNode): boolean {
  const text = node.text;
  if (!text.includes('\n')) return false;
  const base = node.startIndex;
  let end = base;
  for (const child of node.namedChildren) {
    if (child.startIndex > end && unescapedNewline(text, end - base, child.startIndex - base)) return true;
    if (bareWordWithNewline(child, text, base)) return true;
    end = Math.max(end, child.endIndex);
  }
  return false;
}

function bareWordWithNewline(node: SyntaxNode, text: string, base: number): boolean {
  switch (node.type) {
    case 'word': case 'number': return unescapedNewline(text, node.startIndex - base, node.endIndex - base);
    case 'command_name': case 'concatenation': return node.namedChildren.some((c) => bareWordWithNewline(c, text, base));
    default: return false;
  }
}

/** True when text[from, to) has a newline not escaped by a backslash (a line continuation). */
function unescapedNewline(text: string, from: number, to: number): boolean {
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) {
    let backslashes = 0;
    for (let k = i - 1; k >= 0 && text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return true;
  }
  return false;
}

/**
 * True when a here-doc ends on the line bash ends it: its delimiter with quotes removed (`<<E"O"F` ends at `EOF`,
 * where tree-sitter-bash looks for `E"O"F`), alone on its line. tree-sitter-bash 0.25 also leaves some here-docs
 * unclosed without an error (`cat <<EOF⏎a $x b`, with a made-up end ` b`): the lines after would be read as its text.
 */
export function endsLikeBash(node: SyntaxNode): boolean {
  let start = '';
  let end: string | undefined;
  let stripTabs = false;
  for (const c of node.children) {
    if (c.type === 'heredoc_start') start = c.text;
    else if (c.type === 'heredoc_end') end = c.text;
    else if (c.type === '<<-') stripTabs = true;
  }
  if (end === undefined) return false;
  return (stripTabs ? end.replace(/^\t+/, '') : end) === start.replace(/["'\\]/g, '');
}
