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

/**
 * tree-sitter-bash 0.25 splits some words in two where bash reads one: after a `[` that an escape follows
 * (`printf -v a[\$\(cmd\)] x`, `x=a[\$\(cmd\)]`, in which the second half becomes the command's name), and at a
 * backslash-newline inside a word (`r\⏎m -rf ~` is `rm` to bash, `r` and `m` to tree-sitter). Two of a command's
 * words with nothing or only backslash-newlines between them are that misreading: bash would glue them.
 */
export function splitsWord(command: SyntaxNode): boolean {
  const text = command.text;
  const base = command.startIndex;
  let end = -1;
  for (const child of command.namedChildren) {
    if (
      end >= 0 &&
      !NOT_WORDS.has(child.type) &&
      (child.startIndex === end ||
        (text.charCodeAt(end - base) === BACKSLASH &&
          /^(?:\\\r?\n)+$/.test(text.slice(end - base, child.startIndex - base))))
    )
      return true;
    end = NOT_WORDS.has(child.type) ? -1 : child.endIndex;
  }
  return false;
}

const BACKSLASH = 0x5c;

/** A command's children that are not its words (a redirection may touch a word: `echo hi>f`). */
const NOT_WORDS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect', 'comment']);

/** A bare word (or a name or concatenation of them) with a newline inside, or between the parts of a concatenation. */
function bareWordWithNewline(node: SyntaxNode, text: string, base: number): boolean {
  switch (node.type) {
    case 'word':
    case 'number':
      return unescapedNewline(text, node.startIndex - base, node.endIndex - base);
    case 'command_name':
      return node.namedChildren.some((c) => bareWordWithNewline(c, text, base));
    // `A=\⏎⏎rm -rf ~`: the continuation ends at the empty line; tree-sitter takes `rm` as the value.
    case 'variable_assignment':
    case 'concatenation': {
      // `\`ls\`⏎\`rm -rf ~\`` read as one word made of two substitutions.
      let end = node.startIndex;
      for (const c of node.children) {
        if (c.startIndex > end && unescapedNewline(text, end - base, c.startIndex - base)) return true;
        // An anonymous piece (the "`⏎`" of `` `ls`⏎`rm` `` read as one substitution) is bare text too.
        if (
          !c.isNamed
            ? unescapedNewline(text, c.startIndex - base, c.endIndex - base)
            : bareWordWithNewline(c, text, base)
        )
          return true;
        end = Math.max(end, c.endIndex);
      }
      return false;
    }
    default:
      return false;
  }
}

/**
 * Words tree-sitter-bash hangs on a redirection as more destinations (`rm 2>/dev/null -rf ~`: `-rf` and `~`): bash
 * passes them to the command as arguments, as if they came before the redirection.
 */
export function wordsAfterRedirect(redirect: SyntaxNode): readonly SyntaxNode[] {
  // After a here-doc's word (`rm <<EOF -rf ~`) they are its `argument` children.
  if (redirect.type === 'heredoc_redirect') return redirect.namedChildren.filter((c) => HEREDOC_ARGUMENTS.has(c.type));
  if (redirect.type !== 'file_redirect') return NONE;
  let seen = 0;
  let extra: SyntaxNode[] | undefined;
  for (const c of redirect.namedChildren) {
    if (c.type === 'file_descriptor') continue;
    if (seen++ > 0) (extra ??= []).push(c);
  }
  return extra ?? NONE;
}

/**
 * tree-sitter-bash 0.25 takes the first line of a here-doc's body for more arguments when it starts with a backslash
 * (`cat <<'EOF'⏎\git reset --hard⏎EOF`: `⏎\git`, `reset` and `--hard`, and an empty body); bash ends the command
 * line at the newline, so an argument of a here-doc redirection on a later line than `<<` is that misreading.
 */
export function heredocBodyAsArguments(redirect: SyntaxNode): boolean {
  if (redirect.type !== 'heredoc_redirect') return false;
  const text = redirect.text;
  const base = redirect.startIndex;
  return redirect.namedChildren.some(
    (c) => HEREDOC_ARGUMENTS.has(c.type) && unescapedNewline(text, 0, c.endIndex - base),
  );
}

const NONE: readonly SyntaxNode[] = Object.freeze([]);
/** The word types tree-sitter-bash hangs on a here-doc redirection as the command's further arguments. */
export const HEREDOC_ARGUMENTS: ReadonlySet<string> = new Set([
  'word',
  'number',
  'string',
  'raw_string',
  'ansi_c_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
]);

/**
 * Carriage returns, form feeds and vertical tabs separate words for tree-sitter-bash, not for bash (`a\r#; rm …`);
 * a CR ending a line of CRLF text (or the text) only ends the word.
 */
export const FOREIGN_BLANK = /\r(?!\n|$)|[\f\v]/;

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
 * unclosed without an error (`cat <<EOF⏎a $x b`, with a made-up end ` b`): the lines after would be read as its
 * text; it takes a delimiter up to the next blank where bash stops at `>`, `|`, `;`… (`<<EOF>f` ends at `EOF` in
 * bash); and it ends a here-doc at the word after blanks (`  EOF`), where bash does not.
 */
export function endsLikeBash(node: SyntaxNode): boolean {
  let start = '';
  let end: SyntaxNode | undefined;
  let stripTabs = false;
  for (const c of node.children) {
    if (c.type === 'heredoc_start') start = c.text;
    else if (c.type === 'heredoc_end') end = c;
    else if (c.type === '<<-') stripTabs = true;
  }
  if (end === undefined || /^(?:[^'"]|'[^']*'|"[^"]*")*?[|&;<>()\s]/.test(start)) return false;
  // The end line: the end word with nothing before it on its line (tabs too, after `<<-`).
  const text = node.text;
  let before = end.startIndex - node.startIndex - 1;
  while (stripTabs && text.charCodeAt(before) === 0x09) before--;
  if (text.charCodeAt(before) !== 0x0a) return false;
  return end.text === start.replace(/["'\\]/g, '');
}
