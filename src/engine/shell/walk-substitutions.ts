// `$(…)`, backquotes and `<(…)`/`>(…)`: their commands walked one level deeper, their static output returned; and
// the word-resolution scope of a frame (word.ts calls back through it).
import type { ScriptWalker } from './walker.ts';
import type { SyntaxNode } from './syntax.ts';
import { deeper, type Frame } from './frame.ts';
import type { Stdin } from './view.ts';
import type { WordScope } from './word.ts';
import type { ExpansionBudget } from './limits.ts';
import { AnalysisAbort } from './limits.ts';

/** `$(…)` or backticks: walks the inner commands one level deeper; returns their static output. */
export function substitute(walker: ScriptWalker, node: SyntaxNode, frame: Frame): string | undefined {
  const inner = deeper(frame);
  let out: string | undefined;
  if (node.text.startsWith('`')) {
    // Inside backticks, \` \\ and \$ are escapes: the body is re-parsed as its own script (nested backticks run).
    const body = node.text.slice(1, -1).replace(/\\([`\\$])/g, '$1');
    out = walker.script(body, inner);
  } else {
    if (inner.depth > walker.limits.maxDepth)
      throw new AnalysisAbort(`command nests deeper than ${walker.limits.maxDepth} levels`);
    const children = node.namedChildren.filter((c) => c.type !== 'comment');
    for (const c of children) out = walker.visit(c, inner);
    if (children.length !== 1) out = undefined;
  }
  return out?.replace(/\n+$/, '');
}

/** `<(…)` / `>(…)`: walks the inner commands; returns their program names and static output. */
export function processSubstitute(
  walker: ScriptWalker,
  node: SyntaxNode,
  frame: Frame,
): { programs: string[]; output?: string } {
  const before = walker.commands.length;
  const inner: Frame = { depth: frame.depth + 1, vars: new Map(frame.vars) };
  if (inner.depth > walker.limits.maxDepth)
    throw new AnalysisAbort(`command nests deeper than ${walker.limits.maxDepth} levels`);
  const children = node.namedChildren.filter((c) => c.type !== 'comment');
  // `>(cmd)` reads what is written into it, as a pipe: `echo … > >(bash)` and `tee >(sh)` pipe text into a shell.
  const saved = walker.feed;
  const feed: Stdin | undefined = node.text.startsWith('>(') ? (saved ?? { kind: 'pipe', upstream: [] }) : undefined;
  let output: string | undefined;
  for (const c of children) output = walker.visit(c, inner, feed);
  walker.feed = saved;
  const programs = walker.commands.slice(before).map((c) => c.program);
  return children.length === 1 && output !== undefined ? { programs, output } : { programs };
}

/** Word resolution inside one frame: substitutions run one level deeper (a class: no closures per frame). */
export class FrameScope implements WordScope {
  readonly vars: Map<string, string | undefined>;

  constructor(
    readonly walker: ScriptWalker,
    readonly frame: Frame,
  ) {
    this.vars = frame.vars;
  }

  /** `~` expands to HOME as the script set it (`HOME=~/.ssh; cat ~/id_rsa`), else the real home. */
  get home(): string {
    return this.walker.homeOf(this.frame);
  }

  arrayElement(name: string, index: number): string | undefined {
    return this.walker.state.array(name)?.[index]?.value; // arrays are kept only when every element is known
  }

  substitute(node: SyntaxNode): { output?: string; programs: string[]; secret?: boolean } {
    const { walker } = this;
    const before = walker.commands.length;
    const printed = walker.state.secrets.within(() => walker.substitute(node, this.frame));
    const output = printed.value;
    const programs = walker.commands.slice(before).map((c) => c.program);
    // `TOKEN=$(gh auth token)`, `-H "Bearer $(gcloud auth print-access-token)"`: what the substitution prints is captured
    // into the word, not shown; the word carries it (a printer printing the word prints the secret).
    const secret = walker.state.secrets.capture(printed.output);
    const out: { output?: string; programs: string[]; secret?: boolean } = { programs };
    if (output !== undefined) out.output = output;
    if (secret) out.secret = true;
    return out;
  }

  get secretVars(): ReadonlySet<string> {
    return this.walker.state.secrets.vars;
  }

  get budget(): ExpansionBudget {
    return this.walker.budget;
  }

  processSubstitute(node: SyntaxNode): { programs: string[]; output?: string } {
    return this.walker.processSubstitute(node, this.frame);
  }

  evaluate(code: string, origin: string): string[] {
    const { walker } = this;
    const before = walker.commands.length;
    walker.nestedScript(code, deeper(this.frame), origin);
    return walker.commands.slice(before).map((c) => c.program);
  }
}
