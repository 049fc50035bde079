// Freezes the shell analyzer's behaviour so a restructuring can prove it changed nothing (issue 26).
// Judges every command of the repository's labelled shell files through decide() (default mode, no rules, the
// corpus home) and records, per command, the decision, risk, reason, the analysis' finding ids, touched paths and
// read-only flag. Write a snapshot before a change and compare after it:
//   node --import tsx scripts/verdict-snapshot.ts --write /tmp/verdicts-before.json
//   node --import tsx scripts/verdict-snapshot.ts --compare /tmp/verdicts-before.json   # exit 1 on any difference
// The probe sets (test/fixtures/probes-*) are left out unless `--with-probes` is given: a probe set's held-out half
// must stay unseen by whoever changes the analyzer, and a compare prints the commands whose verdict changed.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAliasIndex } from '../src/engine/catalog/tool-aliases.ts';
import { decide } from '../src/engine/decide.ts';
import { compilePolicy } from '../src/engine/rules/policy.ts';
import { loadShellAnalyzer } from '../src/service/bash-language.ts';

const HOME = '/home/agent';
const CWD = `${HOME}/work/project`;
const root = fileURLToPath(new URL('..', import.meta.url));

/** Every labelled shell file in the repository: corpora, regressions, peer cases and probe sets. */
function sources(withProbes: boolean): string[] {
  const files = [
    'test/engine/regressions.jsonl',
    'test/engine/corpus-private.jsonl',
    'test/fixtures/corpus-shell-public.jsonl',
    'test/fixtures/peer-cases/commands.jsonl',
  ];
  for (const dir of readdirSync(join(root, 'test/fixtures'))) {
    if (!withProbes || !dir.startsWith('probes-')) continue;
    for (const f of readdirSync(join(root, 'test/fixtures', dir)))
      if (f.endsWith('.jsonl')) files.push(`test/fixtures/${dir}/${f}`);
  }
  return files;
}

function commands(withProbes: boolean): string[] {
  const seen = new Set<string>();
  for (const file of sources(withProbes)) {
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const cmd = (JSON.parse(line) as { cmd?: unknown }).cmd;
      if (typeof cmd === 'string') seen.add(cmd);
    }
  }
  return [...seen];
}

interface Verdict {
  decision: string;
  risk: string | null;
  reason: string;
  findings: string[];
  paths: string[];
  commands: string[];
  readOnly: boolean;
}

async function snapshot(withProbes: boolean): Promise<Record<string, Verdict>> {
  const analyzer = await loadShellAnalyzer({ home: HOME, timeoutMs: 5_000 });
  const aliases = buildAliasIndex();
  const policy = compilePolicy([], aliases, HOME);
  const ctx = {
    operatorMode: 'default' as const,
    askFallback: 'deny' as const,
    home: HOME,
    dataDir: `${HOME}/.toolgate`,
    aliases,
    analyzer,
  };
  const out: Record<string, Verdict> = {};
  for (const command of commands(withProbes)) {
    const v = decide({ call: { tool: 'bash', args: { command }, cwd: CWD } }, policy, ctx);
    const a = analyzer.analyze(command);
    out[command] = {
      decision: v.decision,
      risk: v.risk,
      reason: v.reason,
      findings: a.findings.map((f) => f.id).sort(),
      paths: a.paths.map((p) => `${p.kind}:${p.base ?? ''}:${p.path}`).sort(),
      commands: a.commands.map((c) => c.argv.join(' ')),
      readOnly: a.readOnly,
    };
  }
  return out;
}

const withProbes = process.argv.includes('--with-probes');
const [mode, file] = process.argv.slice(2).filter((a) => a !== '--with-probes');
if ((mode !== '--write' && mode !== '--compare') || !file) {
  console.error('usage: verdict-snapshot.ts [--with-probes] --write FILE | --compare FILE');
  process.exit(2);
}
const now = await snapshot(withProbes);
if (mode === '--write') {
  writeFileSync(file, JSON.stringify(now, null, 1));
  console.log(`${Object.keys(now).length} commands written to ${file}`);
} else {
  const before = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Verdict>;
  let differ = 0;
  for (const [cmd, was] of Object.entries(before)) {
    const is = now[cmd];
    if (!is) continue;
    if (JSON.stringify(was) !== JSON.stringify(is)) {
      differ++;
      console.log(`- ${JSON.stringify(cmd)}\n    before ${JSON.stringify(was)}\n    after  ${JSON.stringify(is)}`);
    }
  }
  const compared = Object.keys(before).filter((c) => now[c]).length;
  console.log(`${compared} commands compared, ${differ} differ`);
  process.exit(differ === 0 ? 0 : 1);
}
