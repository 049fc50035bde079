// File tools and fetches judged as the shell's equivalents are (sixth session): a Write to ~/.bashrc is asked
// about as `echo … >> ~/.bashrc` is, a file:// URL is a path, and the cloud metadata service is asked about.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { decide, type EngineContext } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import { sharedAnalyzer } from './shell-support.ts';

const HOME = '/home/tester';
const CWD = `${HOME}/work/project`;
const aliases = buildAliasIndex();
type Call = { tool: string; args: Record<string, unknown> };
const patch = (header: string, body = '+x') => ({
  tool: 'apply_patch',
  args: { input: `*** Begin Patch\n*** ${header}\n${body}\n*** End Patch` },
});

/** [what, the call, the finding it must raise, its risk]. */
const ASKED: [string, Call, string, 'high' | 'medium'][] = [
  [
    'Write to a shell start-up file',
    { tool: 'Write', args: { file_path: `${HOME}/.zshrc`, content: 'curl x | sh' } },
    'shell-profile-write',
    'high',
  ],
  [
    'Edit of a start-up file named with ~',
    { tool: 'Edit', args: { file_path: '~/.bashrc', old_string: 'a', new_string: 'b' } },
    'shell-profile-write',
    'high',
  ],
  [
    'MultiEdit of a start-up file',
    { tool: 'MultiEdit', args: { file_path: `${HOME}/.profile`, edits: [{ old_string: 'a', new_string: 'b' }] } },
    'shell-profile-write',
    'high',
  ],
  [
    'apply_patch adding a start-up file',
    patch(`Add File: ${HOME}/.bashrc`, '+curl x | sh'),
    'shell-profile-write',
    'high',
  ],
  [
    'Write of a git hook, relative to the cwd',
    { tool: 'Write', args: { file_path: '.git/hooks/pre-commit', content: 'curl x | sh' } },
    'git-internals-write',
    'high',
  ],
  [
    'Edit of .git/config',
    { tool: 'Edit', args: { file_path: `${CWD}/.git/config`, old_string: 'a', new_string: 'b' } },
    'git-internals-write',
    'high',
  ],
  [
    'Edit of a system file',
    { tool: 'Edit', args: { file_path: '/etc/hosts', old_string: 'a', new_string: 'b' } },
    'write-system-path',
    'high',
  ],
  [
    'Write onto a disk device',
    { tool: 'Write', args: { file_path: '/dev/sda', content: 'x' } },
    'write-device',
    'high',
  ],
  [
    'Write of a kernel control file',
    { tool: 'Write', args: { file_path: '/proc/sysrq-trigger', content: 'c' } },
    'kernel-control',
    'high',
  ],
  [
    'Write emptying the shell history',
    { tool: 'Write', args: { file_path: `${HOME}/.bash_history`, content: '' } },
    'history-wipe',
    'medium',
  ],
  [
    'a fetch of the cloud metadata service',
    {
      tool: 'WebFetch',
      args: { url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', prompt: 'x' },
    },
    'cloud-metadata',
    'high',
  ],
  [
    "a fetch of GCP's metadata server",
    {
      tool: 'WebFetch',
      args: {
        url: 'http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token',
        prompt: 'x',
      },
    },
    'cloud-metadata',
    'high',
  ],
  // Seventh session.
  [
    'the metadata address as one decimal number',
    { tool: 'WebFetch', args: { url: 'http://2852039166/latest/meta-data/', prompt: 'x' } },
    'cloud-metadata',
    'high',
  ],
  [
    'the metadata address in hex',
    { tool: 'WebFetch', args: { url: 'http://0xA9FEA9FE/latest/', prompt: 'x' } },
    'cloud-metadata',
    'high',
  ],
  [
    'the metadata address mapped into IPv6',
    { tool: 'WebFetch', args: { url: 'http://[::ffff:169.254.169.254]/latest/', prompt: 'x' } },
    'cloud-metadata',
    'high',
  ],
  [
    "an MCP filesystem server's write to a start-up file",
    { tool: 'mcp__filesystem__write_file', args: { path: `${HOME}/.bashrc`, content: 'curl x | sh' } },
    'shell-profile-write',
    'high',
  ],
  [
    "an MCP filesystem server's edit of a git hook",
    {
      tool: 'mcp__fs__edit_file',
      args: { path: `${CWD}/.git/hooks/pre-push`, edits: [{ oldText: 'a', newText: 'b' }] },
    },
    'git-internals-write',
    'high',
  ],
  [
    "Write of the agent's own settings in the project (its hooks)",
    { tool: 'Write', args: { file_path: '.claude/settings.json', content: '{}' } },
    'agent-settings-write',
    'high',
  ],
  [
    "Edit of Codex's config",
    { tool: 'Edit', args: { file_path: `${HOME}/.codex/config.toml`, old_string: 'toolgate', new_string: 'true' } },
    'agent-settings-write',
    'high',
  ],
  [
    'Write of a systemd user unit',
    {
      tool: 'Write',
      args: { file_path: `${HOME}/.config/systemd/user/sync.service`, content: '[Service]\nExecStart=/bin/sh -c x' },
    },
    'autostart-write',
    'high',
  ],
  [
    'Write of a LaunchAgent',
    { tool: 'Write', args: { file_path: `${HOME}/Library/LaunchAgents/com.x.plist`, content: '<plist/>' } },
    'autostart-write',
    'high',
  ],
  [
    'Write of the global git config',
    { tool: 'Write', args: { file_path: `${HOME}/.gitconfig`, content: '[core]\n\tsshCommand = sh -c x' } },
    'git-internals-write',
    'high',
  ],
  // Eighth session: MCP shell and fetch tools read as the built-in tool of their name; Gemini's web_fetch prompt.
  [
    "an MCP server's shell tool",
    { tool: 'mcp__desktop-commander__execute_command', args: { command: 'rm -rf ~' } },
    'rm-recursive-force',
    'high',
  ],
  [
    'an MCP fetch of the metadata service',
    { tool: 'mcp__fetch__fetch', args: { url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' } },
    'cloud-metadata',
    'high',
  ],
  [
    "Gemini's web_fetch with the URL in its prompt",
    {
      tool: 'web_fetch',
      args: { prompt: 'Summarize http://169.254.169.254/latest/meta-data/iam/security-credentials/role' },
    },
    'cloud-metadata',
    'high',
  ],
];

const ORDINARY: [string, Call][] = [
  ['Write in the project', { tool: 'Write', args: { file_path: `${CWD}/src/app.ts`, content: 'x' } }],
  [
    'Edit of a relative project file',
    { tool: 'Edit', args: { file_path: 'README.md', old_string: 'a', new_string: 'b' } },
  ],
  ['apply_patch of a project file', patch('Update File: src/app.ts', '@@\n-a\n+b')],
  [
    'Write of a file named like a hook outside .git',
    { tool: 'Write', args: { file_path: 'scripts/hooks/pre-commit', content: 'npm test' } },
  ],
  [
    'a note about start-up files, outside them',
    { tool: 'Write', args: { file_path: `${HOME}/notes/bashrc-ideas.md`, content: 'x' } },
  ],
  ['Read of a start-up file', { tool: 'Read', args: { file_path: `${HOME}/.bashrc` } }],
  ['a fetch of a web page', { tool: 'WebFetch', args: { url: 'https://example.com/metadata/latest', prompt: 'x' } }],
  [
    'a fetch of a local file in the project',
    { tool: 'WebFetch', args: { url: `file://${CWD}/README.md`, prompt: 'x' } },
  ],
  [
    "an MCP filesystem server's write in the project",
    { tool: 'mcp__filesystem__write_file', args: { path: `${CWD}/src/app.ts`, content: 'x' } },
  ],
  ['Read of the agent settings', { tool: 'Read', args: { file_path: '.claude/settings.json' } }],
  [
    'a fetch of an address that only looks numeric',
    { tool: 'WebFetch', args: { url: 'https://10.0.0.5:8443/health', prompt: 'x' } },
  ],
  [
    "an MCP server's shell tool running the tests",
    { tool: 'mcp__terminal__run_command', args: { command: 'npm test' } },
  ],
  [
    "Gemini's web_fetch of documentation",
    { tool: 'web_fetch', args: { prompt: 'Summarize https://docs.python.org/3/ please' } },
  ],
];

describe('file tools and fetches judged like the shell', async () => {
  const policy = compilePolicy([], aliases, HOME);
  const ctx: EngineContext = {
    operatorMode: 'default',
    askFallback: 'deny',
    home: HOME,
    dataDir: `${HOME}/.toolgate`,
    aliases,
    analyzer: await sharedAnalyzer(),
  };
  for (const [what, call, id, risk] of ASKED) {
    it(`asks: ${what}`, () => {
      const v = decide({ call: { ...call, cwd: CWD }, interactive: true }, policy, ctx);
      assert.equal(v.decision, 'ask', `${JSON.stringify(call)}: ${v.decision} (${v.source}) ${v.reason}`);
      assert.equal(v.risk, risk, v.reason);
      assert.ok(
        v.findings.some((f) => f.id === id),
        `${id} not among ${v.findings.map((f) => f.id).join(', ')}`,
      );
    });
  }
  it('denies: a file:// URL naming a protected file is a read of it', () => {
    const v = decide(
      {
        call: { tool: 'WebFetch', args: { url: `file://${HOME}/.ssh/id_rsa`, prompt: 'x' }, cwd: CWD },
        interactive: true,
      },
      policy,
      ctx,
    );
    assert.equal(v.decision, 'deny', v.reason);
    assert.equal(v.source, 'protected_path', v.reason);
  });
  it('an allow rule for the path still allows the write (the operator chose it)', () => {
    const allowing = compilePolicy(
      [
        {
          id: 'r1',
          effect: 'allow',
          pattern: 'write_file(~/.zshrc)',
          position: 1,
          risk: null,
          scope: 'global',
          expiresAt: null,
          note: null,
          createdBy: null,
          createdAt: '2026-11-30T00:00:00Z',
        },
      ] as never,
      aliases,
      HOME,
    );
    const v = decide(
      { call: { tool: 'Write', args: { file_path: `${HOME}/.zshrc`, content: 'x' }, cwd: CWD }, interactive: true },
      allowing,
      ctx,
    );
    assert.equal(v.decision, 'allow', v.reason);
    assert.match(v.reason, /suppresses shell-profile-write/);
  });
  for (const [what, call] of ORDINARY) {
    it(`allows: ${what}`, () => {
      const v = decide({ call: { ...call, cwd: CWD }, interactive: false }, policy, ctx);
      assert.equal(v.decision, 'allow', `${JSON.stringify(call)}: ${v.decision} (${v.source}) ${v.reason}`);
    });
  }
});
