// `toolgate mcp` usage errors: said before anything starts, exit code 2.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';

async function run(argv: string[]): Promise<{ code: number; err: string; out: string }> {
  let err = '';
  let out = '';
  // An empty data directory: no tokens.json of this machine's own sidecar is found.
  const code = await main(argv, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    env: { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-mcp-cmd-')) },
  });
  return { code, err, out };
}

describe('toolgate mcp usage', () => {
  for (const [argv, message] of [
    [['mcp', '--', 'server'], /--name is required/],
    [['mcp', '--name', 'bad name', '--', 'server'], /--name is required: letters, digits/],
    [['mcp', '--name', 'gh'], /name the upstream server/],
    [['mcp', '--name', 'gh', '--url', 'https://x.example/mcp', '--', 'server'], /either --url or a command/],
    [['mcp', '--name', 'gh', '--url', 'not a url'], /--url is not a URL/],
    [
      ['mcp', '--name', 'gh', '--header', 'no-colon', '--url', 'https://x.example/mcp'],
      /--header is not 'Name: value'/,
    ],
    [['mcp', '--name', 'gh', '--progress-interval', '20s', '--', 'server'], /at most 15s/],
    [['mcp', '--name', 'gh', '--max-hold', 'soon', '--', 'server'], /--max-hold is not a duration/],
    [['mcp', 'accept', '--name', 'gh', 'tool'], /needs the reviewer token/],
    [
      ['mcp', '--name', 'gh', '--print-config', 'cursor', '--', 'server'],
      /--print-config takes one of claude-code, codex, gemini/,
    ],
  ] as const) {
    it(`${argv.slice(1).join(' ')} → exit 2: ${message.source}`, async () => {
      const result = await run([...argv]);
      assert.equal(result.code, 2);
      assert.match(result.err, message);
    });
  }

  it('--help prints the usage, exit 0', async () => {
    const result = await run(['mcp', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.out, /toolgate mcp --name NAME/);
  });

  it("--print-config: each runtime's settings run `toolgate mcp --name NAME -- COMMAND…` with a raised tool timeout", async () => {
    const command = ['npx', '-y', '@modelcontextprotocol/server-github'];
    const expected = ['mcp', '--name', 'github', '--', ...command];
    const claude = await run(['mcp', '--print-config', 'claude-code', '--name', 'github', '--', ...command]);
    assert.equal(claude.code, 0);
    assert.match(
      claude.out,
      /^# claude mcp add github -- toolgate mcp --name github -- npx -y @modelcontextprotocol\/server-github\n/,
    );
    assert.deepEqual(JSON.parse(claude.out.slice(claude.out.indexOf('\n'))).mcpServers.github, {
      command: 'toolgate',
      args: expected,
    });
    const gemini = JSON.parse(
      (await run(['mcp', '--print-config', 'gemini', '--name', 'github', '--', ...command])).out,
    );
    assert.deepEqual(gemini.mcpServers.github, { command: 'toolgate', args: expected, timeout: 900_000 });
    const codex = (await run(['mcp', '--print-config', 'codex', '--name', 'github', '--', ...command])).out;
    assert.match(
      codex,
      /^\[mcp_servers\.github\]\ncommand = "toolgate"\nargs = \["mcp", "--name", "github", "--", "npx", "-y", "@modelcontextprotocol\/server-github"\]\n/,
    );
    assert.match(codex, /tool_timeout_sec = 900/);
  });
});
