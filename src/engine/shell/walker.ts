// Walks a tree-sitter-bash tree and finds every simple command that would run, with its words, redirects and stdin.
import type { Parser } from 'web-tree-sitter';
import { TreeSitterNode, type SyntaxNode } from './syntax.ts';
import type { Frame } from './frame.ts';
import { PLAIN_STATEMENT_TYPES, parseSimple, parseSimpleStatement } from './simple-parse.ts';
import { scriptPieces } from './script-lines.ts';
import { endsLikeBash, FOREIGN_BLANK, heredocBodyAsArguments, runsLinesTogether } from './misreadings.ts';
import type { Finding } from '../types.ts';
import type { ShellPath, SimpleCommand } from './types.ts';
import type { Word, WordScope } from './word.ts';
import type { Stdin } from './view.ts';
import type { Deadline } from './deadline.ts';
import { ScriptState } from './script-state.ts';
import { SecretTracker } from './secrets.ts';
import { resolveRedirects, type ResolvedRedirects } from './redirects.ts';
import { ANALYSIS_FINDINGS } from '../catalog/analysis-findings.ts';
import { AnalysisAbort, ExpansionBudget, type ExpansionLimits } from './limits.ts';
import { parsePieces, parseScript } from './script-parse.ts';
import { misread, NO_NODES } from './walk-nodes.ts';
import { walkBareRedirect, walkList, walkPipeline, walkRedirected } from './walk-lists.ts';
import { walkCommand } from './walk-command.ts';
import { walkAssignment, walkDeclaration, walkUnset } from './walk-assignments.ts';
import { walkArithmetic, walkOperands } from './walk-evaluated.ts';
import { callFunction, defineFunction } from './walk-functions.ts';
import { walkFor, walkWhile } from './walk-loops.ts';
import { FrameScope, processSubstitute, substitute } from './walk-substitutions.ts';

export { AnalysisAbort } from './limits.ts';
export type { Frame } from './frame.ts';

/** Limits of one analysis. */
export interface WalkLimits {
  maxDepth: number;
  /** Time budget in milliseconds. */
  timeoutMs: number;
  /** How large values, words and arrays may expand (limits.ts). */
  expansion: ExpansionLimits;
}

/** What every analysis of one analyzer shares: the parser and the clock (restarted per analysis). */
export interface WalkTools {
  parser: Parser;
  deadline: Deadline;
  /** The parse options handing tree-sitter the deadline (built once: closures are not free on the hot path). */
  parseOptions: { progressCallback: () => boolean };
  /** Try simple-parse.ts before tree-sitter. */
  simpleParse: boolean;
}

/** Statements tree-sitter-bash may run into the next line (misreadings.ts); commands are checked in walk-command.ts. */
const LINE_CHECKED = new Set(['redirected_statement', 'variable_assignment', 'declaration_command', 'unset_command']);

/** Collects commands, findings, paths and read-only-ness of one command line and everything it nests. */
export class ScriptWalker {
  readonly commands: SimpleCommand[] = [];
  /** The findings raised so far, but for printed secrets, which `secrets` holds until their output is known. */
  readonly found: Finding[] = [];
  readonly paths: ShellPath[] = [];
  readOnly = true;
  /** What the script has done so far that changes how later commands are read (script-state.ts). */
  readonly state = new ScriptState();

  /** What this analysis may still expand: values, words, arrays, brace words (limits.ts). */
  readonly budget: ExpansionBudget;
  /**
   * What a `>(…)` reads, for the command whose words are being resolved: its input for tee, else its output (set in
   * walk-command.ts, read in walk-substitutions.ts).
   */
  feed: Stdin | undefined;
  readonly #scopes = new Map<Frame, WordScope>();
  #visits = 0;

  /** `tools.deadline` must have been started for this analysis. */
  constructor(
    readonly tools: WalkTools,
    readonly home: string,
    readonly limits: WalkLimits,
  ) {
    this.budget = new ExpansionBudget(limits.expansion);
  }

  /** Every finding, printed secrets whose output reaches the agent in their places. */
  get findings(): Finding[] {
    return this.state.secrets.reported(this.found);
  }

  /** Adds findings the catalogue raised: a printed secret is held until its output is known to reach the agent. */
  report(found: readonly Finding[]): void {
    for (const f of found)
      if (SecretTracker.isPrint(f)) this.state.secrets.hold(f, this.found.length);
      else this.found.push(f);
  }

