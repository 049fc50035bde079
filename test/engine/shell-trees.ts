// What the simple-parse and script-lines tests share: every corpus command, generated command lines, trees as
// comparable values, and the places a statement stands in a script.
import { readFileSync } from 'node:fs';
import type { Node } from 'web-tree-sitter';
import type { PlainNode } from '../../src/engine/shell/plain-node.ts';
import { DANGER_CATALOG } from '../../src/engine/catalog/danger.ts';
import { seededInts } from '../support/random.ts';

const CORPORA = [
  new URL('./corpus-private.jsonl', import.meta.url),
  new URL('./regressions.jsonl', import.meta.url),
  new URL('../fixtures/corpus-shell-public.jsonl', import.meta.url),
  new URL('../fixtures/peer-cases/commands.jsonl', import.meta.url),
];

/** Every command of every corpus and every catalogue example. */
export function corpusCommands(): string[] {
  const commands: string[] = [];
  for (const url of CORPORA) {
    for (const line of readFileSync(url, 'utf8').split('\n')) if (line.trim()) commands.push((JSON.parse(line) as { cmd: string }).cmd);
  }
  for (const entry of DANGER_CATALOG) commands.push(...entry.examples);
  return commands;
}

/** Everything the walker can read of a tree, as one comparable value; `offset`: where the tree's source starts in the script. */
export function treeSitterShape(node: Node, offset = 0): unknown {
  const children = [];
  for (let i = 0; i < node.childCount; i++) children.push({ field: node.fieldNameForChild(i) ?? undefined, node: treeSitterShape(node.child(i)!, offset) });
  return { type: node.type, named: node.isNamed, start: node.startIndex + offset, end: node.endIndex + offset, text: node.text, children };
}

/** `offset`: where the plain node's text starts in the script. */
export function plainShape(node: PlainNode, offset = 0): unknown {
  const children = node.children.map((c, i) => ({ field: node.fields[i], node: plainShape(c, offset) }));
  return { type: node.type, named: node.isNamed, start: node.startIndex + offset, end: node.endIndex + offset, text: node.text, children };
}

/** Places where a statement stands in a script; `L` is replaced by a command line. */
export const STATEMENT_PLACES = [
  'L', 'L\nL', 'L; L', 'L &', 'L & L', '! L', '( L )', '{ L; }', '{ L; } > out', 'f() { L; }', 'function f { L\n}',
  'if L; then L; elif L; then L; else L; fi', 'for f in a b; do L; done', 'for ((i=0; i<3; i++)); do L; done', 'while L; do L; done',
  'until L; do L; done', 'case $x in a) L;; *) L ;; esac', 'x=$(L)', 'echo "$(L)"', 'echo "a $(L) b"', 'diff <(L) <(L)', 'L | while read x; do L; done',
  '[[ -f x ]] && L', 'L && { L; }', 'L || exit 1', 'L # comment', '# comment\nL', 'L && \\\n  L', 'cat <<EOF\n$(L)\nEOF', 'cat <<EOF; L\nbody\nEOF',
  'L <<EOF\nbody\nEOF', 'L <<< "x"', 'L 2>&1 | tee log', 'time L', 'sudo L', 'echo $(( $(L) + 1 ))', 'x=1 L', 'exec 3> f; L', 'a=$(L; L)',
  'select x in a; do L; done', 'coproc L', 'L; # done\nif x; then\n  L\nfi',
];

