// Benchmark 6: the MCP gateway's added latency. 1,000 allowed tools/call through `toolgate mcp` (a real sidecar
// deciding each, the result recorded) against the same calls straight to the same stub upstream server.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_TOKEN, cpuTimeUs, removeDir, ROOT, startToolgate } from './lib/processes.ts';
import { atMost, info, type BenchOptions, type BenchResult } from './lib/result.ts';
import { percentile, round3 } from './lib/stats.ts';

const BENCH = 'mcp';
const STUB = join(ROOT, 'test/mcp/support/stub-upstream.ts');

async function connect(args: string[], env: Record<string, string>): Promise<{ client: Client; pid: number }> {
  const client = new Client({ name: 'toolgate-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stderr: 'ignore',
    cwd: ROOT,
  });
  await client.connect(transport);
  return { client, pid: transport.pid ?? 0 };
}

/** Milliseconds of each of `n` sequential echo calls (distinct texts: no cache serves a repeat). */
async function timeCalls(client: Client, n: number, label: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const result = await client.request({
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: `${label} ${i % 50}` } },
    });
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
    direct = (await connect(['--import', 'tsx', STUB], env)).client;
    const spawned = await connect(
      ['bin/toolgate.js', 'mcp', '--name', 'bench', '--', process.execPath, '--import', 'tsx', STUB],
      { ...env, TOOLGATE_URL: server.url, TOOLGATE_AGENT_TOKEN: AGENT_TOKEN },
    );
    gateway = spawned.client;
    await timeCalls(direct, warmup, 'warm');
    await timeCalls(gateway, warmup, 'warm');
    // Alternating halves, so a slow moment of the shared machine falls on both sides.
    const straight: number[] = [];
    const through: number[] = [];
    // CPU the gateway and the sidecar spend per call: what the gateway costs whatever else the machine is doing
    // (on a busy machine each of the gateway's extra process hops waits for a core, which the latency shows).
    let gatewayCpuUs = 0;
    let sidecarCpuUs = 0;
    for (let half = 0; half < 2; half++) {
      straight.push(...(await timeCalls(direct, calls / 2, 'direct')));
      const [g0, s0] = [cpuTimeUs(spawned.pid), cpuTimeUs(server.pid)];
      through.push(...(await timeCalls(gateway, calls / 2, 'gateway')));
      await new Promise((r) => setTimeout(r, 200)); // the last results reach the sidecar
      gatewayCpuUs += cpuTimeUs(spawned.pid) - g0;
      sidecarCpuUs += cpuTimeUs(server.pid) - s0;
    }
    const p = (values: number[], q: number) => round3(percentile(values, q));
    const added50 = round3(p(through, 50) - p(straight, 50));
    const added99 = round3(p(through, 99) - p(straight, 99));
    options.log(
      `  direct p50 ${p(straight, 50)} ms p99 ${p(straight, 99)} ms; through the gateway p50 ${p(through, 50)} ms p99 ${p(through, 99)} ms`,
    );
    return {
      bench: BENCH,
      figures: [
        atMost(
          BENCH,
          `gateway added latency p50 (${calls} allowed calls)`,
          added50,
          5,
          'ms',
          `direct ${p(straight, 50)} ms, via gateway ${p(through, 50)} ms`,
        ),
        atMost(
          BENCH,
          `gateway added latency p99 (${calls} allowed calls)`,
          added99,
          20,
          'ms',
          `direct ${p(straight, 99)} ms, via gateway ${p(through, 99)} ms`,
        ),
        info(BENCH, 'direct call p50 (stub upstream over stdio)', p(straight, 50), 'ms'),
        info(
          BENCH,
          'gateway process CPU per call',
          round3(gatewayCpuUs / calls / 1000),
          'ms',
          'JSON-RPC both ways, decide, result',
        ),
        info(
          BENCH,
          'sidecar CPU per gateway call',
          round3(sidecarCpuUs / calls / 1000),
          'ms',
          'decide + POST /v1/results',
        ),
        info(BENCH, 'load average (1 min) while measuring', round3(loadavg()[0]!), ''),
      ],
      raw: {
        calls,
        direct: { p50: p(straight, 50), p90: p(straight, 90), p99: p(straight, 99) },
        gateway: { p50: p(through, 50), p90: p(through, 90), p99: p(through, 99) },
      },
    };
  } finally {
    await gateway?.close().catch(() => undefined);
    await direct?.close().catch(() => undefined);
    await server.stop();
    removeDir(server.dataDir);
    removeDir(callsDir);
  }
}