  /** Parses and walks a script; returns its statically known output, if any. */
  script(text: string, frame: Frame): string | undefined {
    if (frame.depth > this.limits.maxDepth)
      throw new AnalysisAbort(`command nests deeper than ${this.limits.maxDepth} levels`);
    this.checkTime();
    if (FOREIGN_BLANK.test(text))
      throw new AnalysisAbort(
        'cannot parse the command reliably: a carriage return, form feed or vertical tab (tree-sitter-bash reads it as a blank, bash as part of a word)',
      );
    // The plainest lines (most agent commands) skip the wasm parse: simple-parse.ts builds tree-sitter's tree.
    const simple = this.tools.simpleParse ? parseSimple(text) : undefined;
    if (simple) return this.visit(simple, frame);
    // A script of several lines: its plain lines skip the wasm parse too, and the other lines are parsed in runs.
    const pieces = this.tools.simpleParse ? scriptPieces(text) : undefined;
    const functions = this.state.functions.snapshot();
    if (pieces) {
      const statements = parsePieces(this.tools, text, pieces);
      if (statements) {
        try {
          let out: string | undefined;
          for (const statement of statements.nodes) out = this.visit(statement, frame);
          return statements.nodes.length === 1 ? out : undefined;
        } finally {
          this.state.functions.restore(functions);
          for (const tree of statements.trees) tree.delete();
        }
      }
    }
    const { tree, source } = parseScript(this.tools, text);
    try {
      return this.visit(new TreeSitterNode(tree.rootNode, source), frame);
    } finally {
      this.state.functions.restore(functions);
      tree.delete();
    }
  }

  /** A nested script from a heuristic source (sh -c, sed e, inline code): a syntax error there is a finding. */
  nestedScript(text: string, frame: Frame, origin: string): void {
    try {
      this.script(text, frame);
    } catch (error) {
      if (!(error instanceof AnalysisAbort) || !error.message.startsWith('cannot parse')) throw error;
      const f = ANALYSIS_FINDINGS.tooComplex;
      this.found.push({ id: f.id, risk: f.risk, reason: `${f.reason}: ${error.message}`, command: origin });
    }
  }

  /** The home `~` means in this frame: the script may have set HOME. */
  homeOf(frame: Frame): string {
    return frame.vars.get('HOME') ?? this.home;
  }

  /**
   * Code whose text is only known at run time (`eval "$CMD"`, `sh -c "$1"`, `${x@P}`) becomes a command of its
   * own, not literal, carrying the finding: an allow rule for the outer command (`bash(eval *)`) cannot cover it.
   */
  unknownCode(source: string, depth: number): void {
    this.commands.push({
      words: [source],
      argv: [source],
      program: '',
      wrappers: [],
      text: source,
      literal: false,
      depth,
    });
    this.readOnly = false;
    const f = ANALYSIS_FINDINGS.dynamicCode;
    this.found.push({ id: f.id, risk: f.risk, reason: f.reason, command: source });
  }

  checkTime(): void {
    if (this.tools.deadline.passed())
      throw new AnalysisAbort(`analysis took longer than its ${this.limits.timeoutMs} ms limit`, true);
  }

