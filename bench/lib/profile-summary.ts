// Summarises a V8 .cpuprofile: the functions with the most self time and the most inclusive time.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Top functions of a profile as printable lines (percent of non-idle samples). */
export function summariseProfile(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules\/|src\/)/, '$1')}:${n.callFrame.lineNumber + 1}`;
  const time = new Map<number, number>();
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const [id, t] of time) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += t;
    self.set(label(node), (self.get(label(node)) ?? 0) + t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + t);
    }
  }
  const list = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, t]) => `${((t / busy) * 100).toFixed(1).padStart(5)}%  ${k}`);
  return ['self time (share of busy samples):', ...list(self), '', 'inclusive time:', ...list(inclusive)].join('\n');
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
  const label = (f: HeapNode['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules\/|src\/|dist\/)/, '$1')}:${f.lineNumber + 1}`;
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
  return [head, ...[...sites].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, b]) => `${((b / total) * 100).toFixed(1).padStart(5)}%  ${k}`)].join('\n');
}
