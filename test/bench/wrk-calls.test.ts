// The benchmarks' one-connection latency (the agent's view, docs/performance.md): every call timed once, as it was.
// wrk's own figures add calls for coordinated omission; these must not.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { hasWrk, runWrk } from '../../bench/lib/wrk.ts';

const EVERY = 200; // one call in EVERY is held back
const HELD_MS = 30;

test(
  'one connection: each call is timed once, and a pause delays one call, not a hundred',
  {
    skip: !(await hasWrk()) && 'wrk is not installed (apt-get install wrk)',
  },
  async () => {
    let served = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        served += 1;
        const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"decision":"allow"}');
        if (served % EVERY === 0) setTimeout(answer, HELD_MS);
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-wrk-'));
    try {
      const bodies = join(dir, 'bodies.jsonl');
      writeFileSync(bodies, '{"tool":"Bash","args":{"command":"git status"}}\n');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await runWrk({
        url,
        bodiesFile: bodies,
        token: 't',
        unique: false,
        runId: 'w',
        connections: 1,
        seconds: 2,
      });
      const calls = run.calls!;
      assert.equal(calls.n, run.requests, 'every answered call timed once');
      assert.ok(run.requests > 2 * EVERY, `enough calls for held ones to be among them: ${run.requests}`);
      // One connection, one call after another: the calls' own latencies cannot add up to more than the run lasted.
      assert.ok(calls.mean * calls.n <= run.durationUs, `${calls.mean} µs × ${calls.n} within ${run.durationUs} µs`);
      // 0.5 % of the calls were held back 30 ms: the slowest saw it, the 99th percentile did not.
      assert.ok(calls.max >= HELD_MS * 1000, `max ${calls.max} µs`);
      assert.ok(calls.p99 < (HELD_MS * 1000) / 2, `p99 ${calls.p99} µs`);
      // The control: wrk's own figures for the same run count calls that were never made.
      assert.ok(run.latencyUs.mean * run.requests > run.durationUs, `wrk: ${run.latencyUs.mean} µs × ${run.requests}`);
      assert.ok(run.latencyUs.p99 > calls.p99, `wrk's p99 ${run.latencyUs.p99} µs, the calls' ${calls.p99} µs`);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('more than one connection: calls cannot be paired, so they are not timed one by one', () => {
  assert.throws(
    () =>
      runWrk({
        url: 'http://127.0.0.1:9',
        bodiesFile: '/nonexistent',
        token: 't',
        unique: false,
        runId: 'w',
        connections: 2,
        seconds: 1,
        timeEachCall: true,
      }),
    /one connection only/,
  );
});
