// The real MCP server behind the gateway: a command spoken to over stdio, or a Streamable HTTP endpoint.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** Where the upstream server is. */
export type UpstreamSpec =
  | { kind: 'stdio'; command: string; args: string[]; env: NodeJS.ProcessEnv; cwd?: string }
  | { kind: 'http'; url: URL; headers: Record<string, string> };

/** Variables the upstream never sees: the agent token is the gateway's, not the server's. */
const WITHHELD_ENV = /^TOOLGATE_/;

/** Starts (or reaches) the upstream server and runs the MCP handshake; the gateway's own name and version speak for it. */
export async function connectUpstream(
  spec: UpstreamSpec,
  clientInfo: { name: string; version: string },
): Promise<Client> {
  const client = new Client(clientInfo, { capabilities: {} });
  if (spec.kind === 'stdio') {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(spec.env))
      if (value !== undefined && !WITHHELD_ENV.test(key)) env[key] = value;
    await client.connect(
      new StdioClientTransport({
        command: spec.command,
        args: spec.args,
        env,
        stderr: 'inherit',
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
      }),
    );
  } else {
    await client.connect(new StreamableHTTPClientTransport(spec.url, { requestInit: { headers: spec.headers } }));
  }
  return client;
}
