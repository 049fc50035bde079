// Hostile input: oversized and malformed bodies, a fuzz run over every POST endpoint, and pathological shell commands.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openAsk } from '../support/approvals.ts';
import { AGENT_TOKEN, bash, REVIEWER_TOKEN, startHarness, type Harness } from '../support/harness.ts';
import { seededRandom } from '../support/random.ts';

let h: Harness;
let approvalId: string;
before(async () => {
  // A generous pending cap: the fuzz run opens asks on purpose and must not end up measuring the 429 path only.
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-hostile-'));
  const config = join(dir, 'toolgate.json');
  writeFileSync(
    config,
    JSON.stringify({ max_pending_per_agent: 100_000, max_pending_per_token: 100_000, max_pending_total: 1_000_000 }),
  );
  h = await startHarness({ flags: { config } });
  rmSync(dir, { recursive: true, force: true });
  approvalId = (await openAsk(h, 'sudo systemctl restart nginx')).approval.id;
});
after(() => h.close());

/** Sends raw bytes as the reviewer (a reviewer may call every endpoint, so auth never hides a parser bug). */
function send(
  path: string,
  body: string | Uint8Array,
  contentType: string | null = 'application/json',
  method = 'POST',
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${REVIEWER_TOKEN}` };
  if (contentType) headers['content-type'] = contentType;
  return Promise.resolve(h.app.request(path, { method, headers, body: body as BodyInit }));
}

async function assertProblem(res: Response, label: string): Promise<void> {
  assert.ok(res.status < 500, `${label}: ${res.status} ${await res.clone().text()}`);
  if (res.status >= 400)
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, `${label}: ${res.status}`);
  await res.arrayBuffer();
}

describe('size limits', () => {
  it('a 2 MiB body is 413 problem+json on /v1/decide, /v1/rules and resolve', async () => {
    const huge = JSON.stringify(bash('x'.repeat(2 * 1024 * 1024)));
    for (const path of ['/v1/decide', '/v1/rules', `/v1/approvals/${approvalId}/resolve`]) {
      const res = await send(path, huge);
      assert.equal(res.status, 413, `${path}: ${res.status}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.match((await res.json()).detail, /larger than 262144 bytes/);
    }
  });

  it('a 2 MiB body on the Claude Code hook is a deny (its http hooks run the tool on any non-2xx answer)', async () => {
    const res = await send(
      '/v1/hooks/claude-code',
      JSON.stringify({
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: 'x', content: 'x'.repeat(2 * 1024 * 1024) },
      }),
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-toolgate-status'), '413');
    const out = (await res.json()).hookSpecificOutput;
    assert.equal(out.permissionDecision, 'deny');
    assert.match(out.permissionDecisionReason, /larger than 262144 bytes/);
  });

  it('a 2 MiB body is 413 even when it claims a small Content-Length… or none at all', async () => {
    const body = new TextEncoder().encode(JSON.stringify(bash('y'.repeat(2 * 1024 * 1024))));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < body.length; i += 65536) controller.enqueue(body.subarray(i, i + 65536));
        controller.close();
      },
    });
    const res = await h.app.request('/v1/decide', {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
  });

  it('JSON nested deeper than the limit is 400, and nesting deep enough to overflow a recursive parser is 4xx too', async () => {
    for (const depth of [65, 1000, 100_000]) {
      const res = await send('/v1/decide', `{"tool":"bash","args":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      assert.ok(res.status === 400 || res.status === 413, `depth ${depth}: ${res.status}`);
      await assertProblem(res, `depth ${depth}`);
    }
  });

  it('strings longer than the schema allows are 400 naming the field', async () => {
    for (const [field, value] of [
      ['tool', 'x'.repeat(201)],
      ['agent_id', 'a'.repeat(201)],
      ['session_id', 's'.repeat(201)],
      ['cwd', '/'.repeat(4097)],
      ['tool_call_id', 't'.repeat(201)],
    ] as const) {
      const res = await send('/v1/decide', JSON.stringify({ ...bash('ls'), [field]: value }));
      assert.equal(res.status, 400, field);
      assert.ok(
        (await res.json()).errors.some((e: string) => e.startsWith(`${field}:`)),
        field,
      );
    }
  });

  it('a NUL byte anywhere is 400 naming where', async () => {
    for (const [body, where] of [
      [bash('ls\u0000; rm -rf ~'), 'args.command'],
      [{ ...bash('ls'), cwd: '/tmp\u0000/x' }, 'cwd'],
      [{ tool: 'read_file', args: { paths: ['/a', '/etc/passwd\u0000.txt'] } }, 'args.paths.1'],
    ] as const) {
      const res = await send('/v1/decide', JSON.stringify(body));
      assert.equal(res.status, 400);
      assert.deepEqual((await res.json()).errors, [`${where}: contains a NUL byte`]);
    }
  });

  it('non-object bodies are 400 and other media types 415', async () => {
    for (const body of ['[]', '"bash"', '42', 'null', 'true', '', ' ', '\ufeff{}'])
      await assertProblem(await send('/v1/decide', body), JSON.stringify(body));
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      const res = await send('/v1/decide', JSON.stringify(bash('ls')), type);
      assert.equal(res.status, 415, type);
      await assertProblem(res, type);
    }
  });
});

const WEIRD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202e',
  '\u200b\u200d',
  '🦀🔥',
  'Ω≈ç√∫',
  'ｆｕｌｌ',
  '\\',
  '"',
  "'",
  '$(rm -rf /)',
  '`id`',
  '../../../../etc/passwd',
  '%00',
  '\r\n\r\n',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '__proto__',
  'constructor',
  '-1',
  '1e400',
  'NaN',
];
const KEYS = [
  'tool',
  'args',
  'agent_id',
  'session_id',
  'cwd',
  'mode',
  'interactive',
  'wait',
  'tool_call_id',
  'choice',
  'feedback',
  'rule_pattern',
  'modified_args',
  'effect',
  'pattern',
  'risk',
  'scope',
  'expires_at',
  'note',
  'position',
  'tool_name',
  'tool_input',
  'hook_event_name',
  'decision_id',
  'result',
  '__proto__',
  'constructor',
  'prototype',
  '',
];

/** One random JSON-ish value. */
function value(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 8 : 11));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [0, -0, -1, 1.5, 2 ** 53 + 1, 1e308, -1e308, 60, 61, 1e-320][Math.floor(rand() * 10)];
    case 3:
      return WEIRD_STRINGS[Math.floor(rand() * WEIRD_STRINGS.length)];
    case 4:
      return 'z'.repeat(Math.floor(rand() * 70_000));
    case 5:
      return String.fromCodePoint(
        ...Array.from({ length: 40 }, () => Math.floor(rand() * 0x10ffff) & ~0x800 /* skip lone surrogates here */),
      );
    case 6:
      return [
        'default',
        'bypass_all',
        'allow_once',
        'allow_always',
        'deny_with_feedback',
        'bash',
        'Bash',
        'read_file',
        'allow',
        'ask',
        'high',
        'global',
        'PreToolUse',
      ][Math.floor(rand() * 13)];
    case 7:
      return 'sudo systemctl restart nginx';
    case 8:
      return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(rand() * 5); i > 0; i--)
        o[KEYS[Math.floor(rand() * KEYS.length)]!] = value(rand, depth + 1);
      return o;
    }
  }
}

/** One malformed body: raw text or bytes and a content type. */
function malformed(rand: () => number, i: number): { body: string | Uint8Array; type: string | null; kind: string } {
  switch (i % 10) {
    case 0:
      return { body: JSON.stringify(value(rand)), type: 'application/json', kind: 'random JSON value' };
    case 1: {
      const o: Record<string, unknown> = {};
      for (const key of KEYS) if (rand() < 0.4) o[key] = value(rand);
      return { body: JSON.stringify(o), type: 'application/json', kind: 'random fields' };
    }
    case 2:
      return {
        body: Uint8Array.from({ length: Math.floor(rand() * 4096) }, () => Math.floor(rand() * 256)),
        type: 'application/json',
        kind: 'random bytes',
      };
    case 3: {
      const text = JSON.stringify({ tool: 'bash', args: { command: 'echo hi' }, agent_id: 'fuzz' });
      const cut = Math.floor(rand() * text.length);
      return {
        body: text.slice(0, cut) + String.fromCharCode(Math.floor(rand() * 128)) + text.slice(cut + 1),
        type: 'application/json',
        kind: 'one byte flipped',
      };
    }
    case 4: {
      const depth = 10 + Math.floor(rand() * 5000);
      const open = rand() < 0.5 ? '{"a":' : '[';
      const close = open === '[' ? ']' : '}';
      return {
        body: `{"tool":"bash","args":${open.repeat(depth)}1${close.repeat(depth)}}`,
        type: 'application/json',
        kind: `nested ${depth}`,
      };
    }
    case 5:
      return {
        body: JSON.stringify({
          tool: 'bash',
          args: { command: `echo ${'\u0000'.repeat(1 + Math.floor(rand() * 3))}` },
          choice: 'deny',
          effect: 'deny',
          pattern: 'bash(\u0000)',
        }),
        type: 'application/json',
        kind: 'NUL bytes',
      };
    case 6:
      return {
        body: JSON.stringify({ tool: 'x'.repeat(Math.floor(rand() * 250_000)), args: {} }),
        type: 'application/json',
        kind: 'huge string',
      };
    case 7:
      return {
        body: `{"tool":"bash","args":{"command":"\\ud800\\udbff ${WEIRD_STRINGS[i % WEIRD_STRINGS.length]!.replace(/["\\]/g, '')}"},"agent_id":"\\u202e"}`,
        type: 'application/json',
        kind: 'lone surrogates',
      };
    case 8:
      return {
        body: JSON.stringify(bash('ls')),
        type:
          [
            null,
            'text/plain',
            'application/json; charset=latin1',
            'application/vnd.api+json',
            'multipart/form-data',
            '*/*',
          ][i % 6] ?? null,
        kind: 'content types',
      };
    default:
      return {
        body: [
          '{"tool":"bash","args":{}',
          '{"tool":"bash",}',
          "{'tool':'bash'}",
          '{"tool":NaN}',
          '{"tool":Infinity}',
          '{"a":1e999999}',
          '{"__proto__":{"admin":true},"tool":"bash","args":{}}',
          '{"tool":"bash","tool":"read_file","args":{}}',
          '\ufeff\ufeff{}',
          '{"constructor":{"prototype":{"x":1}}}',
        ][i % 10]!,
        type: 'application/json',
        kind: 'broken syntax',
      };
  }
}