/** Statements around a generated line `L`: the function and loop shapes simple-parse builds, and near misses. */
const COMPOUNDS = [
  'f() { L; }', 'f () { L; }', 'f() { L; L; }', 'f() { L }', 'f() {L; }', 'f() { L;}', 'f(){ L; }', 'f() { L & }', 'for x in a b; do L; done',
  'for x in *.ts "$y" a?c; do L; done', 'for x in; do L; done', 'for x; do L; done', 'for 1x in a; do L; done', 'for x in a b; do L; done | y',
  'f() { L; } > out', 'for x in a; do for y in b; do L; done; done', 'f() { for x in a; do L; done; }', 'x; f() { L; }; y', 'for x in a; do L; done && y',
  'function f { L; }', 'g() { L; } ; g', '{ L; }', 'for x in a  b; do L; done', 'for x in $(ls); do L; done', 'for x in a b ; do L ; done',
  'f-g() { L; }', 'f.g() { L; }', '"f"() { L; }', 'for x in do; do L; done', 'for in in a; do L; done', 'f() { L; }; f() { L; }', 'echo { L; }',
  'if L; then L; fi', 'if [ -f x ]; then L; else L; fi', 'if [ "$x" = b ]; then L; elif L; then L; fi', '[ -z "$x" ] && L', '[ x ]', 'L || [ -n "${y}" ]',
  '[ -f x -a -d y ]', '[ a != b ]', '[ a == b ]', 'if L; then L; fi > f', 'if [ -f x ]; then L; fi | y', '[[ -f x ]]', 'if [ -f x ] then L; fi', 'if L; then; fi',
  'if L; then L; else; fi', 'if [ -f x ]; then for y in a; do L; done; fi', '[ $x -eq 1 ]', '[ -f ]', '[ ]', 'if [ x ]; then L; elif [ -d y ]; then L; else L; fi',
  'if ! L; then L; fi', 'if [ -f x ]; then if L; then L; fi; fi', '[ -f x ] > f', '[ -f x ]&& L', 'echo [ x ]', '[ -ff x ]', '[ - x ]', 'if L; then L; L; fi',
];

/** Here-documents after a generated line `L`: the shapes simple-parse builds, and near misses. */
const HEREDOCS = [
  "L <<'EOF'\nbody $x `y` \\z\nEOF", 'L <<"EOF"\nrm -rf ~\nEOF', 'L <<EOF\nplain text\n  indented\nEOF', 'L <<EOF\n$x\nEOF', 'L <<EOF\na `b`\nEOF',
  'L <<EOF\na\\\nb\nEOF', 'L <<-EOF\n\tx\n\tEOF', "L << 'EOF'\nx\nEOF", "L <<'EOF' > f\nx\nEOF", "L <<'EOF'\nx\nEOF\n", "L <<'EOF'\n\nEOF",
  "L <<'EOF'\nEOF", "L <<'E1'\nE1x\nE1", "L <<'EOF'\nx\n EOF\nEOF", "L <<'EOF' | sh\nx\nEOF", 'L <<\\EOF\nx\nEOF', "L <<'EOF'\nx\nEOF\nls",
  "L <<'EO F'\nx\nEO F", "L <<'EOF'\nEOF\nEOF", 'L <<EOF', "L <<'EOF'\nx", "L <<'EOF'x\ny\nEOF", 'L <<E-F\nx\nE-F', "L <<'EOF'\r\nx\r\nEOF",
  "L <<'EOF'\nline one\nline two\nEOF", 'L <<"END"\nx y z\nEND', "L <<'PY'\nimport os\nos.remove('x')\nPY", 'L <<EOF\nplain\n\nmore\nEOF',
  "L > out.txt <<'EOF'\n{ \"a\": 1 }\nEOF", "L <<'EOF'\n#!/bin/sh\nrm -rf \"$HOME\"\nEOF", "L <<'X'\n  X1\nX",
];

