// The decide body's hand-written check (checkDecideBody) against zod's DecideRequestSchema: the check may only accept
// what zod accepts, with zod's output; everything else still gets zod's field and reason.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonText } from '../../src/http/body.ts';
import { ProblemError } from '../../src/http/problem.ts';
import { checkDecideBody, DecideRequestSchema } from '../../src/http/schemas.ts';

/** A small deterministic generator (the same bodies every run). */
function generator(seed: number) {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick };
}

const STRINGS = [
  '',
  'a',
  'x'.repeat(200),
  'x'.repeat(201),
  'x'.repeat(4096),
  'x'.repeat(4097),
  'git status',
  'é'.repeat(150),
  '😀'.repeat(100),
  '😀'.repeat(101),
];
const HOMES = [
  '/home/a',
  '/home/a/',
  '/home/a//',
  '/',
  '//',
  'home/a',
  '/home/../etc',
  '/home/./a',
  '/home/a\u0001',
  '/home/a\t',
  `/${'h'.repeat(1023)}`,
  `/${'h'.repeat(1024)}`,
  '/home/a.b/..c',
];
const OTHERS: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  60,
  60.5,
  61,
  [],
  {},
  ['a'],
  { destructiveHint: true },
  { readOnlyHint: 'yes' },
  { other: true },
  { destructiveHint: false, readOnlyHint: true },
];
const MODES = ['default', 'strict', 'auto_approve', 'read_only', 'bypass_all', 'Default', 'yolo'];
const FIELDS = [
  'tool',
  'args',
  'agent_id',
  'session_id',
  'cwd',
  'mode',
  'interactive',
  'wait',
  'tool_call_id',
  'agent_home',
  'tool_annotations',
  'extra',
  '__proto__',
  'constructor',
];

function value(g: ReturnType<typeof generator>, field: string): unknown {
  const r = g.next();
  if (r < 0.15) return g.pick(OTHERS);
  if (field === 'mode' && r < 0.8) return g.pick(MODES);
  if (field === 'agent_home' && r < 0.8) return g.pick(HOMES);
  if (field === 'args') return g.pick([{ command: 'ls' }, null, 'text', [1, 2], { file_path: '/p', content: 'x' }]);
  return r < 0.5 ? g.pick(STRINGS) : g.pick(OTHERS);
}

/** A body as JSON text (so `__proto__` is an own key, as JSON.parse makes it). */
function body(g: ReturnType<typeof generator>): string {
  const parts: string[] = [];
  if (g.next() < 0.9) parts.push(`"tool":${JSON.stringify(g.next() < 0.8 ? 'Bash' : value(g, 'tool'))}`);
  if (g.next() < 0.9) parts.push(`"args":${JSON.stringify(value(g, 'args'))}`);
  const n = Math.floor(g.next() * 4);
  for (let i = 0; i < n; i++) {
    const field = g.pick(FIELDS);
    if (field === 'tool' || field === 'args') continue;
    parts.push(`${JSON.stringify(field)}:${JSON.stringify(value(g, field)) ?? 'null'}`);
  }
  return `{${parts.join(',')}}`;
}

describe('the decide body check', () => {
  it('accepts only what zod accepts, with the same output, on 20,000 generated bodies', () => {
    const g = generator(27);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const text = body(g);
      const zod = DecideRequestSchema.safeParse(JSON.parse(text));
      const fast = checkDecideBody(JSON.parse(text));
      if (fast === undefined) {
        if (!zod.success) refused++;
        continue;
      }
      assert.ok(zod.success, `the check accepted what zod refuses: ${text}`);
      assert.deepEqual({ ...fast }, { ...zod.data }, text);
      accepted++;
    }
    // Both kinds are well represented, so the comparison above means something.
    assert.ok(accepted > 2000 && refused > 2000, `accepted ${accepted}, refused ${refused}`);
  });

  it('accepts the bodies agents send', () => {
    for (const text of [
      '{"tool":"Bash","args":{"command":"git status"}}',
      '{"tool":"Read","args":{"file_path":"/p/a.ts"},"agent_id":"a","session_id":"s","cwd":"/p","mode":"strict","interactive":false,"wait":30,"tool_call_id":"t1","agent_home":"/home/a/","tool_annotations":{"readOnlyHint":true}}',
    ]) {
      const fast = checkDecideBody(JSON.parse(text));
      assert.ok(fast, text);
      assert.deepEqual({ ...fast }, { ...DecideRequestSchema.parse(JSON.parse(text)) });
    }
    assert.equal(
      checkDecideBody(JSON.parse('{"tool":"Read","args":{},"agent_home":"/home/a/"}'))?.agent_home,
      '/home/a',
    );
  });

  it('leaves a refusal to zod: the field and the reason, as before', () => {
    const refusal = (text: string) => {
      try {
        parseJsonText(text, DecideRequestSchema);
      } catch (error) {
        assert.ok(error instanceof ProblemError);
        return error.errors;
      }
      assert.fail(`accepted ${text}`);
    };
    assert.match(refusal('{"tool":"","args":{}}')!.join(), /^tool: /);
    assert.match(refusal('{"tool":"Bash"}')!.join(), /^args: /);
    assert.match(refusal('{"tool":"Bash","args":{},"wait":61}')!.join(), /^wait: /);
    // JSON's 1e400 parses to Infinity: refused by the check and by zod alike.
    assert.equal(checkDecideBody(JSON.parse('{"tool":"Bash","args":{},"wait":1e400}')), undefined);
    assert.match(refusal('{"tool":"Bash","args":{},"wait":1e400}')!.join(), /^wait: /);
    assert.match(refusal('{"tool":"Bash","args":{},"wait":-1e400}')!.join(), /^wait: /);
    assert.match(
      refusal('{"tool":"Bash","args":{},"agent_home":"/a/../b"}')!.join(),
      /^agent_home: must be normalised/,
    );
    assert.match(refusal('{"tool":"Bash","args":{},"extra":1}')!.join(), /extra/);
    // The control: the same body without the extra key is accepted.
    assert.equal(parseJsonText('{"tool":"Bash","args":{}}', DecideRequestSchema).tool, 'Bash');
  });
});

describe('the body depth limit', () => {
  const body = (depth: number) => `{"tool":"Bash","args":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
  it('accepts JSON nested 64 levels deep and refuses 65, with the reason', () => {
    assert.equal(parseJsonText(body(64), DecideRequestSchema).tool, 'Bash');
    assert.throws(
      () => parseJsonText(body(65), DecideRequestSchema),
      (error: unknown) =>
        error instanceof ProblemError && error.status === 400 && /nested deeper than 64/.test(error.detail),
    );
  });
  it('does not count brackets inside strings as nesting', () => {
    const text = JSON.stringify({ tool: 'Bash', args: { command: `echo ${'{['.repeat(100)}` } });
    assert.equal(parseJsonText(text, DecideRequestSchema).tool, 'Bash');
  });
});
