// The analysis limits (src/engine/shell/limits.ts): expansion bombs are asked about as "too large to analyse", within
// the time budget, and never crash the process; ordinary commands below the limits are judged as before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createShellAnalyzer } from '../../src/engine/shell/analyzer.ts';
import { loadBashLanguage } from '../../src/service/bash-language.ts';
import { createJudge } from './shell-support.ts';

/** `a=x; a="$a$a"; …` n times, then `echo $a`: 2^n characters in bash. */
const doubling = (n: number) => `a=x; ${Array(n).fill('a="$a$a"').join('; ')}; echo $a`;
const arrayDoubling = (n: number) => `a=(x); ${Array(n).fill('a=("${a[@]}" "${a[@]}")').join('; ')}; echo "\${a[@]}"`;
const eightfold = (n: number) => `a=xxxxxxxx; ${Array(n).fill('a=$a$a$a$a$a$a$a$a').join('; ')}; echo $a`;
const printfDoubling = (n: number) => `a=x; ${Array(n).fill(`printf -v a '%s%s' "$a" "$a"`).join('; ')}; echo "$a"`;
const appending = (n: number) =>
  `a=${'x'.repeat(1000)}; ${Array(n).fill('a="$a$a"').slice(0, 6).join('; ')}; ${Array(n).fill('echo "$a" >> f').join('; ')}; bash f`;

describe('analysis limits: expansion bombs', async () => {
  const judge = await createJudge();

  const bombs: [string, string][] = [
    ['a string doubled 30 times (the 312-byte command that killed the sidecar)', doubling(30)],
    ['an array doubled 18 times', arrayDoubling(18)],
    ['$a eight times over, ten times', eightfold(10)],
    ['printf -v doubling', printfDoubling(30)],
    ['a file appended to thousands of times', appending(2000)],
    ['nine-way brace expansions, twelve of them', `echo ${'{1..9}'.repeat(12)}`],
    ['ten thousand {a,b}', `echo ${'{a,b}'.repeat(10_000)}`],
    ['thirty thousand unclosed braces', `echo ${'{'.repeat(30_000)}`],
  ];
  for (const [name, command] of bombs) {
    it(`asks about ${name}: too large to analyse`, () => {
      const started = performance.now();
      const j = judge(command);
      assert.equal(j.decision, 'ask', j.reason);
      assert.match(j.reason, /too large to analyse/);
      assert.ok(performance.now() - started < 5_000, 'answered within the time bound');
    });
  }

  it('judges the word a brace expansion used to cut off (the 301st of `{{1..300},~/.ssh/id_rsa}`)', () => {
    assert.equal(judge('cat {{1..300},~/.ssh/id_rsa}').decision, 'deny');
    assert.equal(judge('cat {{1..3},~/.ssh/id_rsa}').decision, 'deny'); // control: the short form always was
  });

  it('keeps ordinary expansions allowed (controls)', () => {
    for (const command of [
      doubling(5),
      arrayDoubling(5),
      eightfold(2),
      'echo {1..100}',
      'for i in {1..1000}; do echo "$i"; done',
      'mkdir -p src/{a,b,c}/{x,y}',
      `cat > notes.md <<'EOF'\n${'line of notes\n'.repeat(3_000)}EOF`,
      `x='${'y'.repeat(40_000)}'; echo "$x" | wc -c`,
    ])
      assert.equal(judge(command).decision, 'allow', command.slice(0, 80));
  });
});

describe('analysis limits: time and depth', async () => {
  // The server's analyzer: the default 50 ms budget (judged by CPU time on a busy machine, wall capped at 20 budgets).
  const analyzer = createShellAnalyzer(await loadBashLanguage(), { home: '/home/agent' });
  const timed: [string, string][] = [
    [
      'functions that call the one before twice, 24 levels',
      Array.from({ length: 24 }, (_, i) => `f${i + 1}(){ f${i} "$1"a; f${i} "$1"b; }`).join('; ') +
        '; f0(){ echo "$1"; }; f24 x',
    ],
    [
      'for loops nested twelve deep',
      `${Array.from({ length: 12 }, (_, i) => `for a${i} in 1 2 3 4; do `).join('')}echo $a0${'; done'.repeat(12)}`,
    ],
    ['a pipeline of 8,000 stages', `${'ls | '.repeat(8_000)}ls`],
    ['nested array subscripts with code, 30,000 deep', `x='${'a['.repeat(30_000)}$(x)'`],
    ['deep $(…) nesting', `echo ${'$(echo '.repeat(3_000)}x${')'.repeat(3_000)}`],
    ['5,000 nested subshells', `${'('.repeat(5_000)}ls${')'.repeat(5_000)}`],
    ['20,000 terms of arithmetic', `echo $((${'1+'.repeat(20_000)}1))`],
    ['a 60 KB script of lines', 'echo "$x"; x=$(printf %s "$x$x"); '.repeat(1_700)],
  ];
  for (const [name, command] of timed) {
    it(`stops ${name} within its bound`, () => {
      const started = performance.now();
      const analysis = analyzer.analyze(command);
      const took = performance.now() - started;
      // 20 budgets of 50 ms is the hard wall, read between steps that stretch when the process gets an eighth of a
      // CPU (the full suite at load 17 took 3 s for one of these): the bound tells a stop from a hang, not speed.
      assert.ok(took < 5_000, `took ${took.toFixed(0)} ms`);
      if (analysis.ok) assert.ok(analysis.commands.length > 0);
      else assert.match(analysis.error ?? '', /too large|longer than|nests|deeper|cannot parse/);
    });
  }
});
