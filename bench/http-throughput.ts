// Benchmark 1: /v1/decide throughput at 50 connections against a raw node:http baseline, alternating runs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideBody, MIX, BENCH_RULES } from './lib/mix.ts';
import { AGENT_TOKEN, cpuTimeUs, removeDir, REVIEWER_TOKEN, SERVER_CPU, startAuditFloorServer, startRawServer, startToolgate, type ServerProcess } from './lib/processes.ts';
import { atLeast, atMost, info, type BenchOptions, type BenchResult } from './lib/result.ts';
import { median, round3 } from './lib/stats.ts';
import { hasWrk, runWrk, type WrkRun } from './lib/wrk.ts';

const BENCH = 'http';

/** Seeds the typical policy through the rules API, as an operator would. */
export async function seedRules(server: ServerProcess): Promise<void> {
  for (const rule of BENCH_RULES) {
    const res = await fetch(`${server.url}/v1/rules`, { method: 'POST', headers: { authorization: `Bearer ${REVIEWER_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(rule) });
    if (res.status !== 201) throw new Error(`seeding rule ${rule.pattern}: ${res.status} ${await res.text()}`);
  }
}

/** Sends each call of the mix once and returns the decisions (a sanity check that the mix means what it says). */
async function sampleDecisions(url: string): Promise<string[]> {
  const out: string[] = [];
  for (const template of MIX) {
    const res = await fetch(`${url}/v1/decide`, { method: 'POST', headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' }, body: decideBody(template, 'probe') });
    const body = (await res.json()) as { decision?: string; source?: string; title?: string };
    if (res.status !== 200) throw new Error(`probe ${decideBody(template, 'probe')}: ${res.status} ${JSON.stringify(body)}`);
    out.push(`${String(template.tool)} → ${body.decision} (${body.source})`);
  }
  return out;
}

export async function benchHttp(options: BenchOptions): Promise<BenchResult> {
  if (!(await hasWrk())) return { bench: BENCH, figures: [], error: 'wrk is not installed (apt-get install -y wrk)' };
  const seconds = options.quick ? 1 : 5;
  const rounds = options.quick ? 1 : 3;
  const connections = options.quick ? 10 : 50;
  const work = mkdtempSync(join(tmpdir(), 'toolgate-bench-http-'));
  const repeatedFile = join(work, 'repeated.jsonl');
  const uniqueFile = join(work, 'unique.jsonl');
  writeFileSync(repeatedFile, MIX.map((b) => decideBody(b, 'x')).join('\n') + '\n');
  writeFileSync(uniqueFile, MIX.map((b) => decideBody(b)).join('\n') + '\n');

  const raw = await startRawServer({ cpu: SERVER_CPU, env: { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN } });
  const floor = await startAuditFloorServer({ cpu: SERVER_CPU, env: { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN } });
  const toolgate = await startToolgate({ cpu: SERVER_CPU });
  try {
    await seedRules(toolgate);
    const decisions = await sampleDecisions(toolgate.url);
    options.log(`  mix: ${decisions.join(', ')}`);
    // CPU time per request says what each request costs the server, whatever else the machine is doing.
    const run = async (server: ServerProcess, unique: boolean, runId: string, secs = seconds): Promise<WrkRun & { cpuUsPerRequest: number }> => {
      const cpu0 = cpuTimeUs(server.pid);
      const result = await runWrk({ url: server.url, bodiesFile: unique ? uniqueFile : repeatedFile, token: AGENT_TOKEN, unique, runId, connections, seconds: secs });
      return { ...result, cpuUsPerRequest: (cpuTimeUs(server.pid) - cpu0) / Math.max(1, result.requests) };
    };

    // Warm-up: JIT, the analysis cache, SQLite's page cache. Not counted.
    const warm = options.quick ? 1 : 2;
    await run(raw, false, 'w0', warm);
    await run(floor, false, 'wf', warm);
    await run(toolgate, false, 'w1', warm);
    await run(toolgate, true, 'w2', warm);

    type Run = Awaited<ReturnType<typeof run>>;
    const rows: { round: number; raw: Run; floor: Run; repeated: Run; unique: Run }[] = [];
    for (let round = 1; round <= rounds; round++) {
      // Alternate the order so drift in the machine's speed does not favour one side.
      const order = round % 2 === 1 ? ['raw', 'floor', 'repeated', 'unique'] as const : ['unique', 'repeated', 'floor', 'raw'] as const;
      const got: Partial<Record<(typeof order)[number], Run>> = {};
      for (const which of order) {
        if (which === 'raw') got.raw = await run(raw, false, `raw${round}`);
        else if (which === 'floor') got.floor = await run(floor, false, `floor${round}`);
        else got[which] = await run(toolgate, which === 'unique', `u${round}n`);
      }
      rows.push({ round, raw: got.raw!, floor: got.floor!, repeated: got.repeated!, unique: got.unique! });
      const show = (r: Run) => `${r.rps.toFixed(0)} req/s, p99 ${(r.latencyUs.p99 / 1000).toFixed(2)} ms, ${r.cpuUsPerRequest.toFixed(0)} CPU µs/req`;
      options.log(`  round ${round}: raw ${show(got.raw!)} · audit floor ${show(got.floor!)} · toolgate repeated ${show(got.repeated!)} · unique ${show(got.unique!)}`);
    }
    const repeatedRatio = median(rows.map((r) => r.repeated.rps / r.raw.rps));
    const uniqueRatio = median(rows.map((r) => r.unique.rps / r.raw.rps));
    const floorRatio = median(rows.map((r) => r.floor.rps / r.raw.rps));
    const p99Ms = Math.max(...rows.flatMap((r) => [r.repeated.latencyUs.p99, r.unique.latencyUs.p99])) / 1000;
    const errors = rows.reduce((n, r) => n + r.repeated.errorCount + r.unique.errorCount, 0);
    const rawRps = median(rows.map((r) => r.raw.rps));
    const detail = `raw node:http ${rawRps.toFixed(0)} req/s, median of ${rounds} alternating round(s) of ${seconds} s, ${connections} connections`;
    return {
      bench: BENCH,
      figures: [
        info(BENCH, 'raw node:http baseline', round3(rawRps), 'req/s', detail),
        info(BENCH, 'server CPU per request: raw / repeated / unique', round3(median(rows.map((r) => r.repeated.cpuUsPerRequest))), 'µs', `raw ${median(rows.map((r) => r.raw.cpuUsPerRequest)).toFixed(0)} µs, unique ${median(rows.map((r) => r.unique.cpuUsPerRequest)).toFixed(0)} µs (toolgate repeated shown)`),
        // Not a target: how far a server can get here at all once each call's audit row commits before the answer.
        info(BENCH, 'durable-audit floor vs raw (no decision)', round3(floorRatio), '×', `raw node:http + toolgate's grouped audit commit per request: ${median(rows.map((r) => r.floor.rps)).toFixed(0)} req/s, ${median(rows.map((r) => r.floor.cpuUsPerRequest)).toFixed(0)} CPU µs/req`),
        atLeast(BENCH, '/v1/decide vs raw, repeated commands', round3(repeatedRatio), 0.5, '×', `${median(rows.map((r) => r.repeated.rps)).toFixed(0)} req/s`),
        atLeast(BENCH, '/v1/decide vs raw, every command unique', round3(uniqueRatio), 0.3, '×', `${median(rows.map((r) => r.unique.rps)).toFixed(0)} req/s`),
        atMost(BENCH, '/v1/decide p99 latency (worst run)', round3(p99Ms), 10, 'ms'),
        atMost(BENCH, '/v1/decide errors (all runs)', errors, 0, 'errors'),
      ],
      raw: { connections, seconds, rounds, mix: decisions, runs: rows },
    };
  } finally {
    await Promise.all([raw.stop(), floor.stop(), toolgate.stop()]);
    removeDir(toolgate.dataDir);
    removeDir(work);
  }
}