  /**
   * Visits a node; returns its static stdout when known (for `$(…)` and pipelines into shells).
   * `trailing` are redirections written after the node that bash applies to its last simple command
   * (tree-sitter-bash hangs `a && b > f` and `a | b > f` on the whole list or pipeline).
   */
  visit(node: SyntaxNode, frame: Frame, stdin?: Stdin, trailing: readonly SyntaxNode[] = NO_NODES): string | undefined {
    // The clock is read every 16th node (and at every simple command): a node takes microseconds, the budget milliseconds.
    if ((++this.#visits & 15) === 0) this.checkTime();
    // A plain statement inside a parsed script is rebuilt from its text: cheaper than reading its nodes from wasm.
    // Not with redirections from outside it: the rebuilt nodes' offsets start at its text, theirs at the script's, and
    // adjacency between them is read (`[[ -f x ]] && sh 0< <(curl …)`: the 0 before `<` is a descriptor).
    if (
      this.tools.simpleParse &&
      trailing.length === 0 &&
      node instanceof TreeSitterNode &&
      PLAIN_STATEMENT_TYPES.has(node.type)
    )
      node = parseSimpleStatement(node.text, node.type) ?? node;
    if (node instanceof TreeSitterNode && LINE_CHECKED.has(node.type) && runsLinesTogether(node)) throw misread(node);
    switch (node.type) {
      case 'comment':
        return undefined;
      case 'command':
        return walkCommand(this, node, frame, trailing, stdin, trailing.length ? undefined : node.text);
      case 'redirected_statement':
        return walkRedirected(this, node, frame, stdin, trailing);
      case 'pipeline':
        return walkPipeline(this, node, frame, stdin, trailing);
      case 'list':
        return walkList(this, node, frame, stdin, trailing);
      case 'variable_assignment':
        walkAssignment(this, node, frame);
        return undefined;
      case 'declaration_command':
        return walkDeclaration(this, node, frame);
      case 'function_definition':
        return defineFunction(this, node, frame);
      case 'while_statement':
        return walkWhile(this, node, frame, stdin);
      case 'for_statement':
        return walkFor(this, node, frame);
      case 'command_substitution':
        return this.substitute(node, frame);
      case 'process_substitution':
        this.processSubstitute(node, frame);
        return undefined;
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        return walkBareRedirect(this, node, frame);
      case 'test_command':
      case 'unset_command':
        // `[ -v 'a[$(rm -rf ~)]' ]`, `[[ 1 -eq "a[$""(…)]" ]]`, `unset 'a[$(…)]'`: bash evaluates the subscript; the
        // operands are resolved as words, whose static text is read for subscripts with code.
        walkOperands(this, node, frame);
        if (node.type === 'unset_command') walkUnset(this, node, frame);
        return undefined;
      case 'arithmetic_expansion': // met outside a word: a `case` pattern
        walkArithmetic(this, node, frame);
        return undefined;
      case 'compound_statement':
        if (!node.text.startsWith('((')) return this.children(node, frame, stdin);
        walkArithmetic(this, node, frame); // `(( … ))`
        return undefined;
      default:
        return this.children(node, frame, stdin);
    }
  }

  /** Visits the children; the output of the only one is the node's. */
  children(node: SyntaxNode, frame: Frame, stdin?: Stdin): string | undefined {
    const children = node.namedChildren.filter((c) => c.type !== 'comment');
    let out: string | undefined;
    for (const c of children) out = this.visit(c, frame, stdin);
    return children.length === 1 ? out : undefined;
  }

  /** A command node with the redirections written after it (walk-command.ts). */
  command(
    node: SyntaxNode,
    frame: Frame,
    outer: readonly SyntaxNode[],
    stdin?: Stdin,
    text?: string,
  ): string | undefined {
    return walkCommand(this, node, frame, outer, stdin, text);
  }

  /** A call of a function the script defined, its body walked with the call's words (walk-functions.ts). */
  callFunction(name: string, args: Word[], frame: Frame): void {
    callFunction(this, name, args, frame);
  }

  /** `$(…)` or backticks: walks the inner commands one level deeper; returns their static output. */
  substitute(node: SyntaxNode, frame: Frame): string | undefined {
    return substitute(this, node, frame);
  }

  /** `<(…)` / `>(…)`: walks the inner commands; returns their program names and static output. */
  processSubstitute(node: SyntaxNode, frame: Frame): { programs: string[]; output?: string } {
    return processSubstitute(this, node, frame);
  }

  /** The word-resolution scope of a frame (built once per frame). */
  wordScope(frame: Frame): WordScope {
    let scope = this.#scopes.get(frame);
    if (!scope) {
      scope = new FrameScope(this, frame);
      this.#scopes.set(frame, scope);
    }
    return scope;
  }

  /** Resolves redirect nodes; here-docs and here-strings become the command's stdin. */
  redirects(nodes: SyntaxNode[], frame: Frame, descriptors?: ReadonlyMap<SyntaxNode, string>): ResolvedRedirects {
    for (const node of nodes) {
      if (node.type === 'heredoc_redirect' && !endsLikeBash(node))
        throw new AnalysisAbort(
          `cannot parse the command reliably: a here-document does not end where bash ends it near "${node.text.slice(0, 40)}"`,
        );
      if (
        node instanceof TreeSitterNode &&
        ((node.type === 'file_redirect' && runsLinesTogether(node)) || heredocBodyAsArguments(node))
      )
        throw misread(node);
    }
    return resolveRedirects(this, nodes, frame, descriptors);
  }
}
