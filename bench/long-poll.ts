// Benchmark 4: 10k agents long-polling GET /v1/approvals/{id}?wait=60 on a real server: its memory, and how fast
// a reviewer's answer reaches the waiting agent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT } from './lib/mix.ts';
import {
  AGENT_TOKEN,
  LOAD_CPU,
  removeDir,
  REVIEWER_TOKEN,
  SERVER_CPU,
  spawnNode,
  startToolgate,
  type ServerProcess,
} from './lib/processes.ts';
import { atMost, info, type BenchOptions, type BenchResult } from './lib/result.ts';
import { percentile, round3 } from './lib/stats.ts';

const BENCH = 'longpoll';

/** A plain HTTP call; resolves with status and body text. */
function call(
  url: string,
  method: string,
  token: string,
  body: unknown,
  agent: Agent | false,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => readBody(res).then((text) => resolve({ status: res.statusCode ?? 0, text }), reject),
    );
    req.once('error', reject);
    req.end(payload);
  });
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => (text += d));
    res.once('end', () => resolve(text));
    res.once('error', reject);
  });
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/** The server's own view of its memory (prom-client's default metrics), in MB. */
async function heapOnServer(server: ServerProcess): Promise<Record<string, number>> {
  const { text } = await call(`${server.url}/metrics`, 'GET', REVIEWER_TOKEN, undefined, false);
  const out: Record<string, number> = {};
  for (const name of ['heap_size_used_bytes', 'heap_size_total_bytes', 'external_memory_bytes']) {
    const m = new RegExp(`^toolgate_nodejs_${name}\\s+(\\d+)`, 'm').exec(text);
    if (m) out[name.replace(/_bytes$/, '')] = Math.round(Number(m[1]) / 1e5) / 10;
  }
  return out;
}

