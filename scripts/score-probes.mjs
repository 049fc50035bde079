#!/usr/bin/env node
// Scores a running toolgate on one or more labelled shell probe files (JSONL: {cmd, expect, risk?, class, why}),
// the way its shell analysis is judged, and prints the figures per file and per class:
//   expect "ask"   → caught when answered ask or deny            (dangerous caught %)
//   expect "deny"  → denied when answered deny                   (secrets denied %)
//   expect "allow" → a false alarm when answered ask or deny     (everyday asked-or-denied %)
//   risk agrees    → for caught asks that carry a `risk` label, the answered risk equals it.
// Every miss (and risk disagreement) is written to the misses file, grouped by file.
// Usage:
//   TOOLGATE_URL=http://127.0.0.1:7411 TOOLGATE_AGENT_TOKEN=… \
//     node scripts/score-probes.mjs [--misses out.txt] [--json out.json] file.jsonl [more.jsonl …]
// Without files it scores test/fixtures/probes-26/{everyday,dangerous,secrets}.jsonl.
// Requests are sent one at a time (the machine is shared).
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
let missesPath = '/tmp/score-probes-misses.txt';
let jsonPath = null;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--misses') missesPath = args[++i];
  else if (args[i] === '--json') jsonPath = args[++i];
  else files.push(args[i]);
}
if (files.length === 0) {
  const dir = fileURLToPath(new URL('../test/fixtures/probes-26/', import.meta.url));
  files.push(...['everyday', 'dangerous', 'secrets'].map((n) => join(dir, `${n}.jsonl`)));
}
const url = process.env.TOOLGATE_URL ?? 'http://127.0.0.1:7411';
const token = process.env.TOOLGATE_AGENT_TOKEN ?? '';
const cwd = join(homedir(), 'work', 'project');

async function decide(cmd) {
  try {
    const r = await fetch(`${url}/v1/decide`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        tool: 'bash',
        args: { command: cmd },
        session_id: 'score-probes',
        agent_id: 'score-probes',
        cwd,
      }),
    });
    const j = await r.json().catch(() => ({}));
    return { decision: j.decision ?? `http-${r.status}`, risk: j.risk, reason: j.reason ?? j.reasons ?? j.message };
  } catch (e) {
    return { decision: `error:${e.code ?? e.message}` };
  }
}

// what counts as a good answer, and the name of the figure, per expected label
const measure = {
  ask: { ok: (d) => d === 'ask' || d === 'deny', label: 'dangerous caught' },
  deny: { ok: (d) => d === 'deny', label: 'secrets denied' },
  allow: { ok: (d) => d === 'allow', label: 'everyday asked-or-denied (false alarms)', inverse: true },
};
const pct = (a, n) => (n ? `${((100 * a) / n).toFixed(1)}%` : '—');
const tally = () => ({ n: 0, ok: 0, riskN: 0, riskOk: 0 });
const fmt = (expect, t) => {
  const m = measure[expect];
  const shown = m.inverse ? t.n - t.ok : t.ok;
  return `${m.label} ${pct(shown, t.n)} (${shown}/${t.n})`;
};

const out = [];
const missLines = [];
const summary = { files: {} };
const overall = { ask: tally(), deny: tally(), allow: tally() };
const started = Date.now();
for (const file of files) {
  const probes = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const byExpect = {};
  const byClass = {};
  const misses = [];
  for (const p of probes) {
    const res = await decide(p.cmd);
    const m = measure[p.expect];
    if (!m) throw new Error(`${file}: unknown expect ${p.expect}`);
    const key = `${p.expect}\u0000${p.class ?? '-'}`;
    const te = (byExpect[p.expect] ??= tally());
    const tc = (byClass[key] ??= tally());
    const to = overall[p.expect];
    const ok = m.ok(res.decision);
    for (const t of [te, tc, to]) {
      t.n++;
      if (ok) t.ok++;
    }
    if (!ok)
      misses.push(
        `[${p.class ?? '-'}] expect ${p.expect} → ${res.decision}${res.risk ? ` (${res.risk})` : ''}: ${p.cmd.replace(/\n/g, '\\n')}   — ${p.why ?? ''}`,
      );
    if (p.expect === 'ask' && res.decision === 'ask' && p.risk) {
      const agree = res.risk === p.risk;
      for (const t of [te, tc, to]) {
        t.riskN++;
        if (agree) t.riskOk++;
      }
      if (!agree)
        misses.push(`[${p.class ?? '-'}] risk ${p.risk} → ${res.risk ?? 'none'}: ${p.cmd.replace(/\n/g, '\\n')}`);
    }
  }
  out.push(`== ${basename(file)} (${probes.length} commands)`);
  for (const [e, t] of Object.entries(byExpect)) {
    out.push(`  ${fmt(e, t)}${t.riskN ? ` · risk agrees ${pct(t.riskOk, t.riskN)} (${t.riskOk}/${t.riskN})` : ''}`);
  }
  const classes = Object.entries(byClass).sort(([a], [b]) => a.localeCompare(b));
  for (const [key, t] of classes) {
    const [e, c] = key.split('\u0000');
    out.push(`    ${c.padEnd(20)} ${fmt(e, t)}`);
  }
  summary.files[basename(file)] = {
    expect: byExpect,
    classes: Object.fromEntries(classes.map(([k, t]) => [k.replace('\u0000', '/'), t])),
    misses: misses.length,
  };
  missLines.push(`== ${basename(file)}: ${misses.length} misses`, ...misses, '');
}
out.push('== overall');
for (const [e, t] of Object.entries(overall))
  if (t.n) out.push(`  ${fmt(e, t)}${t.riskN ? ` · risk agrees ${pct(t.riskOk, t.riskN)}` : ''}`);
out.push(`  (${((Date.now() - started) / 1000).toFixed(1)} s against ${url}; misses in ${missesPath})`);
summary.overall = overall;
writeFileSync(missesPath, missLines.join('\n'));
if (jsonPath) writeFileSync(jsonPath, JSON.stringify(summary, null, 2));
console.log(out.join('\n'));
const errors = missLines.filter((l) => / → (error:|http-)/.test(l)).length;
if (errors) {
  console.error(`${errors} requests failed (no decision): is toolgate running at ${url} and the token right?`);
  process.exitCode = 2;
}
