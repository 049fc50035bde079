// The pattern suggested for "allow for this session" and "always allow": the exact command, or a narrow prefix that reaches no new danger.
import type { NormalizedCall } from './normalize.ts';
import { absolutePath } from './paths.ts';
import { exactSpecOf } from './rules/command-spec.ts';
import { compileCommandSpec, type SpecMatcher } from './rules/matcher.ts';
import type { ShellAnalyzer } from './shell/analyzer.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/types.ts';
import type { Finding } from './types.ts';

/** Arguments appended to a candidate's stem to see whether its ` *` would also allow something worse. */
const DANGEROUS_TAILS = [
  '/',
  '~',
  '/*',
  '-rf /',
  '-rf ~',
  '--force',
  '-f',
  '--hard',
  '-9 -1',
  '-R 777 /',
  '--recursive /',
  '/dev/sda',
  '/var/www',
  '-delete',
  '--delete',
  '-exec rm -rf / ;',
  '--no-preserve-root /',
];

const SUBCOMMAND_RE = /^[A-Za-z][A-Za-z0-9:_.@-]*$/;

/** Suggests an allow pattern for the call that asked; undefined when there is nothing sensible to suggest. */
export function suggestPattern(
  call: NormalizedCall,
  analysis: ShellAnalysis | undefined,
  analyzer: ShellAnalyzer,
  home: string,
): string | undefined {
  if (analysis) {
    const target = commandThatAsked(analysis);
    const spec = target && suggestCommandSpec(target, analysis.findings, analyzer);
    return spec ? `${call.tool}(${spec})` : undefined;
  }
  if (call.paths.length > 0) return `${call.tool}(${absolutePath(call.paths[0]!, home, call.cwd)})`;
  if (call.url) {
    try {
      return `${call.tool}(domain:${new URL(call.url).hostname})`;
    } catch {
      return undefined;
    }
  }
  return call.tool;
}

/** The command that raised the highest finding, else the first literal one. */
function commandThatAsked(analysis: ShellAnalysis): SimpleCommand | undefined {
  const order = { high: 3, medium: 2, low: 1 } as const;
  const top = [...analysis.findings].sort((a, b) => order[b.risk] - order[a.risk])[0];
  return (
    (top && analysis.commands.find((c) => c.text === top.command && c.literal)) ??
    analysis.commands.find((c) => c.literal)
  );
}

/**
 * The spec for one simple command, never wider than what the reviewer saw unless that is harmless:
 * - a command with a high-risk finding gets its exact command (`rm -rf /` → `rm -rf /`, never `rm -rf *`);
 * - otherwise its stem (program, up to two subcommands, stable flags) followed by ` *`, else the whole command
 *   followed by ` *`, each only when appending a dangerous tail cannot raise a finding the approved command did
 *   not have (`kill -9 *` would cover `kill -9 -1`);
 * - else the exact command (`kill -9 4242`), which always exists: "allow for this session" works for every ask.
 * A command whose words contain `*` gets its exact command too, the star quoted (a glob would reach further).
 */
export function suggestCommandSpec(cmd: SimpleCommand, findings: readonly Finding[], analyzer: ShellAnalyzer): string {
  const words = cmd.words;
  const exact = exactSpecOf(words);
  const own = findings.filter((f) => f.command === cmd.text);
  if (own.some((f) => f.risk === 'high') || words.some((w) => w.includes('*'))) return exact;
  const programAt = words.length - cmd.argv.length;
  let end = programAt + 1;
  let subcommands = 0;
  while (end < words.length && subcommands < 2 && SUBCOMMAND_RE.test(words[end]!)) {
    end++;
    subcommands++;
  }
  while (end < words.length && /^-{1,2}[A-Za-z]/.test(words[end]!) && !words[end]!.includes('=')) end++;
  const known = new Set(own.map((f) => f.id));
  for (const length of end < words.length ? [end, words.length] : [words.length]) {
    const stem = exactSpecOf(words.slice(0, length));
    if (!reachesNewDanger(stem, known, analyzer)) return `${stem} *`;
  }
  return exact;
}

/** Whether `<stem> *` would also allow a command with a finding outside `known`. */
function reachesNewDanger(stem: string, known: ReadonlySet<string>, analyzer: ShellAnalyzer): boolean {
  // Compiled only once a probe has a new finding (most probes of a harmless stem have none).
  let matcher: SpecMatcher | undefined;
  for (const tail of DANGEROUS_TAILS) {
    const probe = analyzer.analyze(`${stem} ${tail}`);
    if (!probe.findings.some((f) => !known.has(f.id))) continue;
    matcher ??= compileCommandSpec(`${stem} *`);
    for (const c of probe.commands) if (matcher.test({ words: c.words, line: c.words.join(' ') })) return true;
  }
  return false;
}