/** Seeded generator of command lines from the simple grammar's pieces and near misses. */
export function generated(count: number, seed = 42): string[] {
  const random = seededInts(seed);
  const pick = <T>(xs: T[]): T => xs[random(xs.length)]!;
  const names = ['git', 'ls', 'rm', 'cat', 'echo', 'npm', 'sudo', 'exec', 'command', 'eval', 'env', 'xargs', 'sh', 'test', 'true', '~/bin/x', './run.sh', '/bin/rm', 'a-b', 'x.y', 'done', 'in', 'time', 'export', 'A=1', '2', '-x', '%1', '+x', '@a', 'a:b', 'a,b', '"git"', "'ls'", '""', '$x', '"$x"', '${x}', 'X=$y', 'X="$HOME/a"', 'X=', "X='a'", 'X=a=b', 'X=1', 'X=-1', 'X=~', 'X=$y$z', 'X="a"b', 'X=${y}', '_X1=2', '1X=2', 'X+=1', 'X=a"b"', '~/"a"', 'X=$(y)', '$(x)', 'X="$(y)"', 'X=$(y)z'];
  const args = ['-rf', '--short', '-9', '4242', '0', '-1', '1.5', '-1a', '2x', '0x1f', '10#5', '~', '~/projects', '~root', 'a~b', 'src/', '.', '..', '--x=y', 'a=b', '=', '-', '--', '%', '+5', 'a@b', 'a,b', 'a:b', 'then', 'fi', 'done', 'esac', 'do', '"a b"', '"*.ts"', '"{{.Names}}"', '"a#b"', '"!x"', '"it\'s"', '""', "''", "'s/v1/v2/'", "'a \"b\"'", '"a  b"', '"  "', "' '", '"%s"', '"a;b|c&&d"', "'$x'", '"é"', 'é', 'a#b', '#c', '$x', '${x}', '"$x"', '"a $x b"', '"$x$y"', '" $x "', '"$*"', '"^$"', '$1', '$10', '$_', '$_x', '$@', '$?', '$$', '$-', '"${HOME}/a"', '$HOME/bin', 'a$x', '"x"y', '\'a\'"b"', '--name="$x"', '-DX=$y', 'X="$y"', '~/"a"', '"a"$x', '${x}y', '$x.y', '"$x-y"', '"a  $x"', '"  a $x"', '"$x  "', '$', '"$"', '${1}', '${x-y}', '"$x\'y"', '"a\tb $x"', '"$x"done', 'done$x', '1$x', '$x1', '"$(x)"', '$(x)', '"`x`"', '"\\$x"', '${', '${}', '"$"x', '$"x"', "$'x'", '"$x"\'y\'', '=$x', 'a=$x', '"$1$2"', '"$é"', '$é', '$(x)', '"$(x)"', '"a $(b c) d"', '$(a | b)', '$(a; b)', '$( a )', '$(a;)', '$(a)b', 'app:"$(x)"', '"$(git log --format="%h")"', '$((1+2))', '$()', '$(a && b)', '$(a > f)', '$(a 2>&1)', '$(a $(b))', '"$(x) $y"', '$(echo "a b")', "$(echo 'x')", '$(cd ~)', '$(a)$(b)', '"$(a)"$(b)', '$(if x)', '$(done)', '$(a &)', '$(a\nb)', '$(a', '"$(a"', '$(X=1)', '$(X=1 a)', '$(a) )', '$(a | b > f | c)', '$(rm -rf ~)', '"[%s] %s\\n"', '"a\\"b"', '"\\$x"', '"a\\\\"', '"\\\\$x"', '"x\\`y"', '"$x\\n"', '"\\n$x"', '"a \\" $x"', '"a\\', '"\\"', '"a\\ b"'];
  const joins = [' ', ' ', ' ', ' | ', ' && ', ' || ', '; ', ';', '|', '&&', '||', ' ; ', '  ', ' & ', ' |& ', '\t'];
  const redirects = ['> f', '>> f', '2>&1', '2>/dev/null', '>&2', '&> f', '&>> f', '< in', '2> err', '>f', '1>&2', '> 5', '>& f', '2>&-', '>| f', '<< x', '<<< x', '> "f"', '2>&1 x', 'x>f'];
  const out: string[] = [];
  while (out.length < count) {
    let line = '';
    const commands = 1 + random(3);
    for (let c = 0; c < commands; c++) {
      if (c > 0) line += pick(joins);
      line += pick(names);
      for (let a = random(4); a > 0; a--) line += ' ' + pick(args);
      if (random(3) === 0) line += ' ' + pick(redirects);
      if (random(8) === 0) line += ' ' + pick(redirects);
    }
    // Functions and loops around the line, and near misses of them.
    const shape = random(7);
    if (shape < 3) line = pick(COMPOUNDS).replaceAll('L', () => line);
    else if (shape === 3) line = pick(HEREDOCS).replaceAll('L', () => line);
    out.push(line);
  }
  return out;
}
