// Benchmark 1: /v1/decide against the durable-audit floor, measured in the same run (issue 27).
// - Throughput at 50 connections, repeated mix and every command unique, as ratios to the floor — a server that only
//   commits each call's audit row before answering — in alternating rounds (raw node:http is printed for context).
// - The agent's view: one connection, sequential calls, each answered after its audit row commits: p50 and p99 for
//   repeated and unique one-line calls and for a 2 KB script, beside the floor's own latency on one connection.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideBody, MIX, BENCH_RULES, scriptCall } from './lib/mix.ts';
import {
  AGENT_TOKEN,
  cpuTimeUs,
  removeDir,
  REVIEWER_TOKEN,
  SERVER_CPU,
  startAuditFloorServer,
  startRawServer,
  startToolgate,
  type ServerProcess,
} from './lib/processes.ts';
import { atLeast, atMost, info, type BenchOptions, type BenchResult } from './lib/result.ts';
import { median, round3 } from './lib/stats.ts';
import { hasWrk, runWrk, type WrkRun } from './lib/wrk.ts';
import { twoKilobyteScript } from './shell.ts';

const BENCH = 'http';

/** The targets of issue 27. */
export const TARGETS = {
  repeatedVsFloor: 0.8,
  uniqueVsFloor: 0.5,
  oneLineP50Ms: 0.5,
  oneLineP99Ms: 2,
  scriptP50Ms: 3,
} as const;

