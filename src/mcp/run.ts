// Runs a gateway process: connects the upstream, serves the agent on stdio, ends when the agent goes away.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createToolgateClient } from '../client/index.ts';
import { createGateway } from './gateway.ts';
import { connectUpstream, type UpstreamSpec } from './upstream.ts';

/** What `toolgate mcp` parsed from its command line. */
export interface GatewayRun {
  name: string;
  upstream: UpstreamSpec;
  pin: boolean;
  maxHoldMs: number;
  progressIntervalMs: number;
  agentId: string;
  sessionId: string;
  /** The sidecar's base URL. */
  base: string;
  /** The agent token; without one every call is refused (fail closed), but the server still starts. */
  token: string | undefined;
  log: (line: string) => void;
}

/** Serves until the agent closes standard input; returns the exit code. */
export async function runGateway(run: GatewayRun): Promise<number> {
  if (!run.token)
    run.log('no agent token (TOOLGATE_AGENT_TOKEN or ~/.toolgate/tokens.json): every tools/call will be refused');
  let upstream;
  try {
    upstream = await connectUpstream(run.upstream, { name: 'toolgate-mcp', version: '0.1.0' });
  } catch (error) {
    run.log(`cannot start the upstream server: ${(error as Error).message}`);
    return 1;
  }
  const gateway = createGateway({
    upstream,
    sidecar: createToolgateClient({ baseUrl: run.base, token: run.token ?? '' }),
    server: run.name,
    reviewUrl: (id) => `${run.base}/review#approval-${id}`,
    agentId: run.agentId,
    sessionId: run.sessionId,
    cwd: process.cwd(),
    maxHoldMs: run.maxHoldMs,
    progressIntervalMs: run.progressIntervalMs,
    pin: run.pin,
    log: run.log,
  });
  const closed = new Promise<void>((resolve) => {
    gateway.server.onclose = () => resolve();
    upstream.onclose = () => {
      run.log('the upstream server closed the connection');
      resolve();
    };
  });
  await gateway.server.connect(new StdioServerTransport());
  process.stdin.once('end', () => void gateway.server.close());
  await closed;
  upstream.onclose = undefined; // closing it now is ours, not news
  await gateway.close();
  return 0;
}
