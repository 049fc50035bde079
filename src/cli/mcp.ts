// toolgate mcp: an MCP gateway in front of one MCP server (every tools/call decided by the running sidecar), and `toolgate mcp accept` for pinned tools.
import { randomUUID } from 'node:crypto';
import { createToolgateClient } from '../client/index.ts';
import { parseDuration } from '../config.ts';
import { parseFlags, UsageError, type Command } from './command.ts';
import { MCP_RUNTIMES, mcpSnippet, type McpRuntime } from './mcp-snippets.ts';
import { agentToken, NO_REVIEWER_TOKEN, reviewerToken, sidecarUrl } from './remote.ts';

const HELP = `Usage: toolgate mcp --name NAME [options] -- COMMAND [ARGS…]
       toolgate mcp --name NAME --url URL [--header 'Name: value']… [options]
       toolgate mcp accept --name NAME TOOL
       toolgate mcp --print-config claude-code|codex|gemini --name NAME (-- COMMAND… | --url URL)

An MCP server (stdio) that stands in front of another one: tools/list, resources, prompts and notifications pass
through unchanged; every tools/call is decided by the running toolgate sidecar (TOOLGATE_URL, agent token) as
mcp__NAME__TOOL. Denied calls return an isError result and never reach the server; asked ones are held while a
reviewer answers (progress every --progress-interval when the client sent a progress token; otherwise at most
--max-hold, then "call again with the same arguments", and the same call joins the same approval). When the
sidecar is down, every tools/call is refused.

Options:
  --name NAME              the server's name in policy (mcp__NAME__*) and the audit log (required)
  --url URL                the upstream server over Streamable HTTP (instead of a command after --)
  --header 'Name: value'   an HTTP header for --url (repeatable)
  --pin                    refuse a tool whose definition changed until a reviewer accepts it (toolgate mcp accept)
  --max-hold DUR           how long to hold a call without a progress token (default 50s)
  --progress-interval DUR  time between "waiting for a reviewer" notices (default 10s, at most 15s)
  --agent-id ID            the agent id decisions are recorded under (default mcp:NAME)
  --toolgate-url URL       the sidecar (default TOOLGATE_URL, else http://127.0.0.1:7411)
  --print-config RUNTIME   print the MCP settings that put this gateway in front of the server, and exit
  -h, --help               this help

accept: a reviewer (TOOLGATE_REVIEWER_TOKEN) accepts the changed definition of TOOL of server NAME.`;

const NAME = /^[A-Za-z0-9_-]{1,100}$/;

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'MCP gateway: put toolgate in front of an MCP server (stdio or Streamable HTTP)',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      name: { type: 'string' },
      url: { type: 'string' },
      header: { type: 'string', multiple: true },
      pin: { type: 'boolean' },
      'max-hold': { type: 'string' },
      'progress-interval': { type: 'string' },
      'agent-id': { type: 'string' },
      'toolgate-url': { type: 'string' },
      'print-config': { type: 'string' },
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const name = values.name;
    if (!name || !NAME.test(name))
      throw new UsageError('--name is required: letters, digits, _ and - (it becomes mcp__NAME__TOOL)');
    const base = sidecarUrl(values['toolgate-url'], io.env);
    const dashDash = argv.indexOf('--');
    if (positionals[0] === 'accept' && (dashDash === -1 || argv.indexOf('accept') < dashDash)) {
      if (positionals.length !== 2) throw new UsageError('accept takes one tool name');
      const token = await reviewerToken(io);
      if (!token) throw new UsageError(`mcp accept ${NO_REVIEWER_TOKEN}`);
      const accepted = await createToolgateClient({ baseUrl: base, token }).acceptMcpTool(name, positionals[1]!);
      io.out(`accepted mcp__${name}__${accepted.tool} (${accepted.hash.slice(0, 12)})`);
      return 0;
    }
    const maxHoldMs = durationFlag(values['max-hold'], 50_000, '--max-hold');
    const progressIntervalMs = durationFlag(values['progress-interval'], 10_000, '--progress-interval');
    if (progressIntervalMs > 15_000)
      throw new UsageError('--progress-interval must be at most 15s (clients give up after 60s without news)');
    const headers: Record<string, string> = {};
    for (const header of values.header ?? []) {
      const at = header.indexOf(':');
      if (at <= 0) throw new UsageError(`--header is not 'Name: value': ${header}`);
      headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
    }
    const command = dashDash === -1 ? [] : argv.slice(dashDash + 1);
    if (values.url && command.length > 0) throw new UsageError('give either --url or a command after --, not both');
    if (!values.url && command.length === 0)
      throw new UsageError('name the upstream server: a command after --, or --url');
    if (values['print-config'] !== undefined) {
      const runtime = values['print-config'] as McpRuntime;
      if (!MCP_RUNTIMES.includes(runtime))
        throw new UsageError(`--print-config takes one of ${MCP_RUNTIMES.join(', ')}`);
      io.out(mcpSnippet(runtime, { name, command, url: values.url, headers: values.header }));
      return 0;
    }
    let url: URL | undefined;
    if (values.url) {
      try {
        url = new URL(values.url);
      } catch {
        throw new UsageError(`--url is not a URL: ${values.url}`);
      }
    }
    // Loaded only here: `toolgate mcp --help` and the other commands need none of the SDK.
    const { runGateway } = await import('../mcp/run.ts');
    return runGateway({
      name,
      upstream: url
        ? { kind: 'http', url, headers }
        : { kind: 'stdio', command: command[0]!, args: command.slice(1), env: io.env },
      pin: values.pin === true,
      maxHoldMs,
      progressIntervalMs,
      agentId: values['agent-id'] ?? `mcp:${name}`,
      sessionId: randomUUID(),
      base,
      token: agentToken(io.env),
      log: (line) => io.err(`toolgate mcp ${name}: ${line}`),
    });
  },
};

function durationFlag(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) throw new UsageError(`${flag} is not a duration: ${text} (use e.g. 50s, 2m)`);
  return ms;
}
