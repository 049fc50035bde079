// Lists, pipelines and redirected statements: what each stage is fed, where what it prints goes (a file, a keeper of
// secrets, the next stage), find's listing handed down the pipe, and the code tree-sitter hangs on a here-doc.
import type { ScriptWalker } from './walker.ts';
import type { SyntaxNode } from './syntax.ts';
import type { Frame } from './frame.ts';
import type { SimpleCommand } from './types.ts';
import { stdoutToFile, type Stdin } from './view.ts';
import type { Output } from './secrets.ts';
import { HEREDOC_ARGUMENTS, wordsAfterRedirect } from './misreadings.ts';
import { processBareRedirects } from './command.ts';
import { programName } from './unwrap.ts';
import { xargsProgram } from './nested.ts';
import { findRoots, LIST_FILTERS, listedTreePaths, NAMES_ONLY } from './paths.ts';
import { keepsSecretInput, RESHAPES_INPUT } from '../catalog/danger-secrets.ts';
import { misread, NO_NODES, REDIRECT_TYPES } from './walk-nodes.ts';

/** The children of a here-doc redirection that are the here-doc itself (anything else is code on its line). */
const HEREDOC_PARTS = new Set([
  'heredoc_start',
  'heredoc_body',
  'heredoc_end',
  'file_redirect',
  'herestring_redirect',
  'comment',
]);

/**
 * A statement with redirections. `trailing` are redirections written after it that bash applies to its last simple
 * command (tree-sitter-bash hangs `a && b > f` and `a | b > f` on the whole list or pipeline).
 */
export function walkRedirected(
  walker: ScriptWalker,
  node: SyntaxNode,
  frame: Frame,
  stdin: Stdin | undefined,
  trailing: readonly SyntaxNode[],
): string | undefined {
  const body = node.childForFieldName('body');
  const redirects = node.namedChildren.filter((c) => c !== body && REDIRECT_TYPES.has(c.type)).concat(trailing);
  if (body?.type === 'command') return walker.command(body, frame, redirects, stdin, node.text);
  if (body?.type === 'list' || body?.type === 'pipeline') return walker.visit(body, frame, stdin, redirects);
  if (redirects.some((r) => wordsAfterRedirect(r).length > 0)) throw misread(node);
  const resolved = walker.redirects(redirects, frame);
  processBareRedirects(walker, resolved.redirects, frame, node.text);
  const before = walker.commands.length;
  const { secrets } = walker.state;
  const { value: out, output } = secrets.within(() =>
    body ? walker.visit(body, frame, resolved.stdin ?? stdin) : undefined,
  );
  // `{ echo "token=$TOKEN"; } > .env`: what the group prints goes to the file, not to the agent.
  if (resolved.redirects.some(stdoutToFile)) secrets.capture(output);
  else secrets.release(output);
  return afterHereDocuments(walker, redirects, frame, out, before);
}

/** A list (`a && b; c`): the trailing redirections go to its last part. */
export function walkList(
  walker: ScriptWalker,
  node: SyntaxNode,
  frame: Frame,
  stdin: Stdin | undefined,
  trailing: readonly SyntaxNode[],
): undefined {
  const children = node.namedChildren.filter((c) => c.type !== 'comment');
  for (let i = 0; i < children.length; i++)
    walker.visit(children[i]!, frame, stdin, i === children.length - 1 ? trailing : NO_NODES);
  return undefined;
}

/** A redirection standing alone (`> f`, a here-doc and what follows it on its line). */
export function walkBareRedirect(walker: ScriptWalker, node: SyntaxNode, frame: Frame): string | undefined {
  if (wordsAfterRedirect(node).length > 0) throw misread(node);
  processBareRedirects(walker, walker.redirects([node], frame).redirects, frame, node.text);
  return afterHereDocuments(walker, [node], frame, undefined, walker.commands.length);
}

/**
 * A pipeline: each stage fed what the one before prints (statically, when known), what a stage prints held until a
 * later stage is known to keep it or not (a login reading a token on stdin), find's list handed down to xargs.
 */
