// Analysis bombs through POST /v1/decide: generated expansion bombs, deep nesting and long scripts are answered
// in bounded time and memory, and no bomb is allowed (issue 23, row 1: one 312-byte command killed the sidecar).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { bash, startHarness, type Harness } from '../support/harness.ts';
import { seededInts } from '../support/random.ts';

/**
 * Longest wait for one answer. The analysis stops at 20 × its 50 ms budget (1 s), read between steps that stretch
 * when the process gets a small share of the CPUs: seen 0.4–1 s alone on the shared 2-CPU machine at load average
 * 15+, up to 3 s for one analysis inside the full suite. The bound tells a stop from a hang (main: 56 s, then a crash).
 */
const ANSWER_MS = 5_000;
/** Most the heap may grow over the whole run (live objects and garbage not yet collected alike). */
const HEAP_GROWTH = 256 * 1024 * 1024;
/** Most the heap may keep once collected: the cache must not hold the bombs' expansions. */
const HEAP_KEPT = 48 * 1024 * 1024;

let h: Harness;
before(async () => {
  // A generous pending cap: every bomb opens an ask, and the run must measure the analysis, not the 429 path.
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-bombs-'));
  const config = join(dir, 'toolgate.json');
  writeFileSync(config, JSON.stringify({ max_pending_per_agent: 100_000 }));
  h = await startHarness({ flags: { config } });
  rmSync(dir, { recursive: true, force: true });
  // The first calls compile the HTTP, service and engine code: the bound is for the analysis, not for the JIT.
  for (const command of ['git status', 'a=x; a="$a$a"; echo "$a"', `echo ${'{1..3}'.repeat(3)}`])
    await h.decide(bash(command));
});
after(() => h.close());

/** A forced collection (V8's `gc`, reached without a command-line flag), to read what the heap keeps. */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

type Kind = 'bomb' | 'nesting' | 'script';

/** Generated cases, the same on every run (seeded): what each is, and the command. */
function generate(seed: number): { kind: Kind; command: string }[] {
  const int = seededInts(seed);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const name = () => pick(['a', 'x', 'big', 'v_1', 'S']);
  const use = (v: string) =>
    pick([`echo $${v}`, `echo "$${v}"`, `printf %s "$${v}"`, `[ -n "$${v}" ] && echo ok`, `cat $${v}`, `ls "$${v}"`]);
  const cases: { kind: Kind; command: string }[] = [];
  const step: ((v: string) => string)[] = [
    (v) => `${v}="$${v}$${v}"`,
    (v) => `${v}=$${v}$${v}`,
    (v) => `${v}=\${${v}}\${${v}}`,
    (v) => `${v}+=$${v}`,
    (v) => `${v}=$(echo "$${v}$${v}")`,
    (v) => `printf -v ${v} '%s%s' "$${v}" "$${v}"`,
    (v) => `export ${v}="$${v}$${v}"`,
  ];
  for (let i = 0; i < 8; i++) {
    const v = name();
    const grow = pick(step);
    cases.push({
      kind: 'bomb',
      command: `${v}=${pick(['x', 'ab', '0123456789'])}; ${Array.from({ length: 28 + int(10) }, () => grow(v)).join(pick(['; ', '\n', ' && ']))}; ${use(v)}`,
    });
  }
  for (let i = 0; i < 4; i++) {
    const v = name();
    const k = 4 + int(12);
    cases.push({
      kind: 'bomb',
      command: `${v}=xxxxxxxx; ${Array.from({ length: Math.ceil(30 / Math.log2(k)) }, () => `${v}=${`$${v}`.repeat(k)}`).join('; ')}; ${use(v)}`,
    });
  }
  for (let i = 0; i < 3; i++) {
    const v = name();
    cases.push({
      kind: 'bomb',
      command: `${v}=(x y); ${Array.from({ length: 12 + int(10) }, () => `${v}=("\${${v}[@]}" "\${${v}[@]}")`).join('; ')}; echo "\${${v}[@]}"`,
    });
  }
  for (let i = 0; i < 6; i++) {
    const n = 3 + int(7);
    const part = pick([`{1..${n}}`, `{a,b,c}`, `{0..${n}..1}`, `{x,{y,z}}`, `{a..${'abcdefgh'[n - 3]}}`]);
    cases.push({
      kind: 'bomb',
      command: `${pick(['echo', 'touch', 'mkdir -p', 'ls'])} ${pick(['', 'dir/', '"q"'])}${part.repeat(Math.ceil(24 / Math.log2(n)))}`,
    });
  }
  for (let i = 0; i < 6; i++) {
    const depth = 9 + int(3_000);
    const [open, close] = pick([
      ['$(echo ', ')'],
      ['"$(echo ', ')"'],
      ['<(cat ', ')'],
      ['$(eval ', ')'],
    ] as const);
    cases.push({ kind: 'nesting', command: `echo ${open.repeat(depth)}x${close.repeat(depth)}` });
  }
  for (let i = 0; i < 4; i++) {
    const depth = 2_000 + int(6_000);
    const [open, close] = pick([
      ['(', ')'],
      ['{ ', '; }'],
      ['if true; then ', '; fi'],
      ['$((', '))'],
    ] as const);
    cases.push({ kind: 'nesting', command: `${open.repeat(depth)}ls${close.repeat(depth)}` });
  }
  const lines = [
    'echo "$x"',
    'x=$(printf %s "$x$x")',
    'ls -la src',
    'grep -rn TODO src | head',
    'for f in *.ts; do wc -l "$f"; done',
    'f() { echo "$1"; }; f a',
    'cat <<EOF\nline $x\nEOF',
    'a=(1 2 3); echo "${a[@]}"',
    'if [ -f x ]; then cat x; fi',
  ];
  for (let i = 0; i < 5; i++) {
    const size = 8_000 + int(56_000);
    let script = '';
    for (let line = pick(lines); script.length + line.length < size; line = pick(lines)) script += `${line}\n`;
    cases.push({ kind: 'script', command: script });
  }
  return cases;
}