async function waitersOnServer(server: ServerProcess): Promise<number> {
  const { text } = await call(`${server.url}/metrics`, 'GET', REVIEWER_TOKEN, undefined, false);
  const m = /^toolgate_long_poll_waiters\s+(\d+)/m.exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

/** One held long-poll: settles with the time its response completed and the approval status it carried. */
interface Waiter {
  done: Promise<{ at: number; status: string }>;
}

function openWaiter(server: ServerProcess, id: string): Waiter {
  const done = new Promise<{ at: number; status: string }>((resolve, reject) => {
    const req = request(
      `${server.url}/v1/approvals/${id}?wait=60`,
      { agent: false, headers: { authorization: `Bearer ${AGENT_TOKEN}` } },
      (res) => {
        readBody(res).then((text) => {
          const at = performance.now();
          let status = `http ${res.statusCode}`;
          try {
            status = (JSON.parse(text) as { status?: string }).status ?? status;
          } catch {
            // not JSON: keep the HTTP status
          }
          resolve({ at, status });
        }, reject);
      },
    );
    req.once('error', reject);
    req.end();
  });
  return { done };
}

/**
 * Runs the measurement in a child process pinned to the load core, as wrk is for the HTTP bench: the 10k client
 * sockets then live in a heap of their own, with room to spare (64 MB semi-spaces), and a pause of the load
 * generator's own garbage collector is not counted as the server's latency.
 */
export async function benchLongPoll(options: BenchOptions): Promise<BenchResult> {
  const child = spawnNode(
    [
      '--expose-gc',
      '--max-semi-space-size=64',
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      CHILD_FLAG,
      ...(options.quick ? ['--quick'] : []),
    ],
    { cpu: LOAD_CPU, raiseFdLimit: true },
  );
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (const line of d.split('\n')) if (line.startsWith(LOG_PREFIX)) options.log(line.slice(LOG_PREFIX.length));
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const result = /^RESULT (.*)$/m.exec(out);
  if (code !== 0 || !result) throw new Error(`the long-poll client exited with ${code}:\n${err.slice(-4000)}`);
  return JSON.parse(result[1]!) as BenchResult;
}

const CHILD_FLAG = '--long-poll-client';
const LOG_PREFIX = 'LOG ';

/** The measurement itself (in the child process). */
async function measureLongPoll(options: BenchOptions): Promise<BenchResult> {
  const count = options.quick ? 200 : 10_000;
  // Answers are sent one after another, as reviewers do; with 10k open, a few thousand give a stable p99.
  const sampled = options.quick ? 100 : 2_000;
  // The pending caps (200 per token, 1,000 in total by default) are raised for this bench: it measures what 10k held
  // long-polls cost, which an operator allows by setting these (docs/security.md#limits-and-defaults).
  const configDir = mkdtempSync(join(tmpdir(), 'toolgate-longpoll-'));
  const config = join(configDir, 'config.json');
  writeFileSync(config, JSON.stringify({ max_pending_per_token: count, max_pending_total: count }));
  const server = await startToolgate({
    cpu: SERVER_CPU,
    raiseFdLimit: true,
    flags: ['--config', config, '--approval-timeout', '15m', '--log-level', 'warn'],
  });
  // Idle sockets are dropped after 4 s, before the server's 5 s keep-alive timeout closes them: reusing a socket the
  // server is closing at that moment fails with ECONNRESET (between the phases below sockets sit idle for seconds).
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 32, timeout: 4_000 });
  const waiters: Waiter[] = [];
  try {
    const rssIdle = server.rssMb();
    // 1. Open the approvals: one dangerous call per agent session, as many agents would (20 per agent id, under the cap).
    const ids: string[] = new Array(count);
    await pool(
      Array.from({ length: count }, (_, i) => i),
      32,
      async (i) => {
        const body = {
          tool: 'Bash',
          args: { command: `rm -rf /tmp/longpoll-${i}` },
          agent_id: `lp-agent-${Math.floor(i / 20)}`,
          session_id: `lp-${i}`,
          cwd: PROJECT,
        };
        const res = await call(`${server.url}/v1/decide`, 'POST', AGENT_TOKEN, body, keepAlive);
        const parsed = JSON.parse(res.text) as { decision?: string; approval?: { id: string } };
        if (res.status !== 200 || parsed.decision !== 'ask' || !parsed.approval)
          throw new Error(`decide ${i}: ${res.status} ${res.text}`);
        ids[i] = parsed.approval.id;
      },
    );
    const rssApprovals = server.rssMb();
    // 2. Every agent waits: one connection each, opened in batches so the listen backlog never overflows.
    for (let i = 0; i < count; i += 500) {
      for (let j = i; j < Math.min(count, i + 500); j++) waiters.push(openWaiter(server, ids[j]!));
      await new Promise((r) => setTimeout(r, 20));
    }
    const deadline = performance.now() + 60_000;
    let held = await waitersOnServer(server);
    while (held < count && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      held = await waitersOnServer(server);
    }
    if (held < count) throw new Error(`only ${held} of ${count} long-polls reached the server`);
    await new Promise((r) => setTimeout(r, 500));
    const rssHeld = server.rssMb();
    const heapHeld = await heapOnServer(server);
    options.log(
      `  ${count} waiting: RSS ${rssHeld.toFixed(0)} MB (idle ${rssIdle.toFixed(0)} MB, after opening the approvals ${rssApprovals.toFixed(0)} MB); V8 ${JSON.stringify(heapHeld)} MB`,
    );
    // 3. A reviewer answers; the time runs from sending the answer to the waiting agent's complete response.
    const latencies: number[] = [];
    let wrong = 0;
    // Start the answers with a settled load generator (this process), not in the middle of its own collection.
    (globalThis as { gc?: () => void }).gc?.();
    for (let i = 0; i < sampled; i++) {
      const index = Math.floor((i * count) / sampled);
      const t0 = performance.now();
      const res = await call(
        `${server.url}/v1/approvals/${ids[index]}/resolve`,
        'POST',
        REVIEWER_TOKEN,
        { choice: 'deny', feedback: 'benchmark' },
        keepAlive,
      );
      if (res.status !== 200) throw new Error(`resolve ${ids[index]}: ${res.status} ${res.text}`);
      const { at, status } = await waiters[index]!.done;
      if (status !== 'denied') wrong++;
      latencies.push(at - t0);
    }
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    options.log(
      `  resolve → waiter response: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms over ${sampled} answers`,
    );
    if (wrong > 0) throw new Error(`${wrong} waiters did not receive the answer`);
    return {
      bench: BENCH,
      figures: [
        atMost(
          BENCH,
          `server RSS with ${count} waiting long-polls`,
          round3(rssHeld),
          256,
          'MB',
          `idle ${rssIdle.toFixed(0)} MB; ${rssApprovals.toFixed(0)} MB once the ${count} approvals exist`,
        ),
        atMost(
          BENCH,
          'resolve → waiter response, p99',
          round3(p99),
          10,
          'ms',
          `p50 ${round3(p50)} ms over ${sampled} answers sent one at a time while ${count} wait`,
        ),
        info(BENCH, 'long-polls held at once', held, 'connections'),
      ],
      raw: {
        count,
        sampled,
        rssMb: { idle: rssIdle, approvals: rssApprovals, held: rssHeld },
        heapMbWhileHeld: heapHeld,
        latencyMs: { p50, p90: percentile(latencies, 90), p99, max: percentile(latencies, 100) },
      },
    };
  } finally {
    keepAlive.destroy();
    await server.stop();
    await Promise.allSettled(waiters.map((w) => w.done));
    removeDir(server.dataDir);
  }
}

if (process.argv.includes(CHILD_FLAG)) {
  const result = await measureLongPoll({
    quick: process.argv.includes('--quick'),
    log: (line) => process.stderr.write(`${LOG_PREFIX}${line}\n`),
  });
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  process.exit(0);
}
