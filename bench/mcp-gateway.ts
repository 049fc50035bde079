// Benchmark 6: the MCP gateway's added latency. 1,000 allowed tools/call through `toolgate mcp` (a real sidecar
// deciding each, the result recorded) against the same calls straight to the same stub upstream server.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_TOKEN, removeDir, ROOT, startToolgate } from './lib/processes.ts';
import { atMost, info, type BenchOptions, type BenchResult } from './lib/result.ts';
import { percentile, round3 } from './lib/stats.ts';

const BENCH = 'mcp';
const STUB = join(ROOT, 'test/mcp/support/stub-upstream.ts');

async function connect(args: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'toolgate-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stderr: 'ignore', cwd: ROOT }));
  return client;
}

/** Milliseconds of each of `n` sequential echo calls (distinct texts: no cache serves a repeat). */
async function timeCalls(client: Client, n: number, label: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const result = await client.request({ method: 'tools/call', params: { name: 'echo', arguments: { text: `${label} ${i % 50}` } } });
    times.push(performance.now() - started);
    if ((result as { isError?: boolean }).isError) throw new Error(`call ${i} was refused: ${JSON.stringify(result)}`);
  }
  return times;
}

export async function benchMcpGateway(options: BenchOptions): Promise<BenchResult> {
  const calls = options.quick ? 50 : 1_000;
  const warmup = options.quick ? 10 : 200;
  const server = await startToolgate();
  const callsDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-mcp-'));
  const env = { STUB_CALLS: join(callsDir, 'calls.jsonl') };
  let direct: Client | undefined;
  let gateway: Client | undefined;
  try {
    direct = await connect(['--import', 'tsx', STUB], env);
    gateway = await connect(['bin/toolgate.js', 'mcp', '--name', 'bench', '--', process.execPath, '--import', 'tsx', STUB], { ...env, TOOLGATE_URL: server.url, TOOLGATE_AGENT_TOKEN: AGENT_TOKEN });
    await timeCalls(direct, warmup, 'warm');
    await timeCalls(gateway, warmup, 'warm');
    // Alternating halves, so a slow moment of the shared machine falls on both sides.
    const straight: number[] = [];
    const through: number[] = [];
    for (let half = 0; half < 2; half++) {
      straight.push(...(await timeCalls(direct, calls / 2, 'direct')));
      through.push(...(await timeCalls(gateway, calls / 2, 'gateway')));
    }
    const p = (values: number[], q: number) => round3(percentile(values, q));
    const added50 = round3(p(through, 50) - p(straight, 50));
    const added99 = round3(p(through, 99) - p(straight, 99));
    options.log(`  direct p50 ${p(straight, 50)} ms p99 ${p(straight, 99)} ms; through the gateway p50 ${p(through, 50)} ms p99 ${p(through, 99)} ms`);
    return {
      bench: BENCH,
      figures: [
        atMost(BENCH, `gateway added latency p50 (${calls} allowed calls)`, added50, 5, 'ms', `direct ${p(straight, 50)} ms, via gateway ${p(through, 50)} ms`),
        atMost(BENCH, `gateway added latency p99 (${calls} allowed calls)`, added99, 20, 'ms', `direct ${p(straight, 99)} ms, via gateway ${p(through, 99)} ms`),
        info(BENCH, 'direct call p50 (stub upstream over stdio)', p(straight, 50), 'ms'),
      ],
      raw: { calls, direct: { p50: p(straight, 50), p90: p(straight, 90), p99: p(straight, 99) }, gateway: { p50: p(through, 50), p90: p(through, 90), p99: p(through, 99) } },
    };
  } finally {
    await gateway?.close().catch(() => undefined);
    await direct?.close().catch(() => undefined);
    await server.stop();
    removeDir(server.dataDir);
    removeDir(callsDir);
  }
}
