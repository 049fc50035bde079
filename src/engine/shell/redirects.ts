// Resolves redirections: file targets (read or written), and here-docs / here-strings as a command's stdin.
import type { SyntaxNode } from './syntax.ts';
import type { ScriptWalker } from './walker.ts';
import { deeper, type Frame } from './frame.ts';
import { writtenContents, type Redirect, type Stdin } from './view.ts';
import { resolveWord, type Word } from './word.ts';

const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** What a command's redirections resolve to. */
export interface ResolvedRedirects {
  redirects: Redirect[];
  /** Here-docs, here-strings and `< <(…)`: what the command reads on its standard input. */
  stdin?: Stdin;
  /**
   * Other descriptors opened for reading on a process substitution (`3< <(curl …)`), by number: a command that
   * names `/dev/fd/3` reads what the substitution prints, as if it were named `<(curl …)`.
   */
  fds?: Map<string, Word>;
}

/**
 * Resolves redirect nodes; here-docs and here-strings become the command's stdin. `descriptors` gives the descriptor
 * of a redirection whose number tree-sitter-bash read as the command's last argument (`exec 0< <(…)`).
 */
export function resolveRedirects(
  walker: ScriptWalker,
  nodes: SyntaxNode[],
  frame: Frame,
  descriptors?: ReadonlyMap<SyntaxNode, string>,
): ResolvedRedirects {
  const scope = walker.wordScope(frame);
  const redirects: Redirect[] = [];
  let stdin: Stdin | undefined;
  let fds: Map<string, Word> | undefined;
  for (const node of nodes) {
    const op = node.children.find((c) => !c.isNamed)?.text ?? '';
    if (node.type === 'file_redirect') {
      const dest =
        node.childForFieldName('destination') ?? node.namedChildren.find((c) => c.type !== 'file_descriptor');
      if (!dest || ((op === '>&' || op === '<&') && /^\d+-?$|^-$/.test(dest.text))) continue;
      const target = resolveWord(dest, scope)[0];
      const given = descriptors?.get(node) ?? node.namedChildren.find((c) => c.type === 'file_descriptor')?.text;
      if (target)
        redirects.push(
          given === undefined
            ? { op, target, write: op.includes('>') }
            : { op, target, write: op.includes('>'), fd: given },
        );
      if (op !== '<') continue;
      const fd = given ?? '0';
      if (target?.inner?.processSubstitution) {
        // `bash < <(echo cmd)`: the command reads the substitution's output, known here; `bash < <(curl …)`: what
        // the programs inside print, as from a pipe.
        if (fd === '0')
          stdin =
            target.processOutput !== undefined
              ? { kind: 'herestring', upstream: target.inner.programs, text: target.processOutput }
              : { kind: 'pipe', upstream: target.inner.programs };
        else (fds ??= new Map()).set(fd, target);
      } else if (fd === '0') {
        // `echo 'rm -rf ~' > x; bash < x`: a file this command line wrote with known contents is the stdin.
        const written = writtenContents(walker.state.written, target);
        if (written !== undefined) stdin = { kind: 'herestring', upstream: [], text: written };
      }
    } else if (node.type === 'herestring_redirect') {
      const word = node.namedChildren[0];
      const words = word ? resolveWord(word, scope) : [];
      const value = words.map((w) => w.value).join(' ');
      stdin = { kind: 'herestring', upstream: words.flatMap((w) => w.inner?.programs ?? []), text: value + '\n' };
      if (words.some((w) => w.dynamic)) stdin.dynamic = true;
    } else if (node.type === 'heredoc_redirect') {
      stdin = { kind: 'heredoc', upstream: [], text: heredocText(walker, node, frame) };
      const nested = node.namedChildren.filter((c) => REDIRECT_TYPES.has(c.type));
      if (nested.length) redirects.push(...resolveRedirects(walker, nested, frame).redirects);
    }
  }
  const out: ResolvedRedirects = { redirects };
  if (stdin) out.stdin = stdin;
  if (fds) out.fds = fds;
  return out;
}

function heredocText(walker: ScriptWalker, node: SyntaxNode, frame: Frame): string {
  const start = node.namedChildren.find((c) => c.type === 'heredoc_start')?.text ?? '';
  const body = node.namedChildren.find((c) => c.type === 'heredoc_body');
  if (!body) return '';
  const stripTabs = node.children.some((c) => c.text === '<<-');
  let text = '';
  // An unquoted delimiter: bash runs the body's backquotes, which tree-sitter-bash leaves as text.
  if (!/['"\\]/.test(start) && body.text.includes('`')) backquotesIn(walker, body.text, frame, node.text);
  if (/['"\\]/.test(start) || body.namedChildren.length === 0) text = body.text;
  else {
    let cursor = body.startIndex;
    for (const c of body.namedChildren) {
      text += body.text.slice(cursor - body.startIndex, c.startIndex - body.startIndex);
      cursor = c.endIndex;
      if (c.type === 'heredoc_content') text += c.text;
      else if (c.type === 'command_substitution') {
        const output = walker.substitute(c, frame);
        if (output !== undefined) walker.budget.charge(output.length);
        text += output ?? c.text;
      } else
        text +=
          c.type === 'simple_expansion' || c.type === 'expansion' || c.type === 'arithmetic_expansion'
            ? resolveWord(c, walker.wordScope(frame))
                .map((w) => w.value)
                .join(' ')
            : c.text;
    }
    text += body.text.slice(cursor - body.startIndex);
    walker.budget.word(text.length, 'a here-document');
  }
  return stripTabs ? text.replace(/^\t+/gm, '') : text;
}

/** Walks the code of each backquote pair in an unquoted here-doc's body, one level deeper (like `$(…)` there). */
function backquotesIn(walker: ScriptWalker, body: string, frame: Frame, origin: string): void {
  const inner = deeper(frame);
  for (const m of body.matchAll(/`((?:\\.|[^`\\])*)`/g))
    walker.nestedScript(m[1]!.replace(/\\([`\\$])/g, '$1'), inner, origin);
}
