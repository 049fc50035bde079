// `toolgate hook …` as a real process: each runtime's output against a real server, and fail-closed when the sidecar is down.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';
import { BIN } from '../support/built-bin.ts';
import { runProcess, type ProcessRun } from '../support/run-process.ts';

const AGENT = 'hook-cli-agent-token-0123456789';
const REVIEWER = 'hook-cli-reviewer-token-0123456789';

function runHook(
  runtime: string,
  input: string,
  env: Record<string, string>,
  extra: string[] = [],
  nodeFlags: string[] = [],
): Promise<ProcessRun> {
  return runProcess(
    process.execPath,
    [...nodeFlags, BIN, 'hook', runtime, ...extra],
    { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    input,
  );
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const claudeInput = (tool: string, toolInput: unknown) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '/tmp/t.jsonl',
    cwd: process.cwd(),
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: 'toolu_1',
  });
const codexInput = (command: string) =>
  JSON.stringify({
    session_id: 's',
    turn_id: 't',
    cwd: process.cwd(),
    hook_event_name: 'PreToolUse',
    model: 'gpt-5',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'call_1',
  });
const geminiInput = (command: string) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '/tmp/t.json',
    cwd: process.cwd(),
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: { command },
  });

describe('toolgate hook, sidecar down: never allows', () => {
  let env: Record<string, string>;
  before(async () => {
    env = { TOOLGATE_URL: `http://127.0.0.1:${await closedPort()}`, TOOLGATE_AGENT_TOKEN: AGENT };
  });

  for (const [runtime, input, isDeny] of [
    [
      'claude-code',
      claudeInput('Bash', { command: 'git status' }),
      (j: any) => j.hookSpecificOutput.permissionDecision === 'deny',
    ],
    [
      'codex',
      codexInput('git status'),
      (j: any) =>
        j.hookSpecificOutput.permissionDecision === 'deny' && j.hookSpecificOutput.permissionDecisionReason.length > 0,
    ],
    ['gemini', geminiInput('git status'), (j: any) => j.decision === 'deny'],
  ] as const) {
    it(`${runtime}: blocks git status with exit 2, a deny in its format, and the reason on stderr`, async () => {
      const run = await runHook(runtime, input, env);
      assert.equal(run.code, 2, run.stderr);
      assert.ok(isDeny(run.json), run.stdout);
      assert.match(run.stderr, /blocked: cannot reach toolgate at http:\/\/127\.0\.0\.1:\d+/);
    });
  }

  it('blocks when standard input is not JSON', async () => {
    const run = await runHook('claude-code', 'not json', env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /not JSON/);
  });

  it('blocks when no agent token is configured', async () => {
    const run = await runHook('gemini', geminiInput('ls'), {
      TOOLGATE_URL: env.TOOLGATE_URL!,
      HOME: mkdtempSync(join(tmpdir(), 'toolgate-nohome-')),
    });
    assert.equal(run.code, 2);
    assert.equal(run.json.decision, 'deny');
    assert.match(run.stderr, /no agent token/);
  });
});

