// `node --import tsx bench/profile.ts [--unique] [--seconds N] [--heap allocated|survived]`: runs the HTTP load
// against a toolgate with a probe preloaded and prints where the server's CPU time went during the measured window
// (a V8 CPU profile of that window alone: no start-up, no warm-up), by area of the code and by function, as shares
// and as µs per request; its garbage collections and event-loop delay; and with --heap the allocation sites of a
// sampling heap profile (`survived`: only objects that outlived a scavenge). Profiles stay in
// bench/results/profiles/. `npm run bench` runs it for the repeated and the unique mix (bench `profile`).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seedRules } from './http-throughput.ts';
import { decideBody, MIX } from './lib/mix.ts';
import { AGENT_TOKEN, buildIfStale, cpuTimeUs, removeDir, ROOT, SERVER_CPU, startToolgate } from './lib/processes.ts';
import { summariseHeapProfile, summariseProfile } from './lib/profile-summary.ts';
import { info, type BenchOptions, type BenchResult } from './lib/result.ts';
import { round3 } from './lib/stats.ts';
import { runWrk } from './lib/wrk.ts';

/** What one profiled run gives. */
export interface ProfiledRun {
  dir: string;
  requests: number;
  rps: number;
  /** Server CPU per request over the window (/proc: every thread, GC and SQLite's included). */
  cpuUsPerRequest: number;
  /** The printable summary: load, GC, event-loop delay, then the profile. */
  text: string;
}

/** Profiles the server under the repeated or the unique mix at 50 connections. */
export async function profileHttp(options: {
  unique: boolean;
  seconds: number;
  top?: number;
  heap?: 'allocated' | 'survived';
  warmSeconds?: number;
}): Promise<ProfiledRun> {
  const dir = join(
    ROOT,
    'bench/results/profiles',
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${options.unique ? 'unique' : 'repeated'}`,
  );
  mkdirSync(dir, { recursive: true });
  const bodies = join(dir, 'bodies.jsonl');
  writeFileSync(bodies, MIX.map((b) => decideBody(b, options.unique ? undefined : 'x')).join('\n') + '\n');
  const server = await startToolgate({
    cpu: SERVER_CPU,
    nodeFlags: ['--require', join(ROOT, 'bench/lib/server-probe.cjs')],
    env: {
      TOOLGATE_PROBE_DIR: dir,
      TOOLGATE_PROBE_CPU: '1',
      ...(options.heap ? { TOOLGATE_PROBE_HEAP: options.heap } : {}),
    },
  });
  let text = '';
  let requests: number;
  let rps: number;
  let cpuUs: number;
  try {
    await seedRules(server);
    await runWrk({
      url: server.url,
      bodiesFile: bodies,
      token: AGENT_TOKEN,
      unique: options.unique,
      runId: 'p',
      connections: 50,
      seconds: options.warmSeconds ?? 2,
    });
    process.kill(server.pid, 'SIGUSR2'); // the probe's window opens
    const cpu0 = cpuTimeUs(server.pid);
    const run = await runWrk({
      url: server.url,
      bodiesFile: bodies,
      token: AGENT_TOKEN,
      unique: options.unique,
      runId: 'q',
      connections: 50,
      seconds: options.seconds,
    });
    cpuUs = cpuTimeUs(server.pid) - cpu0;
    process.kill(server.pid, 'SIGUSR2'); // and closes
    requests = run.requests;
    rps = run.rps;
    text += `${options.unique ? 'every command unique' : 'repeated mix'}, 50 connections: ${run.rps.toFixed(0)} req/s, p99 ${(run.latencyUs.p99 / 1000).toFixed(2)} ms, ${run.errorCount} errors, ${(cpuUs / Math.max(1, requests)).toFixed(1)} server CPU µs per request (all threads)\n`;
    for (let i = 0; i < 200 && !existsSync(join(dir, 'gc.json')); i++) await new Promise((r) => setTimeout(r, 100));
  } finally {
    await server.stop();
    removeDir(server.dataDir);
  }
  const gcFile = join(dir, 'gc.json');
  if (existsSync(gcFile)) {
    const gc = JSON.parse(await readFile(gcFile, 'utf8')) as {
      windowMs: number;
      gcs: Record<string, { count: number; totalMs: number; maxMs: number }>;
      loopDelayMs: Record<string, number>;
    };
    text += `garbage collection over the ${gc.windowMs} ms window:\n`;
    for (const [kind, s] of Object.entries(gc.gcs))
      text += `  ${kind}: ${s.count}×, ${s.totalMs.toFixed(0)} ms (${((s.totalMs / gc.windowMs) * 100).toFixed(1)} % of the window), longest ${s.maxMs.toFixed(1)} ms\n`;
    text += `event-loop delay: p50 ${gc.loopDelayMs.p50} ms, p99 ${gc.loopDelayMs.p99} ms, max ${gc.loopDelayMs.max} ms\n\n`;
  }
  if (options.heap && existsSync(join(dir, 'heap.json')))
    text += `${summariseHeapProfile(join(dir, 'heap.json'), options.top ?? 30, requests)}\n\n`;
  const profile = join(dir, 'cpu.cpuprofile');
  if (!existsSync(profile)) throw new Error(`no profile written in ${dir}`);
  text += `${summariseProfile(profile, options.top ?? 30, requests)}\n\nprofile: ${profile}\n`;
  writeFileSync(join(dir, 'summary.txt'), text);
  return { dir, requests, rps, cpuUsPerRequest: cpuUs / Math.max(1, requests), text };
}

/**
 * The `profile` bench of `npm run bench`: the server profiled under the repeated and the unique mix; the summaries
 * go to bench/results/profile-repeated.txt and profile-unique.txt (and into the Markdown with --markdown).
 */
export async function benchProfile(options: BenchOptions): Promise<BenchResult> {
  const seconds = options.quick ? 1 : 5;
  const figures = [];
  const summaries: Record<string, string> = {};
  for (const unique of [false, true]) {
    const name = unique ? 'unique' : 'repeated';
    const run = await profileHttp({ unique, seconds, top: 25, warmSeconds: options.quick ? 1 : 2 });
    // The smoke run's profile is of a cold server: it does not replace the full run's summary.
    if (!options.quick) writeFileSync(join(ROOT, `bench/results/profile-${name}.txt`), run.text);
    summaries[name] = run.text;
    const busy = /: ([\d.]+) µs of main-thread CPU per request/.exec(run.text)?.[1];
    figures.push(
      info(
        'profile',
        `${name} mix: server CPU per request while profiled`,
        round3(run.cpuUsPerRequest),
        'µs',
        `main thread ${busy ?? '?'} µs; by area and function in ${options.quick ? join(run.dir, 'summary.txt') : `bench/results/profile-${name}.txt`}`,
      ),
    );
  }
  return { bench: 'profile', figures, raw: { summaries } };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      unique: { type: 'boolean', default: false },
      seconds: { type: 'string', default: '10' },
      top: { type: 'string', default: '30' },
      heap: { type: 'string' },
    },
  });
  if (values.heap !== undefined && values.heap !== 'allocated' && values.heap !== 'survived')
    throw new Error('--heap takes allocated or survived');
  if (buildIfStale()) process.stderr.write('built dist/ (it was older than src/)\n');
  const run = await profileHttp({
    unique: values.unique!,
    seconds: Number(values.seconds),
    top: Number(values.top),
    heap: values.heap as 'allocated' | 'survived' | undefined,
  });
  process.stdout.write(run.text);
}
