// How to put `toolgate mcp` in front of a server in each runtime's MCP settings: the snippet to paste, as text.

/** The runtimes whose MCP settings toolgate can print. */
export const MCP_RUNTIMES = ['claude-code', 'codex', 'gemini'] as const;
export type McpRuntime = (typeof MCP_RUNTIMES)[number];

/** The server to wrap: its name and the command that starts it (or its URL and headers). */
export interface WrappedServer {
  name: string;
  command?: string[];
  url?: string;
  headers?: string[];
}

/** `toolgate mcp …` arguments that stand in for the server. */
export function gatewayArgs(server: WrappedServer): string[] {
  if (server.url)
    return [
      'mcp',
      '--name',
      server.name,
      '--url',
      server.url,
      ...(server.headers ?? []).flatMap((h) => ['--header', h]),
    ];
  return ['mcp', '--name', server.name, '--', ...(server.command ?? [])];
}

/**
 * The settings snippet for a runtime: Claude Code's `.mcp.json` entry (and its `claude mcp add` line), Codex's
 * `config.toml` table, Gemini CLI's `settings.json` entry. Timeouts are raised so a call held for a reviewer is
 * not abandoned by the runtime (Claude Code's idle timeout is reset by the gateway's progress notifications).
 */
export function mcpSnippet(runtime: McpRuntime, server: WrappedServer): string {
  const args = gatewayArgs(server);
  switch (runtime) {
    case 'claude-code':
      return [
        `# claude mcp add ${server.name} -- toolgate ${args.map(shellWord).join(' ')}`,
        JSON.stringify({ mcpServers: { [server.name]: { command: 'toolgate', args } } }, null, 2),
      ].join('\n');
    case 'codex':
      return [
        `[mcp_servers.${tomlKey(server.name)}]`,
        `command = "toolgate"`,
        `args = [${args.map(tomlString).join(', ')}]`,
        'startup_timeout_sec = 30',
        'tool_timeout_sec = 900',
      ].join('\n');
    case 'gemini':
      return JSON.stringify(
        { mcpServers: { [server.name]: { command: 'toolgate', args, timeout: 900_000 } } },
        null,
        2,
      );
  }
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function tomlString(text: string): string {
  return JSON.stringify(text); // a JSON string is a valid TOML basic string for the characters a command line holds
}

function tomlKey(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : tomlString(name);
}
