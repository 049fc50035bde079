// The simple parser must build exactly tree-sitter-bash's tree, and the analyzer must judge exactly as without it:
// checked on every command of every corpus and catalogue example, and on generated command lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { Parser, type Node } from 'web-tree-sitter';
import { loadBashLanguage, loadShellAnalyzer } from '../../src/service/bash-language.ts';
import { PLAIN_STATEMENT_TYPES, parseSimple, parseSimpleStatement } from '../../src/engine/shell/simple-parse.ts';
import { HOME, misreadByTreeSitter } from './shell-support.ts';
import { corpusCommands, generated, plainShape, STATEMENT_PLACES, treeSitterShape } from './shell-trees.ts';

/** Scripts with corpus and generated command lines in every statement place. */
function scriptsWithStatements(lines: string[]): string[] {
  const out: string[] = [];
  lines.forEach((line, i) => out.push(STATEMENT_PLACES[i % STATEMENT_PLACES.length]!.replaceAll('L', () => line)));
  return out;
}

describe('simple parser', async () => {
  const language = await loadBashLanguage();
  const parser = new Parser();
  parser.setLanguage(language);

  const sameTree = (command: string): boolean => {
    const plain = parseSimple(command);
    if (!plain) return false;
    const tree = parser.parse(command)!;
    try {
      assert.deepEqual(plainShape(plain), treeSitterShape(tree.rootNode), `tree of ${JSON.stringify(command)}`);
    } finally {
      tree.delete();
    }
    return true;
  };

  it("builds tree-sitter-bash's tree for every corpus command it accepts", () => {
    const accepted = corpusCommands().filter(sameTree).length;
    assert.ok(accepted > 100, `only ${accepted} corpus commands took the simple path`);
  });

  it("builds tree-sitter-bash's tree for every generated command line it accepts", () => {
    const accepted = generated(40_000).filter(sameTree);
    assert.ok(accepted.length > 2_000, `only ${accepted.length} generated commands took the simple path`);
    // The shapes beyond plain words must be among them: expansions, strings with expansions, glued words, assignments.
    const shapes = [
      ['expansions', /\$\w/, 200],
      ['expanding strings', /"[^"]*\$[^"]*"/, 200],
      ['glued words', /\w["$]|"\w/, 200],
      ['assignments', /(^|[;|&] ?)[A-Z_]+=/, 200],
      ['substitutions', /\$\(\w/, 200],
      ['functions', /^\w+\(\) \{ /, 100],
      ['loops', /^for \w+ in /, 100],
      ['conditionals', /^if /, 100],
      ['tests', /\[ /, 100],
      ['here-docs', /<<['"]?\w+['"]?\n/, 100],
    ] as const;
    for (const [what, shape, least] of shapes) {
      const count = accepted.filter((c) => shape.test(c)).length;
      assert.ok(count > least, `only ${count} accepted generated commands have ${what}`);
    }
  });

  it("rebuilds tree-sitter-bash's subtree for every plain statement inside a parsed script", () => {
    let rebuilt = 0;
    const check = (node: Node, source: string): void => {
      if (PLAIN_STATEMENT_TYPES.has(node.type)) {
        const plain = parseSimpleStatement(node.text, node.type);
        if (plain) {
          rebuilt++;
          assert.deepEqual(
            plainShape(plain, node.startIndex),
            treeSitterShape(node),
            `statement ${JSON.stringify(node.text)} in ${JSON.stringify(source)}`,
          );
        }
      }
      for (const c of node.children) if (c) check(c, source);
    };
    for (const script of scriptsWithStatements([...corpusCommands(), ...generated(20_000)])) {
      const tree = parser.parse(script)!;
      try {
        if (!tree.rootNode.hasError) check(tree.rootNode, script);
      } finally {
        tree.delete();
      }
    }
    assert.ok(rebuilt > 5_000, `only ${rebuilt} statements were rebuilt`);
  });

  it('accepts plain one-liners and leaves everything else to tree-sitter', () => {
    for (const c of [
      'git status --short',
      'npm test > /dev/null 2>&1',
      'cat package.json | jq .version',
      'kill -9 4242',
      "sed -i 's/v1/v2/' README.md",
    ])
      assert.ok(parseSimple(c), c);
    for (const c of [
      'echo $HOME "$x" --dir="${HOME}/a"',
      'APP_DIR="$HOME/app" && cd "$APP_DIR"',
      'kill $(lsof -t -i:3000)',
      'docker build -t app:"$(git rev-parse HEAD)" .',
    ])
      assert.ok(parseSimple(c), c);
    for (const c of [
      'echo $((1 + 2))',
      '$(x) y',
      'X=1 make',
      'a && b > f',
      'FOO=1 make',
      'if true; then x; fi > f',
      'x "`y`"',
      'a &',
      'cat <<EOF\n$x\nEOF',
      'ls [ab].ts',
      'a\nb',
      'a | b > f | c',
      'a && b 2>&1 | c',
    ])
      assert.equal(parseSimple(c), undefined, c);
  });

  it('gives the same analysis with and without the simple path on every corpus command, alone and inside scripts', async () => {
    const withSimple = await loadShellAnalyzer({ home: HOME, timeoutMs: 2_000, cacheSize: 0 });
    const treeSitterOnly = await loadShellAnalyzer({ home: HOME, timeoutMs: 2_000, cacheSize: 0, simpleParse: false });
    const commands = [...corpusCommands(), ...generated(3_000)];
    // Lines with a redirection are also placed in every statement place: how a rebuilt statement meets redirections
    // from outside it depends on the place (`[[ -f x ]] && sh 0< <(curl …)`), not on the line's position in a file.
    const redirecting = commands.filter((c) => /[<>]/.test(c) && c.length < 200);
    const everywhere = redirecting.flatMap((line) =>
      STATEMENT_PLACES.map((place) => place.replaceAll('L', () => line)),
    );
    const all = [...commands, ...scriptsWithStatements(commands)];
    // Where tree-sitter-bash misreads a whole script (two lines run into one command), its analysis refuses to judge
    // and is no oracle: parsed a statement at a time, the split reads it as bash does (test/engine/shell-script-lines).
    let misread = 0;
    for (const command of all) {
      const whole = treeSitterOnly.analyze(command);
      const simple = withSimple.analyze(command);
      if (misreadByTreeSitter(whole) && !isDeepStrictEqual(simple, whole)) {
        misread++;
        continue;
      }
      assert.deepEqual(simple, whole, command);
    }
    assert.ok(misread < all.length / 50, `${misread} of ${all.length} scripts misread by tree-sitter-bash`);
    // In places where tree-sitter alone cannot parse the script at all (`ls > out⏎\\rm -rf ~/src <<< "x"`) it is no
    // oracle either; everywhere else the two must agree.
    let compared = 0;
    for (const script of everywhere) {
      const whole = treeSitterOnly.analyze(script);
      if (!whole.ok || misreadByTreeSitter(whole)) continue;
      compared++;
      assert.deepEqual(withSimple.analyze(script), whole, script);
    }
    assert.ok(
      compared > everywhere.length / 2,
      `only ${compared} of ${everywhere.length} placed redirections compared`,
    );
  });
});
