// A command node: its prefix assignments, its name (and how literally it is written), its arguments and its
// redirections read in one pass, descriptors opened on process substitutions put in place; then processCommand.
import type { ScriptWalker } from './walker.ts';
import { TreeSitterNode, type SyntaxNode } from './syntax.ts';
import type { Frame } from './frame.ts';
import type { Stdin } from './view.ts';
import { resolveWord, type Word } from './word.ts';
import { BRACE_PLACEHOLDER } from './template.ts';
import { processCommand, type NameKind } from './command.ts';
import { programName } from './unwrap.ts';
import { runsLinesTogether, splitsWord, wordsAfterRedirect } from './misreadings.ts';
import { prefixAssignment } from './walk-assignments.ts';
import { afterHereDocuments } from './walk-lists.ts';
import { misread, REDIRECT_TYPES } from './walk-nodes.ts';

/**
 * Walks a command node. `outer` are redirections written after it (`trailing` of visit); `text` the text findings
 * name (the whole redirected statement, when there is one).
 */
export function walkCommand(
  walker: ScriptWalker,
  node: SyntaxNode,
  frame: Frame,
  outer: readonly SyntaxNode[],
  stdin?: Stdin,
  text?: string,
): string | undefined {
  if (node instanceof TreeSitterNode && runsLinesTogether(node)) throw misread(node);
  if (node instanceof TreeSitterNode && splitsWord(node)) throw misread(node, 'one word read as two');
  text ??= outer.length ? `${node.text} ${outer.map((r) => r.text).join(' ')}` : node.text;
  const scope = walker.wordScope(frame);
  const inner: SyntaxNode[] = [];
  const words: Word[] = [];
  let nameKind: NameKind = 'literal';
  /** The last argument read, while nothing else has followed it (a descriptor tree-sitter took for an argument). */
  let last: { node: SyntaxNode; count: number } | undefined;
  const outerFeed = walker.feed;
  walker.feed = undefined;
  // One pass over the children (each child access crosses into wasm): assignments, the name, arguments, redirects.
  let descriptors: Map<SyntaxNode, string> | undefined;
  // `exec 0< <(…)`, `exec {fd}< <(…)`: tree-sitter-bash reads the descriptor as an argument before the redirection.
  const descriptorBefore = (r: SyntaxNode): void => {
    if (
      !last ||
      last.node.endIndex !== r.startIndex ||
      !DESCRIPTOR_WORD.test(last.node.text) ||
      words.length <= last.count
    )
      return;
    words.splice(words.length - last.count, last.count);
    (descriptors ??= new Map()).set(r, last.node.text);
  };
  for (const c of node.namedChildren) {
    const type = c.type;
    if (REDIRECT_TYPES.has(type)) {
      descriptorBefore(c);
      inner.push(c);
    } else if (type === 'variable_assignment') prefixAssignment(walker, c, frame);
    else if (type === 'command_name') {
      // command_name wraps the word that names the program.
      const target = c.firstNamedChild ?? c;
      const resolved = resolveWord(target, scope);
      nameKind = classifyName(target, resolved);
      words.push(...resolved);
      // `… | tee >(sh)`: tee copies its input into the substitution; other commands write what they print.
      walker.feed =
        resolved.length === 1 && programName(resolved[0]!.value) === 'tee'
          ? {
              kind: 'pipe',
              upstream: [...(stdin?.upstream ?? []), 'tee'],
              ...(stdin?.text !== undefined ? { text: stdin.text } : {}),
            }
          : undefined;
    } else if (type === 'subshell' || type === 'compound_statement')
      walker.visit(c, frame); // `time (make)`
    else if (type !== 'comment') {
      const resolved = resolveWord(c, scope);
      words.push(...resolved);
      last = { node: c, count: resolved.length };
      continue;
    }
    last = undefined;
  }
  if (outer[0]) descriptorBefore(outer[0]);
  const all = inner.concat(outer);
  // Words tree-sitter-bash hung on a redirection (`rm 2>/dev/null -rf ~`) are the command's arguments in bash.
  for (const r of all) for (const w of wordsAfterRedirect(r)) words.push(...resolveWord(w, scope));
  const { redirects, stdin: redirected, fds } = walker.redirects(all, frame, descriptors);
  walker.feed = outerFeed;
  // `exec 3< <(curl …)`, `exec < <(curl …)` with no command: the descriptors stay open for the rest of the script;
  // otherwise they are open for walker command and the code it runs (`bash -c 'bash /dev/fd/3' 3< <(…)`).
  const execOnly = words.length === 1 && words[0]!.value === 'exec';
  if (execOnly && redirected) frame.stdin = redirected;
  const outside = frame.fds;
  const open = fds ? new Map([...(outside ?? []), ...fds]) : outside;
  if (open !== outside) frame.fds = open;
  const argv = open ? words.map((w) => openDescriptor(w, open) ?? w) : words;
  const before = walker.commands.length;
  const out = processCommand(walker, argv, {
    frame,
    text,
    redirects,
    stdin: redirected ?? stdin ?? frame.stdin,
    nameKind,
  });
  if (open !== outside && !execOnly) frame.fds = outside;
  return afterHereDocuments(walker, all, frame, out, before);
}

/** How literal a command name is (quotes and backslashes are literal; `$HOME/bin/x` is predictable). */
function classifyName(node: SyntaxNode, words: Word[]): NameKind {
  if (words.some((w) => w.braced) || node.text.startsWith(BRACE_PLACEHOLDER)) return 'brace';
  if (words.some((w) => w.substituted)) return 'substitution';
  if (words.some((w) => w.expanded) && !/^"?\$\{?HOME\}?"?(\/|$)/.test(node.text)) return 'variable';
  if (words.some((w) => w.glob)) return 'glob';
  return 'literal';
}

/** A descriptor as written before `<`: a number, or `{name}` (bash puts the number it picks in `$name`). */
const DESCRIPTOR_WORD = /^(?:\d+|\{[A-Za-z_]\w*\})$/;

/**
 * `/dev/fd/N` (or `/proc/self/fd/N`, or `/dev/fd/$name` for `{name}<`) naming a descriptor opened on a process
 * substitution: that substitution's word.
 */
function openDescriptor(word: Word, open: ReadonlyMap<string, Word>): Word | undefined {
  const m =
    /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(word.value) ??
    /^\/(?:dev|proc\/self)\/fd\/\$\{?([A-Za-z_]\w*)\}?$/.exec(word.source);
  if (!m) return undefined;
  return /^\d+$/.test(m[1]!) ? open.get(m[1]!) : open.get(`{${m[1]}}`);
}
