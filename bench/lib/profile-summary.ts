// Summarises a V8 .cpuprofile: the functions with the most self and inclusive time, and self time by area of the
// code, each as a share of the busy samples and, given the requests served in the window, as CPU µs per request.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The area of the code a frame belongs to (what a change would touch). */
export function areaOf(functionName: string, url: string): string {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 and native, unattributed (program)';
  const m = /\/(?:dist[\w-]*|src)\/(engine\/shell|engine|service|store|http|cli)\//.exec(url);
  if (m)
    return m[1] === 'engine/shell'
      ? 'shell analysis (engine/shell)'
      : m[1] === 'engine'
        ? 'engine: decide, rules, paths, redact'
        : m[1]!;
  if (url.includes('better-sqlite3')) return 'store';
  if (url.includes('node_modules/')) return `package ${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? '?'}`;
  if (url.startsWith('node:')) return 'node internals (http, streams, timers)';
  if (url.startsWith('wasm')) return 'shell analysis (engine/shell)'; // tree-sitter
  if (/^RegExp: /.test(functionName)) return 'regular expressions';
  return 'native (syscalls, JSON, C++ builtins)';
}

/** Top functions of a profile as printable lines: share of busy samples and, with `requests`, µs per request. */
export function summariseProfile(file: string, top = 25, requests?: number): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules\/|src\/|dist\/)/, '$1')}:${n.callFrame.lineNumber + 1}`;
  const time = new Map<number, number>();
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  // The probe's own work (stopping the profiler, serialising it) is not the server's.
  const probe = (id: number): boolean => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      if (byId.get(cur)!.callFrame.url.includes('server-probe')) return true;
    return false;
  };
  for (const id of time.keys()) if (probe(id)) time.delete(id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let busy = 0;
  for (const [id, t] of time) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += t;
    self.set(label(node), (self.get(label(node)) ?? 0) + t);
    const area = areaOf(node.callFrame.functionName, node.callFrame.url);
    areas.set(area, (areas.get(area) ?? 0) + t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + t);
    }
  }
  // timeDeltas are microseconds: busy time over the requests is the profiled CPU per request.
  const perRequest = (t: number) => (requests ? `${(t / requests).toFixed(2).padStart(7)} µs  ` : '');
  const list = (m: Map<string, number>, n = top) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, t]) => `${((t / busy) * 100).toFixed(1).padStart(5)}%  ${perRequest(t)}${k}`);
  const head = requests
    ? `busy ${(busy / 1000).toFixed(0)} ms over ${requests} requests: ${(busy / requests).toFixed(1)} µs of main-thread CPU per request`
    : `busy ${(busy / 1000).toFixed(0)} ms`;
  return [
    head,
    '',
    'self time by area:',
    ...list(areas, 20),
    '',
    'self time by function:',
    ...list(self),
    '',
    'inclusive time:',
    ...list(inclusive),
  ].join('\n');
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/**
 * Top allocation sites of a V8 sampling heap profile (`HeapProfiler.stopSampling`), by sampled bytes, each with
 * its caller; `perRequest` divides the total by that many requests.
 */
export function summariseHeapProfile(file: string, top = 25, perRequest?: number): string {
  const root = (JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head;
  const label = (f: HeapNode['callFrame']) =>
    `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules\/|src\/|dist\/)/, '$1')}:${f.lineNumber + 1}`;
  const sites = new Map<string, number>();
  let total = 0;
  const stack: [HeapNode, string][] = [[root, '']];
  while (stack.length) {
    const [node, caller] = stack.pop()!;
    const here = label(node.callFrame);
    if (node.selfSize > 0) {
      const key = caller ? `${here}  ← ${caller}` : here;
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) stack.push([child, here]);
  }
  const head = `sampled ${(total / 1024).toFixed(0)} KB${perRequest ? `, ${(total / perRequest / 1024).toFixed(1)} KB per request` : ''}; top sites (function ← caller):`;
  return [
    head,
    ...[...sites]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, b]) => `${((b / total) * 100).toFixed(1).padStart(5)}%  ${k}`),
  ].join('\n');
}
