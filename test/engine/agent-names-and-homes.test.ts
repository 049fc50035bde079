// Issue 22 in the engine: Gemini CLI's MCP spelling (mcp_<server>_<tool>) read as mcp__<server>__<tool>, rules in
// either spelling, and an agent's own home (an input of the call) protected besides the sidecar's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAliasIndex, mcpToolName } from '../../src/engine/catalog/tool-aliases.ts';
import { decide, type EngineContext } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import type { Rule } from '../../src/engine/rules/rule.ts';
import type { Effect } from '../../src/engine/types.ts';
import { sharedAnalyzer } from './shell-support.ts';

const HOME = '/home/tester';
const aliases = buildAliasIndex();

function rule(effect: Effect, pattern: string, position: number): Rule {
  return {
    id: `r${position}`,
    effect,
    pattern,
    risk: null,
    scope: 'global',
    expiresAt: null,
    note: null,
    createdBy: null,
    createdAt: '2026-01-01T00:00:00Z',
    position,
  };
}

describe('mcpToolName: Gemini CLI parses mcp_<server>_<tool> at the first underscore (its parseMcpToolName)', () => {
  const cases: [string, string][] = [
    ['mcp_desktop-commander_execute_command', 'mcp__desktop-commander__execute_command'],
    ['mcp_github_list_repos', 'mcp__github__list_repos'],
    ['mcp_my_server_read', 'mcp__my__server_read'], // ambiguous in Gemini's spelling: read as Gemini reads it
    ['mcp_github_*', 'mcp__github__*'],
    ['mcp_*', 'mcp__*'],
    ['mcp_*_list_repos', 'mcp__*__list_repos'],
    ['mcp__github__list_repos', 'mcp__github__list_repos'],
    ['run_shell_command', 'run_shell_command'],
    ['Bash', 'Bash'],
  ];
  for (const [name, canonical] of cases) it(`${name} → ${canonical}`, () => assert.equal(mcpToolName(name), canonical));
});

describe('Gemini MCP calls judged like the mcp__ spelling', async () => {
  const ctx: EngineContext = {
    operatorMode: 'default',
    askFallback: 'deny',
    home: HOME,
    aliases,
    analyzer: await sharedAnalyzer(),
  };
  const empty = compilePolicy([], aliases, HOME);
  const verdict = (tool: string, args: unknown, policy = empty) =>
    decide({ call: { tool, args, cwd: `${HOME}/w` } }, policy, ctx);

  it('reads an MCP shell tool in both spellings (and a server name with underscores) for its command', () => {
    for (const tool of [
      'mcp_desktop-commander_execute_command',
      'mcp__desktop-commander__execute_command',
      'mcp_my_shell_execute_command',
    ]) {
      const v = verdict(tool, { command: 'rm -rf ~' });
      assert.equal(v.decision, 'ask', tool);
      assert.equal(v.source, 'danger', tool);
      assert.equal(verdict(tool, { command: 'ls' }).decision, 'allow', `${tool}: a harmless command`);
    }
    assert.equal(
      verdict('mcp_desktop-commander_execute_command', { command: `cat ${HOME}/.ssh/id_rsa` }).decision,
      'deny',
    );
  });

  it('names the call mcp__<server>__<tool> in the verdict (the audit log and rules see one spelling)', () => {
    assert.equal(verdict('mcp_github_list_repos', {}).call.tool, 'mcp__github__list_repos');
  });

  it('matches rules written in either spelling against calls in either spelling', () => {
    const policy = compilePolicy(
      [
        rule('deny', 'mcp__github__delete_*', 1),
        rule('deny', 'mcp_gitlab_*', 2),
        rule('deny', 'mcp_jira_create_issue', 3),
      ],
      aliases,
      HOME,
    );
    for (const tool of [
      'mcp_github_delete_repo',
      'mcp__github__delete_repo',
      'mcp_gitlab_list',
      'mcp__gitlab__list',
      'mcp_jira_create_issue',
      'mcp__jira__create_issue',
    ]) {
      assert.equal(verdict(tool, {}, policy).decision, 'deny', tool);
    }
    for (const tool of ['mcp_github_list_repos', 'mcp__github__list_repos', 'mcp_jira_list_issues'])
      assert.equal(verdict(tool, {}, policy).decision, 'allow', tool);
  });
});

describe("the agent's home is protected when the call names it", async () => {
  const ctx: EngineContext = {
    operatorMode: 'default',
    askFallback: 'deny',
    home: HOME,
    aliases,
    analyzer: await sharedAnalyzer(),
  };
  const policy = compilePolicy([], aliases, HOME);
  const agentHome = '/var/lib/agents/ci';
  const verdict = (tool: string, args: unknown, home?: string) =>
    decide({ call: { tool, args, cwd: `${agentHome}/repo` }, ...(home ? { agentHome: home } : {}) }, policy, ctx);

  it('denies its credential places by file tools and by bash, naming the place', () => {
    for (const [tool, args] of [
      ['Read', { file_path: `${agentHome}/.ssh/id_rsa` }],
      ['Bash', { command: `cat ${agentHome}/.aws/credentials` }],
      ['Bash', { command: 'tar czf /tmp/k.tgz ../.ssh' }],
    ] as const) {
      const v = verdict(tool, args, agentHome);
      assert.equal(v.decision, 'deny', `${tool} ${JSON.stringify(args)}: ${v.reason}`);
      assert.equal(v.source, 'protected_path');
    }
  });

  it("leaves the same paths alone without it (nobody's home), and keeps the sidecar's home protected with it", () => {
    assert.equal(verdict('Read', { file_path: `${agentHome}/.ssh/id_rsa` }).decision, 'allow');
    assert.equal(verdict('Read', { file_path: `${HOME}/.ssh/id_rsa` }, agentHome).decision, 'deny');
    assert.equal(verdict('Read', { file_path: `${agentHome}/repo/src/app.ts` }, agentHome).decision, 'allow');
  });
});
