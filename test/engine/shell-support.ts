// Test support for the shell analyzer: loads the grammar once and judges commands through the real pipeline.
import { readFileSync } from 'node:fs';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { decide } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import type { ShellAnalyzer } from '../../src/engine/shell/analyzer.ts';
import type { ShellAnalysis } from '../../src/engine/shell/types.ts';
import { loadShellAnalyzer } from '../../src/service/bash-language.ts';
import type { Decision, Risk } from '../../src/engine/types.ts';

/** The home the corpus runs in; `cwd` is a project inside it, as the public scorer does. */
export const HOME = '/home/agent';
export const CWD = `${HOME}/work/project`;

/** One labelled corpus line. */
export interface CorpusCase {
  cmd: string;
  expect: Decision;
  risk?: Risk | null;
  why?: string;
}

/** The outcome of one command through the pipeline in `default` mode with no rules. */
export interface Judgement {
  decision: Decision;
  risk: Risk | null;
  reason: string;
}

let analyzer: Promise<ShellAnalyzer> | undefined;

/** The shared analyzer (the grammar loads once per test file). */
export function sharedAnalyzer(): Promise<ShellAnalyzer> {
  // Tests judge verdicts, not speed: a generous time limit keeps a loaded CI machine from failing them.
  analyzer ??= loadShellAnalyzer({ home: HOME, timeoutMs: 2_000 });
  return analyzer;
}

/** A judge: bash commands through decide() with an empty policy, operator mode `default`. */
export async function createJudge(): Promise<(command: string) => Judgement> {
  const a = await sharedAnalyzer();
  const aliases = buildAliasIndex();
  const policy = compilePolicy([], aliases, HOME);
  const ctx = {
    operatorMode: 'default' as const,
    askFallback: 'deny' as const,
    home: HOME,
    dataDir: `${HOME}/.toolgate`,
    aliases,
    analyzer: a,
  };
  return (command) => {
    const v = decide({ call: { tool: 'bash', args: { command }, cwd: CWD } }, policy, ctx);
    return { decision: v.decision, risk: v.risk, reason: v.reason };
  };
}

/** Reads a JSONL corpus. */
export function readCorpus(path: string): CorpusCase[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as CorpusCase);
}

/** Does a judgement meet a labelled expectation? (`deny` also meets `ask`, as in the scorer; risk must agree on asks.) */
export function meets(c: CorpusCase, j: Judgement): boolean {
  if (c.expect === 'ask')
    return (j.decision === 'deny' || j.decision === 'ask') && (j.decision === 'deny' || !c.risk || j.risk === c.risk);
  return j.decision === c.expect;
}

/** True when an analysis refused a tree tree-sitter-bash misread (src/engine/shell/misreadings.ts), here or nested. */
export function misreadByTreeSitter(analysis: ShellAnalysis): boolean {
  const misread = (text: string | undefined): boolean => text?.includes('cannot parse the command reliably') ?? false;
  return misread(analysis.error) || analysis.findings.some((f) => misread(f.reason));
}
