// `toolgate integrations print`: the printed settings run the hook on this machine (absolute paths, quoting, the
// sidecar's URL and data directory), and the Claude Code http variant reaches the hook route.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { main } from '../../src/cli/main.ts';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';
import { BIN } from '../support/built-bin.ts';
import { runProcess, type ProcessRun } from '../support/run-process.ts';

const AGENT = 'integrations-agent-token-0123456789';
const REVIEWER = 'integrations-reviewer-token-0123456789';

/** Runs `toolgate …` in-process; returns the exit code and both streams. */
async function toolgate(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, {
    out: (t) => (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => (err += `${t}\n`),
    env,
  });
  return { code, out, err };
}

/** Runs a printed hook command line the way the runtimes do (/bin/sh -c, no node on PATH), with a hook input on stdin (async: the sidecar is in this process). */
function runCommandLine(command: string, input: unknown, env: NodeJS.ProcessEnv): Promise<ProcessRun> {
  return runProcess('/bin/sh', ['-c', command], { PATH: '/nonexistent', ...env }, JSON.stringify(input));
}

const claudeInput = (command: string) => ({
  session_id: 's',
  cwd: '/tmp',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_1',
});

describe('toolgate integrations print', () => {
  let server: RunningServer;
  let dataDir: string;
  before(async () => {
    // A data directory with a space, which the printed command must quote; its tokens.json holds the agent token.
    dataDir = join(mkdtempSync(join(tmpdir(), 'toolgate-integrations-')), 'data dir');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'tokens.json'), JSON.stringify({ agent: AGENT, reviewer: REVIEWER }), { mode: 0o600 });
    const config = loadConfig(
      { 'data-dir': dataDir, port: '0' },
      { TOOLGATE_AGENT_TOKEN: AGENT, TOOLGATE_REVIEWER_TOKEN: REVIEWER },
    );
    server = await startServer(config, { out: () => {}, err: () => {}, env: {} });
  });
  after(async () => {
    await server.close();
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('claude-code: a command hook with absolute paths that asks for rm -rf ./src and leaves git status to Claude Code', async () => {
    const printed = await toolgate([
      'integrations',
      'print',
      'claude-code',
      '--url',
      server.url,
      '--data-dir',
      dataDir,
    ]);
    assert.equal(printed.code, 0, printed.err);
    const hook = JSON.parse(printed.out).hooks.PreToolUse[0].hooks[0];
    assert.equal(hook.type, 'command');
    assert.ok(hook.command.includes(process.execPath) && hook.command.includes(BIN), hook.command);
    assert.ok(!/\bnpx\b/.test(hook.command));
    assert.match(printed.err, /paste into ~\/\.claude\/settings\.json/);
    // No token in the environment and no PATH to node: the command finds both itself.
    const ask = await runCommandLine(hook.command, claudeInput('rm -rf ./src'), { HOME: '/tmp' });
    assert.equal(ask.code, 0, ask.stderr);
    assert.equal(ask.json.hookSpecificOutput.permissionDecision, 'ask');
    const allow = await runCommandLine(hook.command, claudeInput('git status'), { HOME: '/tmp' });
    // No opinion on a harmless command: no permissionDecision, so Claude Code's own permission checks apply.
    assert.equal(allow.code, 0, allow.stderr);
    assert.equal(allow.json.hookSpecificOutput?.permissionDecision, undefined);
  });

  it('claude-code --http: the hook route with the token and home headers and "onFailure": "block"', async () => {
    const printed = await toolgate(['integrations', 'print', 'claude-code', '--http', '--url', server.url]);
    assert.equal(printed.code, 0, printed.err);
    const hook = JSON.parse(printed.out).hooks.PreToolUse[0].hooks[0];
    assert.equal(hook.type, 'http');
    assert.equal(hook.onFailure, 'block');
    assert.deepEqual(hook.allowedEnvVars, ['TOOLGATE_AGENT_TOKEN', 'HOME']);
    assert.match(printed.err, /2\.1\.295/);
    // What Claude Code sends: the headers with their variables filled in from its environment.
    const filled = Object.fromEntries(
      Object.entries(hook.headers as Record<string, string>).map(([k, v]) => [
        k,
        v.replace('$TOOLGATE_AGENT_TOKEN', AGENT).replace('$HOME', '/home/agent'),
      ]),
    );
    const response = await fetch(hook.url, {
      method: 'POST',
      headers: { ...filled, 'content-type': 'application/json' },
      body: JSON.stringify(claudeInput('rm -rf ./src')),
    });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as any).hookSpecificOutput.permissionDecision, 'ask');
  });

  it('codex: PreToolUse, PermissionRequest and PostToolUse command hooks that deny a protected path and pass git status, with the trust notice', async () => {
    const printed = await toolgate(['integrations', 'print', 'codex', '--url', server.url, '--data-dir', dataDir]);
    assert.equal(printed.code, 0, printed.err);
    assert.match(printed.out, /^\[\[hooks\.PreToolUse\]\]$/m);
    assert.match(printed.out, /^\[\[hooks\.PermissionRequest\]\]$/m);
    // PostToolUse records each tool's output (it never blocks).
    assert.match(printed.out, /^\[\[hooks\.PostToolUse\]\]$/m);
    const commands = [...printed.out.matchAll(/^command = (".*")$/gm)].map((m) => JSON.parse(m[1]!) as string);
    assert.equal(commands.length, 3);
    assert.match(printed.err, /\/hooks/);
    const input = (command: string) => ({
      session_id: 's',
      turn_id: 't',
      cwd: '/tmp',
      hook_event_name: 'PreToolUse',
      model: 'gpt-5',
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: 'call_1',
    });
    const deny = await runCommandLine(commands[0]!, input('cat ~/.aws/credentials'), { HOME: '/tmp' });
    assert.equal(deny.json.hookSpecificOutput.permissionDecision, 'deny', deny.stderr);
    const pass = await runCommandLine(commands[0]!, input('git status'), { HOME: '/tmp' });
    assert.deepEqual(pass.json, {});
  });

  it('gemini: a BeforeTool command hook (timeout in ms) with the folder-trust notice', async () => {
    const printed = await toolgate(['integrations', 'print', 'gemini', '--url', server.url, '--data-dir', dataDir]);
    assert.equal(printed.code, 0, printed.err);
    const hook = JSON.parse(printed.out).hooks.BeforeTool[0].hooks[0];
    assert.equal(hook.timeout, 60_000);
    assert.match(printed.err, /trusted folder/);
    const run = await runCommandLine(
      hook.command,
      {
        session_id: 's',
        cwd: '/tmp',
        hook_event_name: 'BeforeTool',
        tool_name: 'run_shell_command',
        tool_input: { command: 'rm -rf ./src' },
      },
      { HOME: '/tmp' },
    );
    assert.equal(run.json.decision, 'ask', run.stderr);
  });

  it('a printed command fails closed when the sidecar is down', async () => {
    const printed = await toolgate([
      'integrations',
      'print',
      'claude-code',
      '--url',
      'http://127.0.0.1:9',
      '--data-dir',
      dataDir,
    ]);
    const hook = JSON.parse(printed.out).hooks.PreToolUse[0].hooks[0];
    const run = await runCommandLine(hook.command, claudeInput('git status'), { HOME: '/tmp' });
    assert.equal(run.code, 2);
    assert.equal(run.json.hookSpecificOutput.permissionDecision, 'deny');
  });

  it('rejects an unknown runtime, a missing action and --http for Codex as usage errors', async () => {
    for (const args of [
      ['integrations', 'print', 'cursor'],
      ['integrations', 'claude-code'],
      ['integrations', 'print', 'codex', '--http'],
      ['integrations', 'print', 'gemini', '--url', 'ftp://x'],
    ]) {
      const run = await toolgate(args);
      assert.equal(run.code, 2, args.join(' '));
      assert.equal(run.out, '');
    }
  });
});