/** Seeds the typical policy through the rules API, as an operator would. */
export async function seedRules(server: ServerProcess): Promise<void> {
  for (const rule of BENCH_RULES) {
    const res = await fetch(`${server.url}/v1/rules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${REVIEWER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(rule),
    });
    if (res.status !== 201) throw new Error(`seeding rule ${rule.pattern}: ${res.status} ${await res.text()}`);
  }
}

/** Sends each call once and returns the decisions (a sanity check that the mix means what it says). */
async function sampleDecisions(url: string, calls: readonly Record<string, unknown>[]): Promise<string[]> {
  const out: string[] = [];
  for (const template of calls) {
    const res = await fetch(`${url}/v1/decide`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' },
      body: decideBody(template, 'probe'),
    });
    const body = (await res.json()) as { decision?: string; source?: string; title?: string };
    if (res.status !== 200)
      throw new Error(`probe ${decideBody(template, 'probe').slice(0, 200)}: ${res.status} ${JSON.stringify(body)}`);
    out.push(`${String(template.tool)} → ${body.decision} (${body.source})`);
  }
  return out;
}

/** The files of bodies wrk cycles through. */
export interface BodyFiles {
  dir: string;
  repeated: string;
  unique: string;
  script: string;
}

/** Writes the repeated mix, the unique mix (placeholders left for wrk) and the unique 2 KB script. */
export function writeBodies(): BodyFiles {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-bench-http-'));
  const files = {
    dir,
    repeated: join(dir, 'repeated.jsonl'),
    unique: join(dir, 'unique.jsonl'),
    script: join(dir, 'script.jsonl'),
  };
  writeFileSync(files.repeated, MIX.map((b) => decideBody(b, 'x')).join('\n') + '\n');
  writeFileSync(files.unique, MIX.map((b) => decideBody(b)).join('\n') + '\n');
  writeFileSync(files.script, decideBody(scriptCall(twoKilobyteScript())) + '\n');
  return files;
}

type Run = WrkRun & { cpuUsPerRequest: number };
const ms = (us: number) => round3(us / 1000);

export async function benchHttp(options: BenchOptions): Promise<BenchResult> {
  if (!(await hasWrk())) return { bench: BENCH, figures: [], error: 'wrk is not installed (apt-get install -y wrk)' };
  const seconds = options.quick ? 1 : 5;
  const rounds = options.quick ? 1 : 3;
  const connections = options.quick ? 10 : 50;
  const bodies = writeBodies();

  const raw = await startRawServer({ cpu: SERVER_CPU, env: { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN } });
  const floor = await startAuditFloorServer({ cpu: SERVER_CPU, env: { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN } });
  const toolgate = await startToolgate({ cpu: SERVER_CPU });
  try {
    await seedRules(toolgate);
    const decisions = await sampleDecisions(toolgate.url, [...MIX, scriptCall(twoKilobyteScript())]);
    options.log(`  mix: ${decisions.join(', ')}`);
    // CPU time per request says what each request costs the server, whatever else the machine is doing.
    const run = async (
      server: ServerProcess,
      file: string,
      unique: boolean,
      runId: string,
      secs = seconds,
      conns = connections,
    ): Promise<Run> => {
      const cpu0 = cpuTimeUs(server.pid);
      const result = await runWrk({
        url: server.url,
        bodiesFile: file,
        token: AGENT_TOKEN,
        unique,
        runId,
        connections: conns,
        seconds: secs,
      });
      return { ...result, cpuUsPerRequest: (cpuTimeUs(server.pid) - cpu0) / Math.max(1, result.requests) };
    };

    // Warm-up: JIT, the analysis cache, SQLite's page cache. Not counted.
    const warm = options.quick ? 1 : 2;
    await run(raw, bodies.repeated, false, 'w0', warm);
    await run(floor, bodies.repeated, false, 'wf', warm);
    await run(toolgate, bodies.repeated, false, 'w1', warm);
    await run(toolgate, bodies.unique, true, 'w2', warm);
    await run(toolgate, bodies.script, true, 'w3', warm, 1);

    const rows: { round: number; raw: Run; floor: Run; repeated: Run; unique: Run }[] = [];
    for (let round = 1; round <= rounds; round++) {
      // Alternate the order so drift in the machine's speed does not favour one side.
      const order =
        round % 2 === 1
          ? (['floor', 'repeated', 'unique', 'raw'] as const)
          : (['unique', 'repeated', 'floor', 'raw'] as const);
      const got: Partial<Record<(typeof order)[number], Run>> = {};
      for (const which of order) {
        if (which === 'raw') got.raw = await run(raw, bodies.repeated, false, `raw${round}`);
        else if (which === 'floor') got.floor = await run(floor, bodies.repeated, false, `floor${round}`);
        else
          got[which] = await run(
            toolgate,
            which === 'unique' ? bodies.unique : bodies.repeated,
            which === 'unique',
            `u${round}n`,
          );
      }
      rows.push({ round, raw: got.raw!, floor: got.floor!, repeated: got.repeated!, unique: got.unique! });
      const show = (r: Run) =>
        `${r.rps.toFixed(0)} req/s, p99 ${(r.latencyUs.p99 / 1000).toFixed(2)} ms, ${r.cpuUsPerRequest.toFixed(0)} CPU µs/req`;
      options.log(
        `  round ${round}: floor ${show(got.floor!)} · repeated ${show(got.repeated!)} (${(got.repeated!.rps / got.floor!.rps).toFixed(3)}×) · unique ${show(got.unique!)} (${(got.unique!.rps / got.floor!.rps).toFixed(3)}×) · raw ${show(got.raw!)}`,
      );
    }

    // The agent's view: one connection, one call after another, each answered once its audit row has committed.
    const one = {
      floor: await run(floor, bodies.repeated, false, 'l0', seconds, 1),
      repeated: await run(toolgate, bodies.repeated, false, 'l1', seconds, 1),
      unique: await run(toolgate, bodies.unique, true, 'l2', seconds, 1),
      script: await run(toolgate, bodies.script, true, 'l3', seconds, 1),
    };
    // Each call's own latency (bench/wrk/decide.lua), not wrk's figures: those add calls for coordinated omission.
    const calls = (r: Run) => r.calls!;
    const lat = (r: Run) =>
      `p50 ${ms(calls(r).p50)} ms, p99 ${ms(calls(r).p99)} ms (wrk's corrected p99 ${ms(r.latencyUs.p99)} ms), ${r.requests} calls, ${r.cpuUsPerRequest.toFixed(0)} CPU µs/call`;
    options.log(
      `  one connection: floor ${lat(one.floor)} · repeated ${lat(one.repeated)} · unique ${lat(one.unique)} · 2 KB script ${lat(one.script)}`,
    );

    const med = (pick: (r: (typeof rows)[number]) => number) => median(rows.map(pick));
    const repeatedRatio = med((r) => r.repeated.rps / r.floor.rps);
    const uniqueRatio = med((r) => r.unique.rps / r.floor.rps);
    const floorVsRaw = med((r) => r.floor.rps / r.raw.rps);
    const worst = (pick: (r: (typeof rows)[number]) => Run) =>
      Math.max(...rows.map((r) => pick(r).latencyUs.p99)) / 1000;
    const errors =
      rows.reduce((n, r) => n + r.repeated.errorCount + r.unique.errorCount, 0) +
      one.repeated.errorCount +
      one.unique.errorCount +
      one.script.errorCount;
    const floorRps = med((r) => r.floor.rps);
    const floorLatency = `floor on one connection: p50 ${ms(calls(one.floor).p50)} ms, p99 ${ms(calls(one.floor).p99)} ms`;
    // What wrk itself reports for a run: its latencies with calls added for coordinated omission (no agent sends that way).
    const wrkP99 = (r: Run) => `wrk's own p99, with calls added for coordinated omission: ${ms(r.latencyUs.p99)} ms`;
    const cpu = (pick: (r: (typeof rows)[number]) => Run) => med((r) => pick(r).cpuUsPerRequest).toFixed(0);
    // The floor's CPU per request over toolgate's, per round: the throughput ratio a server would reach with a core
    // to itself, and far steadier than throughput when other processes share the server's core.
    const cpuRatio = (pick: (r: (typeof rows)[number]) => Run) =>
      `${round3(med((r) => r.floor.cpuUsPerRequest / pick(r).cpuUsPerRequest))}× (rounds ${rows.map((r) => (r.floor.cpuUsPerRequest / pick(r).cpuUsPerRequest).toFixed(3)).join(' / ')})`;
    return {
      bench: BENCH,
      figures: [
        info(
          BENCH,
          'durable-audit floor (the baseline)',
          round3(floorRps),
          'req/s',
          `raw node:http + toolgate's grouped audit commit per request, no decision; median of ${rounds} alternating round(s) of ${seconds} s, ${connections} connections; ${round3(floorVsRaw)}× raw node:http (${med((r) => r.raw.rps).toFixed(0)} req/s)`,
        ),
        info(
          BENCH,
          'server CPU per request: raw / floor / repeated / unique',
          Number(cpu((r) => r.unique)),
          'µs',
          `raw ${cpu((r) => r.raw)} µs, floor ${cpu((r) => r.floor)} µs, repeated ${cpu((r) => r.repeated)} µs (unique shown)`,
        ),
        atLeast(
          BENCH,
          `/v1/decide vs floor, repeated mix, ${connections} connections`,
          round3(repeatedRatio),
          TARGETS.repeatedVsFloor,
          '×',
          `${med((r) => r.repeated.rps).toFixed(0)} req/s; rounds ${rows.map((r) => (r.repeated.rps / r.floor.rps).toFixed(3)).join(' / ')}; by CPU per request (what the ratio is on a core of its own) ${cpuRatio((r) => r.repeated)}`,
        ),
        atLeast(
          BENCH,
          `/v1/decide vs floor, every command unique, ${connections} connections`,
          round3(uniqueRatio),
          TARGETS.uniqueVsFloor,
          '×',
          `${med((r) => r.unique.rps).toFixed(0)} req/s; rounds ${rows.map((r) => (r.unique.rps / r.floor.rps).toFixed(3)).join(' / ')}; by CPU per request ${cpuRatio((r) => r.unique)}`,
        ),
        atMost(
          BENCH,
          'one agent, repeated one-line calls, p50',
          ms(calls(one.repeated).p50),
          TARGETS.oneLineP50Ms,
          'ms',
          `${one.repeated.requests} sequential calls on one connection, audit commit included; ${floorLatency}`,
        ),
        atMost(
          BENCH,
          'one agent, repeated one-line calls, p99',
          ms(calls(one.repeated).p99),
          TARGETS.oneLineP99Ms,
          'ms',
          `the floor's own p99 on one connection: ${ms(calls(one.floor).p99)} ms; max ${ms(calls(one.repeated).max)} ms; ${wrkP99(one.repeated)}`,
        ),
        atMost(
          BENCH,
          'one agent, unique one-line calls, p50',
          ms(calls(one.unique).p50),
          TARGETS.oneLineP50Ms,
          'ms',
          `${one.unique.requests} calls, every command new`,
        ),
        atMost(
          BENCH,
          'one agent, unique one-line calls, p99',
          ms(calls(one.unique).p99),
          TARGETS.oneLineP99Ms,
          'ms',
          `the floor's own p99 on one connection: ${ms(calls(one.floor).p99)} ms; max ${ms(calls(one.unique).max)} ms; ${wrkP99(one.unique)}`,
        ),
        atMost(
          BENCH,
          'one agent, unique 2 KB script, p50',
          ms(calls(one.script).p50),
          TARGETS.scriptP50Ms,
          'ms',
          `p99 ${ms(calls(one.script).p99)} ms over ${one.script.requests} calls, ${one.script.cpuUsPerRequest.toFixed(0)} CPU µs per call; ${wrkP99(one.script)}`,
        ),
        info(
          BENCH,
          `/v1/decide p99 at ${connections} connections, worst run`,
          round3(
            Math.max(
              worst((r) => r.repeated),
              worst((r) => r.unique),
            ),
          ),
          'ms',
          `repeated ${worst((r) => r.repeated).toFixed(1)} ms, unique ${worst((r) => r.unique).toFixed(1)} ms; the floor's own ${worst((r) => r.floor).toFixed(1)} ms (wrk's figures, with calls added for coordinated omission)`,
        ),
        atMost(BENCH, '/v1/decide errors (all runs)', errors, 0, 'errors'),
      ],
      raw: { connections, seconds, rounds, mix: decisions, runs: rows, oneConnection: one },
    };
  } finally {
    await Promise.all([raw.stop(), floor.stop(), toolgate.stop()]);
    removeDir(toolgate.dataDir);
    removeDir(bodies.dir);
  }
}