describe('toolgate hook against a running sidecar', () => {
  let server: RunningServer;
  let dataDir: string;
  let env: Record<string, string>;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-hook-cli-'));
    const config = loadConfig(
      { 'data-dir': dataDir, port: '0', 'hook-hold': '1s' },
      { TOOLGATE_AGENT_TOKEN: AGENT, TOOLGATE_REVIEWER_TOKEN: REVIEWER },
    );
    server = await startServer(config, { out: () => {}, err: () => {}, env: {} });
    env = { TOOLGATE_URL: server.url, TOOLGATE_AGENT_TOKEN: AGENT };
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('claude-code: ask for rm -rf ./src, deny for Read ~/.ssh/id_rsa, allow for git status (exit 0 each)', async () => {
    const [ask, deny, allow] = await Promise.all([
      runHook('claude-code', claudeInput('Bash', { command: 'rm -rf ./src' }), env),
      runHook('claude-code', claudeInput('Read', { file_path: '~/.ssh/id_rsa' }), env),
      runHook('claude-code', claudeInput('Bash', { command: 'git status' }), env),
    ]);
    for (const run of [ask, deny, allow]) assert.equal(run.code, 0, run.stderr);
    assert.equal(ask.json.hookSpecificOutput.permissionDecision, 'ask');
    assert.equal(deny.json.hookSpecificOutput.permissionDecision, 'deny');
    // git status is allowed by default (no rule): toolgate has no opinion, so the answer leaves it to Claude Code
    // (no permissionDecision, issue 22) instead of switching Claude Code's own checks off with an allow.
    assert.equal(allow.json.hookSpecificOutput?.permissionDecision, undefined);
  });

  it('codex: {} for git status, deny with a reason for a protected path', async () => {
    const allow = await runHook('codex', codexInput('git status'), env);
    assert.equal(allow.code, 0);
    assert.deepEqual(allow.json, {});
    const deny = await runHook('codex', codexInput('cat ~/.aws/credentials'), env);
    assert.equal(deny.code, 0);
    assert.equal(deny.json.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(deny.json.hookSpecificOutput.permissionDecisionReason, /\.aws/);
  });

  it('gemini: {decision, reason}', async () => {
    const run = await runHook('gemini', geminiInput('rm -rf ./src'), env);
    assert.equal(run.code, 0);
    assert.equal(run.json.decision, 'ask');
    assert.ok(run.json.reason.length > 0);
  });

  it('blocks when the sidecar rejects the token', async () => {
    const run = await runHook('claude-code', claudeInput('Bash', { command: 'git status' }), {
      ...env,
      TOOLGATE_AGENT_TOKEN: 'wrong-token-wrong-token',
    });
    assert.equal(run.code, 2);
    assert.equal(run.json.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(run.stderr, /401/);
  });

  it('rejects an unknown runtime as a usage error', async () => {
    const run = await runHook('cursor', '{}', env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /claude-code, codex, gemini/);
  });
});

describe('toolgate hook: what it sends and what it loads', () => {
  /** A stand-in sidecar that records the request and answers an allow in Claude Code's format. */
  async function recordingSidecar(): Promise<{
    url: string;
    requests: { url?: string; headers: IncomingHttpHeaders; body: string }[];
    close: () => Promise<void>;
  }> {
    const requests: { url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        requests.push({ url: req.url, headers: req.headers, body });
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'allow',
              permissionDecisionReason: 'recorded',
            },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    return { url, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  it("sends the agent's home as X-Toolgate-Agent-Home, with the token and the input unchanged", async () => {
    const sidecar = await recordingSidecar();
    try {
      const input = claudeInput('Bash', { command: 'cat ~/.ssh/id_rsa' });
      const run = await runHook('claude-code', input, {
        TOOLGATE_URL: sidecar.url,
        TOOLGATE_AGENT_TOKEN: AGENT,
        HOME: '/home/agent-one',
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.json.hookSpecificOutput.permissionDecisionReason, 'recorded');
      const [request] = sidecar.requests;
      assert.equal(request?.url, '/v1/hooks/claude-code');
      assert.equal(request?.headers['x-toolgate-agent-home'], '/home/agent-one');
      assert.equal(request?.headers.authorization, `Bearer ${AGENT}`);
      assert.deepEqual(JSON.parse(request!.body), JSON.parse(input));
    } finally {
      await sidecar.close();
    }
  });

  it('sends no agent home when HOME cannot go in a header (the sidecar then uses its own)', async () => {
    const sidecar = await recordingSidecar();
    try {
      const run = await runHook('claude-code', claudeInput('Bash', { command: 'ls' }), {
        TOOLGATE_URL: sidecar.url,
        TOOLGATE_AGENT_TOKEN: AGENT,
        HOME: '/home/zoë',
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(sidecar.requests[0]?.headers['x-toolgate-agent-home'], undefined);
    } finally {
      await sidecar.close();
    }
  });

  it('blocks when the sidecar takes longer than --timeout, and answers in time otherwise', async () => {
    const held: import('node:http').ServerResponse[] = [];
    const silent = createHttpServer((_req, res) => held.push(res));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const started = Date.now();
      const run = await runHook('gemini', geminiInput('ls'), { TOOLGATE_URL: url, TOOLGATE_AGENT_TOKEN: AGENT }, [
        '--timeout',
        '300ms',
      ]);
      assert.equal(run.code, 2);
      assert.equal(run.json.decision, 'deny');
      assert.match(run.stderr, /no answer within 0\.3s/);
      assert.ok(Date.now() - started < 20_000);
    } finally {
      for (const res of held) res.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
    // The control: a sidecar that answers is not cut off by the same timeout.
    const sidecar = await recordingSidecar();
    try {
      const run = await runHook(
        'claude-code',
        claudeInput('Bash', { command: 'ls' }),
        { TOOLGATE_URL: sidecar.url, TOOLGATE_AGENT_TOKEN: AGENT },
        ['--timeout', '5s'],
      );
      assert.equal(run.code, 0, run.stderr);
    } finally {
      await sidecar.close();
    }
  });

  it('loads no engine, store, HTTP app, zod, SQLite, tree-sitter or fetch: it runs before every tool call', async () => {
    const sidecar = await recordingSidecar();
    try {
      const trace = new URL('../support/trace-loads.mjs', import.meta.url).href;
      const run = await runHook(
        'claude-code',
        claudeInput('Bash', { command: 'ls' }),
        { TOOLGATE_URL: sidecar.url, TOOLGATE_AGENT_TOKEN: AGENT },
        [],
        ['--import', trace],
      );
      assert.equal(run.code, 0, run.stderr);
      const loaded = run.stderr
        .split('\n')
        .filter((line) => line.startsWith('LOADED '))
        .map((line) => line.slice('LOADED '.length));
      // The hook is one bundled file: nothing else of toolgate is loaded at run time …
      assert.ok(
        loaded.some((url) => url.endsWith('/dist/cli/hook.cjs')),
        `the trace saw the hook load:\n${loaded.join('\n')}`,
      );
      const heavy = loaded.filter(
        (url) =>
          (/\/dist\//.test(url) && !url.endsWith('/dist/cli/hook.cjs')) ||
          /\/node_modules\/|^node:internal\/deps\/undici/.test(url),
      );
      assert.deepEqual(heavy, []);
      // … and what went into the bundle (esbuild's metafile) holds no engine, store, HTTP app, config/zod or package.
      const meta = JSON.parse(readFileSync(join(BIN, '../../dist/cli/hook.meta.json'), 'utf8')) as {
        inputs: Record<string, unknown>;
      };
      const inputs = Object.keys(meta.inputs);
      assert.ok(
        inputs.some((i) => i.endsWith('dist/cli/hook.js')),
        inputs.join('\n'),
      );
      assert.deepEqual(
        inputs.filter((i) => /dist\/(engine|store|http)\/|dist\/config\.js$|node_modules\//.test(i)),
        [],
      );
      // The control: `check` runs the engine, and the same trace sees it.
      const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-trace-'));
      const check = spawnSync(process.execPath, ['--import', trace, BIN, 'check', 'ls'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TOOLGATE_DATA_DIR: dataDir },
      });
      rmSync(dataDir, { recursive: true, force: true });
      assert.equal(check.status, 0, check.stderr);
      assert.match(check.stderr, /LOADED \S+\/dist\/engine\/decide\.js/);
      assert.match(check.stderr, /LOADED \S+\/node_modules\/zod\//);
    } finally {
      await sidecar.close();
    }
  });
});