describe('analysis bombs through /v1/decide', () => {
  it('answers every generated bomb, deep nesting and long script within the bound; no bomb or nesting is allowed', async (t) => {
    collect();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let slowest = 0;
    const cases = generate(23);
    for (const { kind, command } of cases) {
      const started = performance.now();
      const { status, body } = await h.decide(bash(command));
      const took = performance.now() - started;
      peak = Math.max(peak, process.memoryUsage().heapUsed);
      slowest = Math.max(slowest, took);
      const label = `${kind} (${command.length} bytes): ${command.slice(0, 80)}`;
      assert.equal(status, 200, `${label}: ${JSON.stringify(body)}`);
      assert.ok(took <= ANSWER_MS, `${label}: answered in ${took.toFixed(0)} ms`);
      if (kind !== 'script') assert.notEqual(body.decision, 'allow', `${label}: ${body.reason}`);
      if (kind === 'bomb') assert.match(body.reason, /too large to analyse|longer than/, label);
    }
    assert.ok(peak - baseline < HEAP_GROWTH, `heap grew by ${((peak - baseline) / 2 ** 20).toFixed(0)} MiB`);
    collect();
    const kept = process.memoryUsage().heapUsed - baseline;
    assert.ok(kept < HEAP_KEPT, `heap kept ${(kept / 2 ** 20).toFixed(0)} MiB after collection`);
    // Every answer is audited (on main the process died before its audit row was written).
    const audit = (await (await h.reviewer('/v1/audit?limit=1')).json()) as { items: { seq: number }[] };
    assert.ok((audit.items[0]?.seq ?? 0) >= cases.length, `audit rows: ${audit.items[0]?.seq}`);
    t.diagnostic(
      `${cases.length} cases; slowest answer ${slowest.toFixed(0)} ms; heap peak +${((peak - baseline) / 2 ** 20).toFixed(1)} MiB, kept +${(kept / 2 ** 20).toFixed(1)} MiB`,
    );
  });

  it('still allows the harmless forms of the same shapes (controls)', async () => {
    for (const command of [
      'a=x; a="$a$a"; a="$a$a"; echo "$a"',
      'echo {1..20}',
      'mkdir -p src/{a,b}/{c,d}',
      'echo "$(echo "$(echo hi)")"',
      'a=(x); a=("${a[@]}" "${a[@]}"); echo "${a[@]}"',
    ]) {
      const { body } = await h.decide(bash(command));
      assert.equal(body.decision, 'allow', `${command}: ${body.reason}`);
    }
  });
});
