// Walks a tree-sitter-bash tree and finds every simple command that would run, with its words, redirects and stdin.
import type { Node, Parser, Tree } from 'web-tree-sitter';
import { TreeSitterNode, type SyntaxNode } from './syntax.ts';
import { deeper, type Frame } from './frame.ts';
import { PLAIN_STATEMENT_TYPES, parseSimple, parseSimpleStatement } from './simple-parse.ts';
import { scriptPieces, type ScriptPiece } from './script-lines.ts';
import { endsLikeBash, FOREIGN_BLANK, HEREDOC_ARGUMENTS, heredocBodyAsArguments, runsLinesTogether, splitsWord, wordsAfterRedirect } from './misreadings.ts';
import type { Finding } from '../types.ts';
import type { ShellPath, SimpleCommand } from './types.ts';
import type { Word, WordScope } from './word.ts';
import { resolveWord, runInner } from './word.ts';
import { BRACE_PLACEHOLDER, TILDE_PLACEHOLDER } from './template.ts';
import { processCommand, processBareRedirects, type NameKind } from './command.ts';
import { ScriptState } from './script-state.ts';
import { programName } from './unwrap.ts';
import { stdoutToFile, type Stdin } from './view.ts';
import { xargsProgram } from './nested.ts';
import { keepsSecretInput, referencesSecret, RESHAPES_INPUT } from '../catalog/danger-secrets.ts';
import { SecretTracker, type Output } from './secrets.ts';
import { variableCode } from './code-variables.ts';
import { assignedPaths, findRoots, LIST_FILTERS, listedTreePaths, NAMES_ONLY, wordPath } from './paths.ts';
import { subscriptCode, subscriptCodeOf } from './subscripts.ts';
import type { Deadline } from './deadline.ts';
import { resolveRedirects, type ResolvedRedirects } from './redirects.ts';
import { ANALYSIS_FINDINGS } from '../catalog/analysis-findings.ts';
import { assignmentFindings } from '../catalog/danger.ts';
import { AnalysisAbort, ExpansionBudget, type ExpansionLimits } from './limits.ts';

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

const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
/** The children of a here-doc redirection that are the here-doc itself (anything else is code on its line). */
/** Statements tree-sitter-bash may run into the next line (misreadings.ts); commands are checked in #command. */
const LINE_CHECKED = new Set(['redirected_statement', 'variable_assignment', 'declaration_command', 'unset_command']);
const HEREDOC_PARTS = new Set(['heredoc_start', 'heredoc_body', 'heredoc_end', 'file_redirect', 'herestring_redirect', 'comment']);
/** The default of `trailing` (shared: most visits have none). */
const NO_NODES: readonly SyntaxNode[] = Object.freeze([]);
/** Nodes of a test's operands that are words (resolved as such, so their static text is read for subscripts). */
const OPERAND_WORDS = new Set(['word', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation', 'simple_expansion', 'expansion',
  'number', 'regex', 'extglob_pattern', 'test_operator', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'variable_name']);
