// Preloaded into a benchmarked server by bench/profile.ts (`node --require bench/lib/server-probe.cjs …`).
// The first SIGUSR2 starts a window, the second ends it and writes into $TOOLGATE_PROBE_DIR:
//   gc.json   — garbage collections by kind (count, total and longest pause) and event-loop delay in the window;
//   cpu.cpuprofile — a V8 CPU profile of the window alone (no start-up, no warm-up) when $TOOLGATE_PROBE_CPU is 1;
//   heap.json — a V8 sampling heap profile of the window when $TOOLGATE_PROBE_HEAP is `allocated` (everything
//               allocated) or `survived` (only objects that outlived a scavenge: what makes GC dear).
// CommonJS and plain JavaScript so it loads before the server, without a loader. Main thread only.
'use strict';
const { isMainThread } = require('node:worker_threads');
const { monitorEventLoopDelay, PerformanceObserver: Observer } = require('node:perf_hooks');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const inspector = require('node:inspector');

const dir = process.env.TOOLGATE_PROBE_DIR;
const heapMode = process.env.TOOLGATE_PROBE_HEAP;
const cpuProfile = process.env.TOOLGATE_PROBE_CPU === '1';
if (isMainThread && dir) {
  const KINDS = {
    1: 'scavenge',
    2: 'minor mark-sweep',
    4: 'mark-compact',
    8: 'incremental marking',
    16: 'weak callbacks',
  };
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let gcs = {};
  let open = false;
  const observer = new Observer((list) => {
    if (!open) return;
    for (const entry of list.getEntries()) {
      const kind = KINDS[entry.detail?.kind] ?? String(entry.detail?.kind);
      const s = (gcs[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
      s.count++;
      s.totalMs += entry.duration;
      s.maxMs = Math.max(s.maxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const session = new inspector.Session();
  session.connect();
  let started = 0;

  process.on('SIGUSR2', () => {
    if (!open) {
      open = true;
      gcs = {};
      started = performance.now();
      delay.reset();
      delay.enable();
      if (cpuProfile)
        session.post('Profiler.enable', () =>
          session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')),
        );
      if (heapMode) {
        session.post('HeapProfiler.enable', () =>
          session.post('HeapProfiler.startSampling', {
            samplingInterval: 4096,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: heapMode === 'allocated',
          }),
        );
      }
      return;
    }
    open = false;
    delay.disable();
    const ms = (n) => Math.round((n / 1e6) * 100) / 100;
    const gc = {
      windowMs: Math.round(performance.now() - started),
      gcs,
      loopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    };
    // gc.json last: the bench waits for it, so everything else is written by then.
    const done = () => writeFileSync(join(dir, 'gc.json'), JSON.stringify(gc));
    const heap = (next) => {
      if (!heapMode) return next();
      session.post('HeapProfiler.stopSampling', (error, result) => {
        if (!error) writeFileSync(join(dir, 'heap.json'), JSON.stringify(result.profile));
        next();
      });
    };
    if (!cpuProfile) return heap(done);
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, 'cpu.cpuprofile'), JSON.stringify(result.profile));
      heap(done);
    });
  });
}
