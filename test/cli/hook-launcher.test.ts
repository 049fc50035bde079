// bin/toolgate.js when the hook cannot run (no build, a build that does not load): the call is blocked (exit 2, the
// reason on standard error), never let through — Claude Code runs a tool on a hook's exit 1.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCommand } from '../../src/cli/command.ts';
import { hookCommand } from '../../src/cli/hook.ts';
import { ROOT } from '../support/built-bin.ts';
import { runProcess } from '../support/run-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-launcher-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const input = JSON.stringify({
  session_id: 's',
  cwd: '/tmp',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf ~/' },
  tool_use_id: 'toolu_1',
});

/** A checkout with bin/ only, and `hook` as dist/cli/hook.cjs when given. */
function checkout(name: string, hook?: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'bin'), { recursive: true });
  for (const file of ['toolgate.js', 'package.json']) copyFileSync(join(ROOT, 'bin', file), join(root, 'bin', file));
  if (hook !== undefined) {
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(root, 'dist', 'cli', 'hook.cjs'), hook);
  }
  return join(root, 'bin', 'toolgate.js');
}

const run = (bin: string, args: string[]) =>
  runProcess(process.execPath, [bin, ...args], { PATH: process.env.PATH ?? '', HOME: dir }, input);

describe('the launcher when the hook cannot run', () => {
  it('blocks the call when dist/ is missing', async () => {
    const r = await run(checkout('no-build'), ['hook', 'claude-code']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /toolgate hook: blocked: dist\/ is missing: run `npm run build`/);
  });

  it('blocks the call when the hook bundle throws as it loads', async () => {
    const r = await run(checkout('broken-build', "throw new Error('half-written bundle');\n"), ['hook', 'codex']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /toolgate hook: blocked: its build does not load: half-written bundle/);
  });

  it('blocks the call when the bundle fails later, outside any handler', async () => {
    const hook = `require(${JSON.stringify(join(ROOT, 'dist', 'cli', 'hook.cjs'))});`;
    // The real bundle, its process made to throw from a timer once it has started (as a bug in a callback would).
    const r = await runProcess(
      process.execPath,
      [
        '-e',
        `setTimeout(() => { throw new Error('late failure'); }, 0); ${hook}`,
        '--',
        'bin/toolgate.js', // where process.argv has the script's path
        'hook',
        'gemini',
        '--url',
        'http://127.0.0.1:9',
      ],
      { PATH: process.env.PATH ?? '', HOME: dir },
      input,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /toolgate hook: blocked: late failure/);
  });

  it('controls: a bundle that runs answers with its own exit; another command without dist/ exits 1', async () => {
    const ok = await run(checkout('good-build', "process.stdout.write('{}');\n"), ['hook', 'claude-code']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, '{}');
    const other = await run(checkout('no-build-cli'), ['--version']);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /^toolgate: dist\/ is missing/);
  });

  it("blocks the call, in the runtime's format, when a step of the hook fails in a way none of them foresaw", async () => {
    const out: string[] = [];
    const err: string[] = [];
    // The environment cannot be read (any unforeseen throw inside the hook's steps stands for the others).
    const env = new Proxy({} as NodeJS.ProcessEnv, {
      get: (_, name) => {
        if (name === 'TOOLGATE_AGENT_TOKEN') throw new Error('environment unreadable');
        return undefined;
      },
    });
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env, stdin: async () => input };
    const code = await runCommand(async () => hookCommand, ['claude-code'], io, 'hook');
    assert.equal(code, 2, err.join('\n'));
    const answer = JSON.parse(out.join('')) as { hookSpecificOutput: Record<string, string> };
    assert.equal(answer.hookSpecificOutput.hookEventName, 'PreToolUse');
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(answer.hookSpecificOutput.permissionDecisionReason!, /environment unreadable/);
    assert.match(err.join('\n'), /toolgate hook claude-code: blocked: the hook failed: environment unreadable/);
  });
});