/** A `{` that opens a brace-expanded command word (`{rm,-rf,~}`): tree-sitter reads it as a group. */
const BRACE_COMMAND = /(^|[;&|(\n]\s*)\{(?=[^\s{}]*,[^\s]*\})/g;
/** A lone `~` word, which tree-sitter-bash misreads inside `[[ … ]]` and `[ … ]`. */
const LONE_TILDE = /(?<=[\s(])~(?=[\s/;)]|$)/g;

/** Collects commands, findings, paths and read-only-ness of one command line and everything it nests. */
export class ScriptWalker {
  readonly commands: SimpleCommand[] = [];
  /** The findings raised so far, but for printed secrets, which `secrets` holds until their output is known. */
  readonly found: Finding[] = [];
  readonly paths: ShellPath[] = [];
  readOnly = true;
  /** What the script has done so far that changes how later commands are read (script-state.ts). */
  readonly state = new ScriptState();

  /** Every finding, printed secrets whose output reaches the agent in their places. */
  get findings(): Finding[] {
    return this.state.secrets.reported(this.found);
  }

  /** Adds findings the catalogue raised: a printed secret is held until its output is known to reach the agent. */
  report(found: readonly Finding[]): void {
    for (const f of found) if (SecretTracker.isPrint(f)) this.state.secrets.hold(f, this.found.length);
    else this.found.push(f);
  }

  /**
   * A call of a function the script defined (`f ~/.ssh/id_rsa` after `f() { cat "$1"; }`): its body is walked again
   * with `$1 $2 …`, `$#` and `"$@"` bound to the call's words, so what it does with them is judged (its definition was
   * walked with them unknown).
   */
  callFunction(name: string, args: Word[], frame: Frame): void {
    if (frame.depth + 1 > this.limits.maxDepth) return;
    const body = this.state.functions.callBody(name, args, frame);
    if (!body) return;
    // Each call walks the body again: `f2() { f1 a; f1 b; }` … doubles per level, so the clock is read per call.
    this.checkTime();
    const inner = deeper(frame);
    for (let i = 1; i <= 9; i++) inner.vars.set(String(i), args[i - 1] && !args[i - 1]!.dynamic ? args[i - 1]!.value : args[i - 1] ? undefined : '');
    inner.vars.set('#', String(args.length));
    // A secret passed in (`log "$GITHUB_TOKEN"`) is a secret in the body too.
    const secretArgs = args.flatMap((w, i) => (w.inner?.secret || referencesSecret(w.source) ? [String(i + 1)] : []));
    const addedSecrets = secretArgs.length ? [...secretArgs, '@', '*'].filter((n) => !this.state.secrets.vars.has(n)) : [];
    for (const n of addedSecrets) this.state.secrets.vars.add(n);
    const saved = this.state.array('@');
    this.state.setArray('@', args.some((w) => w.dynamic) ? undefined : args);
    if (!args.some((w) => w.dynamic)) {
      // A call with known words judges what the definition could not: its unknown paths give way to the call's.
      const unknown = this.state.functions.settle(name);
      if (unknown) {
        const drop = new Set(unknown);
        for (let i = this.paths.length - 1; i >= 0; i--) if (drop.has(this.paths[i]!)) this.paths.splice(i, 1);
      }
    }
    try {
      this.state.functions.calling(name, () => this.visit(body, inner));
    } finally {
      for (const n of addedSecrets) this.state.secrets.vars.delete(n);
      this.state.setArray('@', saved);
    }
  }
  /** What a `>(…)` reads, for the command whose words are being resolved: its input for tee, else its output. */
  #feed: Stdin | undefined;
  readonly #scopes = new Map<Frame, WordScope>();
  #visits = 0;

  /** What this analysis may still expand: values, words, arrays, brace words (limits.ts). */
  readonly budget: ExpansionBudget;

  /** `tools.deadline` must have been started for this analysis. */
  constructor(readonly tools: WalkTools, readonly home: string, readonly limits: WalkLimits) {
    this.budget = new ExpansionBudget(limits.expansion);
  }

  /** Parses and walks a script; returns its statically known output, if any. */
  script(text: string, frame: Frame): string | undefined {
    if (frame.depth > this.limits.maxDepth) throw new AnalysisAbort(`command nests deeper than ${this.limits.maxDepth} levels`);
    this.checkTime();
    if (FOREIGN_BLANK.test(text)) throw new AnalysisAbort('cannot parse the command reliably: a carriage return, form feed or vertical tab (tree-sitter-bash reads it as a blank, bash as part of a word)');
    // The plainest lines (most agent commands) skip the wasm parse: simple-parse.ts builds tree-sitter's tree.
    const simple = this.tools.simpleParse ? parseSimple(text) : undefined;
    if (simple) return this.visit(simple, frame);
    // A script of several lines: its plain lines skip the wasm parse too, and the other lines are parsed in runs.
    const pieces = this.tools.simpleParse ? scriptPieces(text) : undefined;
    const functions = this.state.functions.snapshot();
    if (pieces) {
      const statements = this.#parsePieces(text, pieces);
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
    const { tree, source } = this.#parse(text);
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
    this.commands.push({ words: [source], argv: [source], program: '', wrappers: [], text: source, literal: false, depth });
    this.readOnly = false;
    const f = ANALYSIS_FINDINGS.dynamicCode;
    this.found.push({ id: f.id, risk: f.risk, reason: f.reason, command: source });
  }

  checkTime(): void {
    if (this.tools.deadline.passed()) throw new AnalysisAbort(`analysis took longer than its ${this.limits.timeoutMs} ms limit`, true);
  }

  #parseOnce(text: string): Tree {
    const tree = this.tools.parser.parse(text, null, this.tools.parseOptions as { progressCallback: () => void });
    if (!tree) throw new AnalysisAbort('parsing took longer than its time limit', true);
    return tree;
  }

  /**
   * The statements of a script split by scriptPieces, in order (comments left out), with the trees to delete after
   * the walk; undefined (nothing kept) when a run does not parse cleanly on its own: the whole script is parsed then.
   */
  #parsePieces(text: string, pieces: ScriptPiece[]): { nodes: SyntaxNode[]; trees: Tree[] } | undefined {
    const nodes: SyntaxNode[] = [];
    const trees: Tree[] = [];
    for (const piece of pieces) {
      if (piece.plain) { nodes.push(...piece.plain.namedChildren); continue; }
      const source = text.slice(piece.start, piece.end);
      // A run of several lines that simple-parse still reads: a command ending in a here-doc (`cat > f <<'EOF'`).
      const plain = source.includes('<<') ? parseSimple(source) : undefined;
      if (plain) { nodes.push(...plain.namedChildren); continue; }
      const tree = this.#parseOnce(source);
      trees.push(tree);
      if (tree.rootNode.hasError) {
        for (const t of trees) t.delete();
        return undefined;
      }
      for (const node of new TreeSitterNode(tree.rootNode, source).namedChildren) if (node.type !== 'comment') nodes.push(node);
    }
    return { nodes, trees };
  }

  /** The tree and the exact text it was parsed from (node text is sliced from it). */
  #parse(text: string): { tree: Tree; source: string } {
    const tree = this.#parseOnce(text);
    if (!tree.rootNode.hasError) return { tree, source: text };
    // Rewrites of the same length (node offsets stay those of the text) for what tree-sitter-bash cannot read:
    // `{ rm …`-style brace words, a lone `~`, a line continuation ending the text, the read-write redirection `<>`
    // (read here as `>`: what it opens is judged as written, `exec 5<>/dev/tcp/…` as a socket).
    const rescued = text.replace(BRACE_COMMAND, `$1${BRACE_PLACEHOLDER}`).replace(LONE_TILDE, TILDE_PLACEHOLDER)
      .replace(/\\\r?\n?$/, (m) => ' '.repeat(m.length)).replace(/(\d|\s)<>(?=\S)/g, '$1> ');
    if (rescued !== text) {
      const second = this.#parseOnce(rescued);
      if (!second.rootNode.hasError) { tree.delete(); return { tree: second, source: rescued }; }
      second.delete();
    }
    const bad = firstError(tree.rootNode);
    tree.delete();
    throw new AnalysisAbort(`cannot parse the command (syntax error near "${bad.slice(0, 40)}")`);
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
    if (this.tools.simpleParse && node instanceof TreeSitterNode && PLAIN_STATEMENT_TYPES.has(node.type)) node = parseSimpleStatement(node.text, node.type) ?? node;
    if (node instanceof TreeSitterNode && LINE_CHECKED.has(node.type) && runsLinesTogether(node)) throw misread(node);
    switch (node.type) {
      case 'comment': return undefined;
      case 'command': return this.#command(node, frame, trailing, stdin, trailing.length ? undefined : node.text);
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const redirects = node.namedChildren.filter((c) => c !== body && REDIRECT_TYPES.has(c.type)).concat(trailing);
        if (body?.type === 'command') return this.#command(body, frame, redirects, stdin, node.text);
        if (body?.type === 'list' || body?.type === 'pipeline') return this.visit(body, frame, stdin, redirects);
        if (redirects.some((r) => wordsAfterRedirect(r).length > 0)) throw misread(node);
        const resolved = this.redirects(redirects, frame);
        processBareRedirects(this, resolved.redirects, frame, node.text);
        const before = this.commands.length;
        const { value: out, output } = this.state.secrets.within(() => (body ? this.visit(body, frame, resolved.stdin ?? stdin) : undefined));
        // `{ echo "token=$TOKEN"; } > .env`: what the group prints goes to the file, not to the agent.
        if (resolved.redirects.some(stdoutToFile)) this.state.secrets.capture(output);
        else this.state.secrets.release(output);
        return this.#afterHereDocuments(redirects, frame, out, before);
      }
      case 'pipeline': return this.#pipeline(node, frame, stdin, trailing);
      case 'list': {
        const children = node.namedChildren.filter((c) => c.type !== 'comment');
        for (let i = 0; i < children.length; i++) this.visit(children[i]!, frame, stdin, i === children.length - 1 ? trailing : NO_NODES);
        return undefined;
      }
      case 'variable_assignment': this.#assign(node, frame); return undefined;
      case 'declaration_command':
        // An assignment's subscript is read in #assign; a quoted name (`declare 'a[$(…)]=1'`) is static text with a
        // subscript, which word resolution walks.
        for (const c of node.namedChildren) {
          if (c.type === 'variable_assignment') this.#assign(c, frame, node.text);
          else this.#words(c, frame);
        }
        return undefined;
      case 'function_definition': return this.#function(node, frame);
      case 'while_statement': {
        this.#children(node, frame, stdin);
        if (isForkLoop(node)) {
          const f = ANALYSIS_FINDINGS.forkLoop;
          this.found.push({ id: f.id, risk: f.risk, reason: f.reason, command: node.text });
        }
        return undefined;
      }
      case 'for_statement': {
        const variable = node.childForFieldName('variable');
        if (variable) frame.vars.set(variable.text, undefined);
        const items: Word[] = [];
        for (const c of node.namedChildren) {
          if (c.type === 'do_group') {
            // `for f in ~/.??h/*; do cat "$f"; done`: the files a glob in the list matches are what the body reads.
            for (const w of items) if (w.glob) this.paths.push(wordPath(w, node.text, frame.base));
            // `for d in src lib; do grep -rn x "$d"; done`: a few known items are walked one by one, the variable
            // set to each (a glob stands for its matches: `packages/*/`); more, or unknown ones, leave it unknown.
            if (variable && items.length > 0 && items.length <= LOOP_ITEMS_WALKED && !items.some((w) => w.dynamic)) {
              for (const w of items) { this.checkTime(); frame.vars.set(variable.text, w.value); this.visit(c, frame); }
            } else this.visit(c, frame);
          } else if (c !== variable) items.push(...resolveWord(c, this.wordScope(frame)));
        }
        return undefined;
      }
      case 'command_substitution': return this.substitute(node, frame);
      case 'process_substitution': this.processSubstitute(node, frame); return undefined;
      case 'file_redirect': case 'heredoc_redirect': case 'herestring_redirect':
        if (wordsAfterRedirect(node).length > 0) throw misread(node);
        processBareRedirects(this, this.redirects([node], frame).redirects, frame, node.text);
        return this.#afterHereDocuments([node], frame, undefined, this.commands.length);
      case 'test_command':
      case 'unset_command':
        // `[ -v 'a[$(rm -rf ~)]' ]`, `[[ 1 -eq "a[$""(…)]" ]]`, `unset 'a[$(…)]'`: bash evaluates the subscript; the
        // operands are resolved as words, whose static text is read for subscripts with code.
        this.#operands(node, frame);
        if (node.type === 'unset_command') this.#unset(node, frame);
        return undefined;
      case 'arithmetic_expansion': // met outside a word: a `case` pattern
        this.#arithmetic(node, frame);
        return undefined;
      case 'compound_statement':
        if (!node.text.startsWith('((')) return this.#children(node, frame, stdin);
        this.#arithmetic(node, frame); // `(( … ))`
        return undefined;
      default: return this.#children(node, frame, stdin);
    }
  }

  /** Arithmetic: its substitutions run, and single-quoted ones too (`(( '$(cmd)' ))`: quotes do not quote there). */
  #arithmetic(node: SyntaxNode, frame: Frame): void {
    runInner(node, this.wordScope(frame), { programs: [], processSubstitution: false }, true);
  }

  /** Visits the children; the output of the only one is the node's. */
  #children(node: SyntaxNode, frame: Frame, stdin?: Stdin): string | undefined {
    const children = node.namedChildren.filter((c) => c.type !== 'comment');
    let out: string | undefined;
    for (const c of children) out = this.visit(c, frame, stdin);
    return children.length === 1 ? out : undefined;
  }

  /** `unset NAME…` of variables (not `-f` functions): the catalogue judges each name unset (`unset HISTFILE`). */
  #unset(node: SyntaxNode, frame: Frame): void {
    const names = node.namedChildren.filter((c) => c.type !== 'comment').map((c) => c.text.replace(/^(['"])(.*)\1$/, '$2'));
    if (names.includes('-f')) return;
    for (const name of names) if (!name.startsWith('-')) this.#assignment(name, undefined, node.text, frame);
  }

  /**
   * A variable set (or unset) by `statement`, judged by the catalogue (`HISTFILE=/dev/null`). A statement that raises
   * a finding is listed with the commands, so the finding names what it came from and an allow rule can cover it.
   */
  #assignment(name: string, value: string | undefined, statement: string, frame: Frame): void {
    const before = this.found.length;
    assignmentFindings(name, value, statement, this.found);
    if (this.found.length === before || this.commands.some((c) => c.text === statement)) return;
    const argv = statement.split(/\s+/);
    this.commands.push({ words: argv, argv, program: programName(argv[0]!), wrappers: [], text: statement, literal: true, depth: frame.depth });
  }

  /** The operands of a test or an `unset`, resolved as words (expressions are followed down to them). */
  #operands(node: SyntaxNode, frame: Frame): void {
    for (const c of node.namedChildren) {
      if (c.type === 'comment') continue;
      if (OPERAND_WORDS.has(c.type)) this.#words(c, frame);
      else if (c.type.endsWith('_expression') || c.type === 'test_command') this.#operands(c, frame);
      else this.visit(c, frame);
    }
  }

  #command(node: SyntaxNode, frame: Frame, outer: readonly SyntaxNode[], stdin?: Stdin, text?: string): string | undefined {
    if (node instanceof TreeSitterNode && runsLinesTogether(node)) throw misread(node);
    if (node instanceof TreeSitterNode && splitsWord(node)) throw misread(node, 'one word read as two');
    text ??= outer.length ? `${node.text} ${outer.map((r) => r.text).join(' ')}` : node.text;
    const scope = this.wordScope(frame);
    const inner: SyntaxNode[] = [];
    const words: Word[] = [];
    let nameKind: NameKind = 'literal';
    /** The last argument read, while nothing else has followed it (a descriptor tree-sitter took for an argument). */
    let last: { node: SyntaxNode; count: number } | undefined;
    const outerFeed = this.#feed;
    this.#feed = undefined;
    // One pass over the children (each child access crosses into wasm): assignments, the name, arguments, redirects.
    let descriptors: Map<SyntaxNode, string> | undefined;
    // `exec 0< <(…)`, `exec {fd}< <(…)`: tree-sitter-bash reads the descriptor as an argument before the redirection.
    const descriptorBefore = (r: SyntaxNode): void => {
      if (!last || last.node.endIndex !== r.startIndex || !DESCRIPTOR_WORD.test(last.node.text) || words.length <= last.count) return;
      words.splice(words.length - last.count, last.count);
      (descriptors ??= new Map()).set(r, last.node.text);
    };
    for (const c of node.namedChildren) {
      const type = c.type;
      if (REDIRECT_TYPES.has(type)) {
        descriptorBefore(c);
        inner.push(c);
      } else if (type === 'variable_assignment') this.#prefixAssign(c, frame);
      else if (type === 'command_name') {
        // command_name wraps the word that names the program.
        const target = c.firstNamedChild ?? c;
        const resolved = resolveWord(target, scope);
        nameKind = classifyName(target, resolved);
        words.push(...resolved);
        // `… | tee >(sh)`: tee copies its input into the substitution; other commands write what they print.
        this.#feed = resolved.length === 1 && programName(resolved[0]!.value) === 'tee' ? { kind: 'pipe', upstream: [...(stdin?.upstream ?? []), 'tee'], ...(stdin?.text !== undefined ? { text: stdin.text } : {}) } : undefined;
      } else if (type === 'subshell' || type === 'compound_statement') this.visit(c, frame); // `time (make)`
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
    const { redirects, stdin: redirected, fds } = this.redirects(all, frame, descriptors);
    this.#feed = outerFeed;
    // `exec 3< <(curl …)`, `exec < <(curl …)` with no command: the descriptors stay open for the rest of the script;
    // otherwise they are open for this command and the code it runs (`bash -c 'bash /dev/fd/3' 3< <(…)`).
    const execOnly = words.length === 1 && words[0]!.value === 'exec';
    if (execOnly && redirected) frame.stdin = redirected;
    const outside = frame.fds;
    const open = fds ? new Map([...(outside ?? []), ...fds]) : outside;
    if (open !== outside) frame.fds = open;
    const argv = open ? words.map((w) => openDescriptor(w, open) ?? w) : words;
    const before = this.commands.length;
    const out = processCommand(this, argv, { frame, text, redirects, stdin: redirected ?? stdin ?? frame.stdin, nameKind });
    if (open !== outside && !execOnly) frame.fds = outside;
    return this.#afterHereDocuments(all, frame, out, before);
  }

  /** Code in the array subscripts of names a test or declaration evaluates (`declare 'a[$(…)]=1'`), one level deeper. */
  #subscripts(node: SyntaxNode, frame: Frame): void {
    this.#evaluated(subscriptCode(node.text), frame, node.text);
  }

  /** Walks code bash runs when it evaluates a subscript (see subscripts.ts), one level deeper. */
  #evaluated(codes: string[], frame: Frame, origin: string): void {
    if (codes.length === 0) return;
    const inner = deeper(frame);
    for (const code of codes) this.nestedScript(code, inner, origin);
  }

  /**
   * What tree-sitter-bash hangs inside a here-doc redirection when it follows on the operator's line: `cat <<EOF | sh`
   * (a pipeline the command's output goes into) and `cat <<EOF && rm …` (the rest of a list). Bash runs them.
   */
  #afterHereDocuments(redirects: SyntaxNode[], frame: Frame, out: string | undefined, before: number): string | undefined {
    for (const r of redirects) {
      if (r.type !== 'heredoc_redirect') continue;
      for (const c of r.namedChildren) {
        if (c.type === 'pipeline') {
          const upstream = this.commands.slice(before).map((x) => x.program);
          out = this.#pipeline(c, frame, { kind: 'pipe', upstream, ...(out !== undefined ? { text: out } : {}) }, NO_NODES);
        } else if (!HEREDOC_PARTS.has(c.type) && !HEREDOC_ARGUMENTS.has(c.type)) {
          this.visit(c, frame);
          out = undefined;
        }
      }
    }
    return out;
  }

  #pipeline(node: SyntaxNode, frame: Frame, stdin: Stdin | undefined, trailing: readonly SyntaxNode[]): string | undefined {
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
      const before = this.commands.length;
      const stageOut = this.state.secrets.within(() => this.visit(stage, frame, input, i === stages.length - 1 ? trailing : NO_NODES));
      out = stageOut.value;
      outputs.push(stageOut.output);
      const ran = this.commands.slice(before);
      stageCommands.push(ran);
      // `aws ecr get-login-password | docker login --password-stdin …`, `echo "$KEY" | tr -d '\r' | ssh-add -`: the
      // secret goes into what keeps or digests it (through stages that only reshape it), not to the agent's output.
      // (The stage's command is its last: substitutions in its words ran before it.)
      if (i > 0 && ran.length > 0 && this.#takesSecretOnStdin(ran.at(-1)!)) {
        for (let j = i - 1; j >= 0; j--) {
          this.state.secrets.capture(outputs[j]!);
          if (!stageCommands[j]!.every((c) => RESHAPES_INPUT.has(c.program) && c.wrappers.length === 0)) break;
        }
      }
      // `find ~ -type f | xargs cat`: the command xargs runs is handed every file find lists.
      const xargs = ran.find((c) => c.program === 'xargs');
      if (listing && xargs && !NAMES_ONLY.has(programName(xargsProgram(xargs.argv.slice(1))))) this.paths.push(...listedTreePaths(listing.argv.slice(1), stage.text, frame.base));
      if (ran.length === 1 && ran[0]!.program === 'find' && ran[0]!.wrappers.length === 0) listing = ran[0];
      else if (!(ran.length === 1 && LIST_FILTERS.has(ran[0]!.program))) listing = undefined;
      upstream.push(...ran.map((c) => c.program));
      input = { kind: 'pipe', upstream: [...upstream], ...(out !== undefined ? { text: out } : {}) };
      if (listing) input.listing = findRoots(listing.argv.slice(1));
    }
    // What a stage printed and no later stage kept goes where the pipeline's output goes.
    for (const output of outputs) this.state.secrets.release(output);
    return out;
  }

  /**
   * A login that reads its password or token from stdin (`docker login --password-stdin`, `gh auth login --with-token`),
   * or a consumer that keeps it or only digests it (`ssh-add -`, `gpg --import`, `gh secret set`, `wc -c`, `sha256sum`),
   * or a command whose output goes to a file: what is piped in is not printed. Not a function of the script's own
   * (`docker() { cat; }`) nor a program named by a path.
   */
  #takesSecretOnStdin(command: SimpleCommand): boolean {
    const { program, argv } = command;
    if (this.state.functions.defined.has(argv[0] ?? '') || (argv[0] ?? '').includes('/')) return false;
    if (command.stdoutToFile) return true;
    return keepsSecretInput(program, argv);
  }

  #assign(node: SyntaxNode, frame: Frame, statement = node.text): void {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (!name) return;
    if (name.type === 'subscript') {
      // `a[$(rm -rf ~)]=1`, `a['$(…)']=1`: bash evaluates the subscript.
      this.visit(name, frame);
      this.#subscripts(name, frame);
    }
    // A value's own static text is read for subscripts with code as it is resolved (word.ts), its words split or not.
    const scope = this.wordScope(frame);
    // An array's elements are words of their own (`a=(['$(cmd)']=1 "b")`), each read as it is resolved.
    const words = !value ? [] : value.type === 'array' ? this.#elements(value, scope) : resolveWord(value, scope);
    // `x=$GITHUB_TOKEN`: x holds the secret now (and no longer does once given something else).
    if (name.type !== 'subscript') {
      if (words.some((w) => w.inner?.secret || referencesSecret(w.source))) this.state.secrets.vars.add(name.text);
      else if (this.state.secrets.vars.size > 0) this.state.secrets.vars.delete(name.text);
    }
    // `export K=~/.aws/credentials`: the programs started later are handed the path.
    if (statement !== node.text && /^(export|declare\s+-[a-zA-Z]*x|typeset\s+-[a-zA-Z]*x)\b/.test(statement)) this.paths.push(...assignedPaths(name.text, words, statement, frame.base, this.homeOf(frame)));
    const known = value?.type !== 'array' && words.length <= 1 && !words.some((w) => w.dynamic);
    // An array's `$a` is its first element (`a=(~/.ssh/id_rsa); cat $a`).
    const first = value?.type === 'array' && words[0] && !words[0].dynamic ? words[0].value : undefined;
    let assigned = known ? (words[0]?.value ?? '') : first;
    if (node.text.startsWith('+=', name.endIndex - node.startIndex)) {
      // `x='a[$'; x+='(cmd)]'`: the value is what the two make together, read again as a whole.
      const before = frame.vars.get(name.text);
      assigned = before === undefined || assigned === undefined ? undefined : before + assigned;
      if (assigned !== undefined) this.budget.word(assigned.length, "a variable's value");
      if (assigned !== undefined && before) this.#evaluated(subscriptCodeOf(assigned).filter((code) => !subscriptCodeOf(before).includes(code)), frame, node.text);
    }
    this.#variableCode(name.text, words, node.text, frame);
    if (assigned !== undefined && name.type !== 'subscript') this.#assignment(name.text, assigned, statement, frame);
    frame.vars.set(name.text, assigned);
    if (value?.type === 'array' && !words.some((w) => w.dynamic)) this.state.setArray(name.text, words);
    else if (name.type !== 'subscript') this.state.setArray(name.text, undefined);
  }

  /**
   * The elements of an array literal; `"${a[@]}"` of an array known here stands for its elements
   * (`a=("${a[@]}" "${a[@]}")` doubles it: its length is bounded like any expansion).
   */
  #elements(array: SyntaxNode, scope: WordScope): Word[] {
    const words: Word[] = [];
    for (const c of array.namedChildren) {
      if (c.type === 'comment') continue;
      const whole = /^"?\$\{(\w+)\[@\]\}"?$/.exec(c.text);
      const known = whole ? this.state.array(whole[1]!) : undefined;
      if (known) {
        let chars = 0;
        for (const w of known) chars += w.value.length;
        this.budget.charge(chars);
        this.budget.words(known.length);
        words.push(...known);
      } else words.push(...resolveWord(c, scope));
      this.budget.array(words.length);
    }
    return words;
  }

  /** A prefix assignment (`X=1 cmd`): lasts for the command, so only what its value runs matters. */
  #prefixAssign(node: SyntaxNode, frame: Frame): void {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    const words = value ? resolveWord(value, this.wordScope(frame)) : [];
    if (!name) return;
    // `K=~/.aws/credentials python3 -c '…os.environ["K"]…'`, `GIT_WORK_TREE=$HOME git add …`: a path the command is handed.
    this.paths.push(...assignedPaths(name.text, words, node.text, frame.base, this.homeOf(frame)));
    this.#variableCode(name.text, words, node.text, frame);
    // `HISTFILE=/dev/null bash`: the shell it starts keeps no history.
    if (!words.some((w) => w.dynamic) && words.length <= 1) this.#assignment(name.text, words[0]?.value ?? '', node.text, frame);
  }

  /** Walks what a variable's value runs as code (`PROMPT_COMMAND`, `PS4`, `EDITOR`, `BASH_ENV`: code-variables.ts). */
  #variableCode(name: string, words: Word[], origin: string, frame: Frame): void {
    const value = words.some((w) => w.dynamic) ? undefined : words.map((w) => w.value).join(' ');
    const code = variableCode(name, value, words.length === 1 ? words[0]!.processOutput : undefined, frame.base !== undefined && frame.base !== '.');
    if (code.scripts.length === 0 && !code.unknown) return;
    const inner = deeper(frame);
    for (const script of code.scripts) this.nestedScript(script, inner, origin);
    if (code.unknown) this.unknownCode(origin, inner.depth);
  }

  /** Resolves words only for their side effects (substitutions inside them run). */
  #words(node: SyntaxNode, frame: Frame): void {
    if (node.type === 'variable_assignment') { const v = node.childForFieldName('value'); if (v) resolveWord(v, this.wordScope(frame)); return; }
    resolveWord(node, this.wordScope(frame));
  }

  #function(node: SyntaxNode, frame: Frame): undefined {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    const before = this.commands.length;
    // `f() { cat; } < ~/.netrc`: a redirection written with the definition applies at every call: its files count.
    const redirects = node.namedChildren.filter((c): c is SyntaxNode => c !== null && REDIRECT_TYPES.has(c.type));
    if (redirects.length > 0) processBareRedirects(this, this.redirects(redirects, frame).redirects, frame, node.text);
    this.state.functions.define(name, body);
    const pathsBefore = this.paths.length;
    // What the body prints goes where a call's output goes: a secret printed is judged at the calls, not here.
    if (body) this.state.secrets.capture(this.state.secrets.within(() => this.visit(body, frame)).output);
    // Paths the body names through its parameters (`grep -rn "$@"`) are unknown here; a call judges them with its words.
    this.state.functions.defineDone(name, this.paths.slice(pathsBefore).filter((p) => p.dynamic));
    const selfCall = this.commands.slice(before).find((c) => c.program === name || c.argv[0] === name);
    if (selfCall && body && /[|&]/.test(body.text)) {
      const f = ANALYSIS_FINDINGS.forkBomb;
      this.found.push({ id: f.id, risk: f.risk, reason: f.reason, command: selfCall.text });
    }
    return undefined;
  }

  /** `$(…)` or backticks: walks the inner commands one level deeper; returns their static output. */
  substitute(node: SyntaxNode, frame: Frame): string | undefined {
    const inner = deeper(frame);
    let out: string | undefined;
    if (node.text.startsWith('`')) {
      // Inside backticks, \` \\ and \$ are escapes: the body is re-parsed as its own script (nested backticks run).
      const body = node.text.slice(1, -1).replace(/\\([`\\$])/g, '$1');
      out = this.script(body, inner);
    } else {
      if (inner.depth > this.limits.maxDepth) throw new AnalysisAbort(`command nests deeper than ${this.limits.maxDepth} levels`);
      const children = node.namedChildren.filter((c) => c.type !== 'comment');
      for (const c of children) out = this.visit(c, inner);
      if (children.length !== 1) out = undefined;
    }
    return out?.replace(/\n+$/, '');
  }

  /** `<(…)` / `>(…)`: walks the inner commands; returns their program names and static output. */
  processSubstitute(node: SyntaxNode, frame: Frame): { programs: string[]; output?: string } {
    const before = this.commands.length;
    const inner: Frame = { depth: frame.depth + 1, vars: new Map(frame.vars) };
    if (inner.depth > this.limits.maxDepth) throw new AnalysisAbort(`command nests deeper than ${this.limits.maxDepth} levels`);
    const children = node.namedChildren.filter((c) => c.type !== 'comment');
    // `>(cmd)` reads what is written into it, as a pipe: `echo … > >(bash)` and `tee >(sh)` pipe text into a shell.
    const saved = this.#feed;
    const feed: Stdin | undefined = node.text.startsWith('>(') ? (saved ?? { kind: 'pipe', upstream: [] }) : undefined;
    let output: string | undefined;
    for (const c of children) output = this.visit(c, inner, feed);
    this.#feed = saved;
    const programs = this.commands.slice(before).map((c) => c.program);
    return children.length === 1 && output !== undefined ? { programs, output } : { programs };
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
      if (node.type === 'heredoc_redirect' && !endsLikeBash(node)) throw new AnalysisAbort(`cannot parse the command reliably: a here-document does not end where bash ends it near "${node.text.slice(0, 40)}"`);
      if (node instanceof TreeSitterNode && ((node.type === 'file_redirect' && runsLinesTogether(node)) || heredocBodyAsArguments(node))) throw misread(node);
    }
    return resolveRedirects(this, nodes, frame, descriptors);
  }
}

/** Word resolution inside one frame: substitutions run one level deeper (a class: no closures per frame). */
class FrameScope implements WordScope {
  readonly vars: Map<string, string | undefined>;

  constructor(readonly walker: ScriptWalker, readonly frame: Frame) {
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

/** How literal a command name is (quotes and backslashes are literal; `$HOME/bin/x` is predictable). */
function classifyName(node: SyntaxNode, words: Word[]): NameKind {
  if (words.some((w) => w.braced) || node.text.startsWith(BRACE_PLACEHOLDER)) return 'brace';
  if (words.some((w) => w.substituted)) return 'substitution';
  if (words.some((w) => w.expanded) && !/^"?\$\{?HOME\}?"?(\/|$)/.test(node.text)) return 'variable';
  if (words.some((w) => w.glob)) return 'glob';
  return 'literal';
}

/** The abort for a node tree-sitter-bash read across two lines (misreadings.ts). */
function misread(node: SyntaxNode, what = 'two lines read as one'): AnalysisAbort {
  return new AnalysisAbort(`cannot parse the command reliably: ${what} near "${node.text.slice(0, 40)}"`);
}

function firstError(node: Node): string {
  if (node.isMissing) return `missing ${node.type}`;
  if (node.type === 'ERROR') return node.text || node.type;
  for (const c of node.children) if (c && (c.hasError || c.isMissing)) return firstError(c);
  return node.text;
}

/** How many known items of a `for` loop are walked one by one (each walk of the body costs a walk). */
const LOOP_ITEMS_WALKED = 4;

/**
 * `while true; do bash & done`: a loop whose condition is always true (`true`, `:`, `[ 1 ]`, `(( 1 ))`) and whose body
 * puts commands in the background without anything that waits, sleeps or leaves the loop.
 */
function isForkLoop(node: SyntaxNode): boolean {
  const condition = node.childForFieldName('condition')?.text.replace(/;\s*$/, '').trim();
  const body = node.childForFieldName('body')?.text ?? '';
  if (condition === undefined || !/^(true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))$/.test(condition) || !node.text.startsWith('while')) return false;
  return /(^|[^&])&(?!&)/.test(body.replace(/>&|&>|<&/g, '')) && !/\b(sleep|wait|break|exit|return|read)\b/.test(body);
}

/** A descriptor as written before `<`: a number, or `{name}` (bash puts the number it picks in `$name`). */
const DESCRIPTOR_WORD = /^(?:\d+|\{[A-Za-z_]\w*\})$/;

/**
 * `/dev/fd/N` (or `/proc/self/fd/N`, or `/dev/fd/$name` for `{name}<`) naming a descriptor opened on a process
 * substitution: that substitution's word.
 */
function openDescriptor(word: Word, open: ReadonlyMap<string, Word>): Word | undefined {
  const m = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(word.value) ?? /^\/(?:dev|proc\/self)\/fd\/\$\{?([A-Za-z_]\w*)\}?$/.exec(word.source);
  if (!m) return undefined;
  return /^\d+$/.test(m[1]!) ? open.get(m[1]!) : open.get(`{${m[1]}}`);
}