describe('fuzz: malformed bodies to every POST endpoint', () => {
  const CASES_PER_ENDPOINT = 60;
  it(`sends ${CASES_PER_ENDPOINT} malformed bodies to each POST route: no 5xx, problem+json on every /v1 error, quick answers`, async () => {
    const posts = [...new Set(h.app.routes.filter((r) => r.method === 'POST').map((r) => r.path))].map((p) =>
      p.replace(':id', approvalId).replace(':runtime', 'claude-code'),
    );
    assert.ok(posts.length >= 6, `POST routes: ${posts.join(', ')}`);
    const rand = seededRandom(0x70016a7e);
    const failures: string[] = [];
    let sent = 0;
    let slowest = 0;
    for (const path of posts) {
      for (let i = 0; i < CASES_PER_ENDPOINT; i++) {
        const { body, type, kind } = malformed(rand, i);
        const started = performance.now();
        const res = await send(path, body, type);
        const ms = performance.now() - started;
        slowest = Math.max(slowest, ms);
        sent++;
        const text = await res.text();
        const problem = /^application\/problem\+json/.test(res.headers.get('content-type') ?? '');
        if (res.status >= 500) failures.push(`${path} case ${i} (${kind}): ${res.status} ${text.slice(0, 200)}`);
        // Hook routes answer a failure with a deny in the runtime's format (fail closed), never an allow.
        else if (
          path.startsWith('/v1/hooks/') &&
          res.status < 300 &&
          (res.headers.get('x-toolgate-status') === null || /"allow"/.test(text))
        )
          failures.push(`${path} case ${i} (${kind}): ${res.status} ${text.slice(0, 200)}`);
        else if (path.startsWith('/v1/') && res.status >= 400 && !problem)
          failures.push(`${path} case ${i} (${kind}): ${res.status} without problem+json`);
        else if (problem && !JSON.parse(text).detail)
          failures.push(`${path} case ${i} (${kind}): problem without detail`);
        if (ms > 2000) failures.push(`${path} case ${i} (${kind}): took ${Math.round(ms)} ms`);
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(sent >= 300, `sent ${sent}`);
    console.log(
      `# fuzz: ${sent} malformed bodies to ${posts.length} POST routes, slowest answer ${Math.round(slowest)} ms`,
    );
    // The server is still healthy and still deciding.
    assert.equal((await h.app.request('/healthz')).status, 200);
    const { status, body } = await h.decide(bash('ls -la'));
    assert.equal(status, 200);
    assert.equal(body.decision, 'allow');
  });
});

describe('pathological commands', () => {
  async function decideTimed(command: string, harness = h): Promise<{ status: number; body: any; ms: number }> {
    const started = performance.now();
    const res = await harness.agent('/v1/decide', {
      method: 'POST',
      body: JSON.stringify(bash(command, { session_id: `p-${Math.random()}` })),
    });
    const body = await res.json();
    return { status: res.status, body, ms: performance.now() - started };
  }

  /** 4xx problem, or an ask/deny that says why; never an allow, never a 5xx, and fast. */
  function assertRefusedQuickly(r: { status: number; body: any; ms: number }, label: string, budgetMs = 3000): void {
    assert.ok(r.status < 500, `${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    if (r.status === 200) {
      assert.notEqual(r.body.decision, 'allow', `${label}: allowed`);
      assert.ok(typeof r.body.reason === 'string' && r.body.reason.length > 0, `${label}: no reason`);
    }
    assert.ok(r.ms < budgetMs, `${label}: took ${Math.round(r.ms)} ms`);
  }

  it('5000 nested $( … ) answers 4xx or a non-allow with a reason, quickly', async () => {
    const command = `${'echo $('.repeat(5000)}id${')'.repeat(5000)}`;
    const r = await decideTimed(command);
    assertRefusedQuickly(r, '5000 nested $(');
    console.log(
      `# 5000 nested $(: ${r.status} ${r.body.decision ?? ''} in ${Math.round(r.ms)} ms — ${r.body.reason ?? r.body.detail}`,
    );
  });

  it('other pathological shapes never crash or hang the analyzer', async () => {
    const shapes: [string, string][] = [
      ['5000 nested subshells', `${'('.repeat(5000)}ls${')'.repeat(5000)}`],
      ['5000 nested ${ }', `echo ${'${x:-'.repeat(5000)}y${'}'.repeat(5000)}`],
      ['arithmetic nesting', `echo $((${'('.repeat(3000)}1${')'.repeat(3000)}))`],
      ['30-way brace expansion (2^30 words)', `rm -rf ${'{a,b}'.repeat(30)}`],
      ['100 000 commands in a list', 'true;'.repeat(50_000)],
      ['an unterminated quote over 200 KB', `echo "${'a '.repeat(100_000)}`],
      ['a 200 KB here-doc fed to bash', `bash <<'EOF'\n${'echo hi\n'.repeat(25_000)}EOF`],
      ['deep bash -c nesting', `${"bash -c '".repeat(1)}${'bash -c \\"'.repeat(200)}ls`],
      ['20 000 pipes', 'cat x' + ' | cat'.repeat(20_000)],
    ];
    for (const [label, command] of shapes) {
      const r = await decideTimed(command);
      assert.ok(r.status < 500, `${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      assert.ok(r.ms < 5000, `${label}: took ${Math.round(r.ms)} ms`);
      console.log(`# ${label}: ${r.status} ${r.body.decision ?? ''} in ${Math.round(r.ms)} ms`);
    }
    assert.equal((await h.app.request('/healthz')).status, 200);
  });

  it('a 1 MB command is 413 at the default limit, and a refusal with a reason when the limit lets it through', async () => {
    const command = `echo ${'a'.repeat(1024 * 1024)}`;
    assert.equal((await decideTimed(command)).status, 413);
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-big-'));
    const config = join(dir, 'toolgate.json');
    writeFileSync(config, JSON.stringify({ body_limit: 4 * 1024 * 1024 }));
    const big = await startHarness({ flags: { config } });
    try {
      const r = await decideTimed(command, big);
      assertRefusedQuickly(r, '1 MB command with a 4 MiB body limit');
      console.log(
        `# 1 MB command (4 MiB body limit): ${r.status} ${r.body.decision ?? ''} in ${Math.round(r.ms)} ms — ${r.body.reason ?? r.body.detail}`,
      );
    } finally {
      await big.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