export function walkPipeline(
  walker: ScriptWalker,
  node: SyntaxNode,
  frame: Frame,
  stdin: Stdin | undefined,
  trailing: readonly SyntaxNode[],
): string | undefined {
  let input = stdin;
  let out: string | undefined;
  const upstream: string[] = [...(stdin?.upstream ?? [])];
  const stages = node.namedChildren.filter((c) => c.type !== 'comment');
  /** Where each stage prints (secrets.ts), and the commands each ran. */
  const outputs: Output[] = [];
  const stageCommands: SimpleCommand[][] = [];
  /** The find whose list flows down the pipe (`find ~ -type f | head | xargs cat`), while only filters pass it on. */
  let listing: SimpleCommand | undefined;
  for (const [i, stage] of stages.entries()) {
    const before = walker.commands.length;
    const stageOut = walker.state.secrets.within(() =>
      walker.visit(stage, frame, input, i === stages.length - 1 ? trailing : NO_NODES),
    );
    out = stageOut.value;
    outputs.push(stageOut.output);
    const ran = walker.commands.slice(before);
    stageCommands.push(ran);
    // `aws ecr get-login-password | docker login --password-stdin …`, `echo "$KEY" | tr -d '\r' | ssh-add -`: the
    // secret goes into what keeps or digests it (through stages that only reshape it), not to the agent's output.
    // (The stage's command is its last: substitutions in its words ran before it.)
    if (i > 0 && ran.length > 0 && takesSecretOnStdin(walker, ran.at(-1)!)) {
      for (let j = i - 1; j >= 0; j--) {
        walker.state.secrets.capture(outputs[j]!);
        if (!stageCommands[j]!.every((c) => RESHAPES_INPUT.has(c.program) && c.wrappers.length === 0)) break;
      }
    }
    // `find ~ -type f | xargs cat`: the command xargs runs is handed every file find lists.
    const xargs = ran.find((c) => c.program === 'xargs');
    if (listing && xargs && !NAMES_ONLY.has(programName(xargsProgram(xargs.argv.slice(1)))))
      walker.paths.push(...listedTreePaths(listing.argv.slice(1), stage.text, frame.base));
    if (ran.length === 1 && ran[0]!.program === 'find' && ran[0]!.wrappers.length === 0) listing = ran[0];
    else if (!(ran.length === 1 && LIST_FILTERS.has(ran[0]!.program))) listing = undefined;
    upstream.push(...ran.map((c) => c.program));
    input = { kind: 'pipe', upstream: [...upstream], ...(out !== undefined ? { text: out } : {}) };
    if (listing) {
      input.listing = findRoots(listing.argv.slice(1));
      input.listedBy = listing.argv.slice(1);
    }
  }
  // What a stage printed and no later stage kept goes where the pipeline's output goes.
  for (const output of outputs) walker.state.secrets.release(output);
  return out;
}

/**
 * A login that reads its password or token from stdin (`docker login --password-stdin`, `gh auth login --with-token`),
 * or a consumer that keeps it or only digests it (`ssh-add -`, `gpg --import`, `gh secret set`, `wc -c`, `sha256sum`),
 * or a command whose output goes to a file: what is piped in is not printed. Not a function of the script's own
 * (`docker() { cat; }`) nor a program named by a path.
 */
function takesSecretOnStdin(walker: ScriptWalker, command: SimpleCommand): boolean {
  const { program, argv } = command;
  if (walker.state.functions.defined.has(argv[0] ?? '') || (argv[0] ?? '').includes('/')) return false;
  if (command.stdoutToFile) return true;
  return keepsSecretInput(program, argv);
}

/**
 * What tree-sitter-bash hangs inside a here-doc redirection when it follows on the operator's line: `cat <<EOF | sh`
 * (a pipeline the command's output goes into) and `cat <<EOF && rm …` (the rest of a list). Bash runs them.
 */
export function afterHereDocuments(
  walker: ScriptWalker,
  redirects: SyntaxNode[],
  frame: Frame,
  out: string | undefined,
  before: number,
): string | undefined {
  for (const r of redirects) {
    if (r.type !== 'heredoc_redirect') continue;
    for (const c of r.namedChildren) {
      if (c.type === 'pipeline') {
        const upstream = walker.commands.slice(before).map((x) => x.program);
        out = walkPipeline(
          walker,
          c,
          frame,
          { kind: 'pipe', upstream, ...(out !== undefined ? { text: out } : {}) },
          NO_NODES,
        );
      } else if (!HEREDOC_PARTS.has(c.type) && !HEREDOC_ARGUMENTS.has(c.type)) {
        walker.visit(c, frame);
        out = undefined;
      }
    }
  }
  return out;
}
