// Benchmark 6: the cost of one `toolgate hook claude-code` call — a new process before every tool call of the
// agent — against `node -e ''` started in the same run, the floor any Node command hook pays. Target: ≤ 2×.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AGENT_TOKEN, removeDir, ROOT, startToolgate } from './lib/processes.ts';
import { atMost, info, type BenchOptions, type BenchResult } from './lib/result.ts';
import { median, percentile, round3 } from './lib/stats.ts';

const BENCH = 'hook';

/** A Claude Code PreToolUse input for a harmless command (allowed; after the first call, from the verdict cache). */
const INPUT = JSON.stringify({
  session_id: 'bench',
  transcript_path: '/tmp/t.jsonl',
  cwd: ROOT,
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'git status' },
  tool_use_id: 'toolu_bench',
});

/** CPU time (user + system) of this process's waited-for children so far, in ms (cutime + cstime in /proc/self/stat). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS) * 1000;
}

/** USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;

/** Wall time of one process run to its exit and the CPU time it used, in ms; throws when it fails. */
function timedRun(
  args: string[],
  env: NodeJS.ProcessEnv,
  input: string,
): { ms: number; cpuMs: number; stdout: string } {
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, env, input, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status ?? run.signal}: ${run.stderr}`);
  return { ms, cpuMs: childrenCpuMs() - cpu0, stdout: run.stdout };
}

export async function benchHookCost(options: BenchOptions): Promise<BenchResult> {
  const rounds = options.quick ? 5 : 40;
  // Not pinned: the hook and `node -e ''` are not either, and a pinned sidecar waits for its one core on a busy machine.
  const server = await startToolgate({ flags: ['--log-level', 'silent'] });
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      TOOLGATE_URL: server.url,
      TOOLGATE_AGENT_TOKEN: AGENT_TOKEN,
    };
    const hook = ['bin/toolgate.js', 'hook', 'claude-code'];
    const empty = ['-e', ''];
    // One of each first, unmeasured: disk caches, and the sidecar's first decision of this command.
    // `git status`: no rule, nothing dangerous — the hook leaves it to Claude Code (no permissionDecision); timedRun
    // throws on any exit but 0.
    const warm = timedRun(hook, env, INPUT);
    const first = JSON.parse(warm.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
    if (first.hookSpecificOutput?.permissionDecision !== undefined)
      throw new Error(`the hook did not pass git status: ${JSON.stringify(first)}`);
    timedRun(empty, env, '');
    // Interleaved, so both see the same load on this (shared) machine.
    const hookMs: number[] = [];
    const nodeMs: number[] = [];
    let hookCpuMs = 0;
    let nodeCpuMs = 0;
    for (let i = 0; i < rounds; i++) {
      const h = timedRun(hook, env, INPUT);
      const n = timedRun(empty, env, '');
      hookMs.push(h.ms);
      nodeMs.push(n.ms);
      hookCpuMs += h.cpuMs;
      nodeCpuMs += n.cpuMs;
    }
    const ratio = median(hookMs) / median(nodeMs);
    options.log(
      `  hook ${round3(median(hookMs))} ms, node -e '' ${round3(median(nodeMs))} ms (medians of ${rounds}); CPU ${round3(hookCpuMs / rounds)} vs ${round3(nodeCpuMs / rounds)} ms`,
    );
    return {
      bench: BENCH,
      figures: [
        atMost(
          BENCH,
          "hook call vs node -e '' (median wall time)",
          round3(ratio),
          2,
          '×',
          `${rounds} interleaved runs each`,
        ),
        info(
          BENCH,
          'hook call, median wall time',
          round3(median(hookMs)),
          'ms',
          `p90 ${round3(percentile(hookMs, 90))} ms; spawn to exit, one decision over HTTP`,
        ),
        info(
          BENCH,
          "node -e '', median wall time",
          round3(median(nodeMs)),
          'ms',
          `p90 ${round3(percentile(nodeMs, 90))} ms`,
        ),
        // CPU time does not wait on a busy machine's scheduler (nor on the sidecar): the hook's own cost.
        info(
          BENCH,
          "hook call vs node -e '' (mean CPU time)",
          round3(hookCpuMs / nodeCpuMs),
          '×',
          `${round3(hookCpuMs / rounds)} vs ${round3(nodeCpuMs / rounds)} ms a call (user + system, 10 ms ticks summed over ${rounds})`,
        ),
      ],
      raw: { rounds, hookMs, nodeMs, hookCpuMs, nodeCpuMs },
    };
  } finally {
    await server.stop();
    removeDir(server.dataDir);
  }
}
