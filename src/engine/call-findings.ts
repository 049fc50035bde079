// What a call brings to the pipeline: its shell commands analysed (with the files the agent wrote earlier), and every
// finding — the analysis's, a file tool's write of a start-up file or hook, a fetched URL's, an MCP server's hint.
import type { NormalizedCall } from './normalize.ts';
import { absolutePath, relativeToDir } from './paths.ts';
import type { ShellAnalysis } from './shell/types.ts';
import { fetchFindings, fileWriteFindings } from './catalog/danger.ts';
import { withoutDisposableDeletes } from './disposable-deletes.ts';
import type { Finding } from './types.ts';
import type { DecideRequest, EngineContext } from './decide.ts';

/** Every command the call's arguments carry, analysed on its own (an unclosed quote in one must not swallow another). */
export function analyzeCall(
  request: DecideRequest,
  call: NormalizedCall,
  ctx: EngineContext,
): ShellAnalysis | undefined {
  if (call.command === undefined) return undefined;
  const scripts = request.files && scriptNames(request.files, call.cwd, ctx.home);
  return mergeAnalyses(
    [call.command, ...(call.otherCommands ?? [])].map((command) => ctx.analyzer.analyze(command, scripts)),
  );
}

/** The findings of a call: its analysis's (but for disposable deletes), its arguments', its file writes and fetches. */
export function callFindings(
  request: DecideRequest,
  call: NormalizedCall,
  analysis: ShellAnalysis | undefined,
  ctx: EngineContext,
): Finding[] {
  // A recursive delete of build output inside the working directory is no danger (disposable-deletes.ts).
  const findings = analysis
    ? withoutDisposableDeletes(analysis.findings, analysis, {
        home: ctx.home,
        cwd: call.cwd,
        realpath: ctx.realpath,
        gitignore: request.gitignore,
        remoteCredentials: request.remoteCredentials,
      }).slice()
    : [];
  if (call.problem) findings.push({ id: 'unreadable-arguments', risk: 'medium', reason: call.problem });
  if (analysis && !analysis.ok)
    findings.push({
      id: 'unanalysable-command',
      risk: 'medium',
      reason: `the command could not be analysed: ${analysis.error ?? 'unknown error'}`,
    });
  // A file tool writing a start-up file, a git hook, a system file or a device: judged as a shell write there is.
  if (call.kind === 'write' || call.kind === 'edit')
    findings.push(
      ...fileWriteFindings(
        call.paths.map((p) => absolutePath(p, ctx.home, call.cwd)),
        ctx.home,
      ),
    );
  for (const url of fetchUrls(call)) findings.push(...fetchFindings(url));
  // A server's own word that its tool destroys raises the risk; its readOnlyHint lowers nothing (an untrusted hint).
  if (request.call.annotations?.destructiveHint === true)
    findings.push({
      id: 'mcp-destructive-tool',
      risk: 'medium',
      reason: `the MCP server marks ${call.rawTool} as destructive (destructiveHint)`,
    });
  return findings;
}

/** Known files under the names a command may use for them: the absolute path, and the path relative to the cwd. */
export function scriptNames(
  files: ReadonlyMap<string, string>,
  cwd: string | undefined,
  home: string,
): ReadonlyMap<string, string> | undefined {
  if (files.size === 0) return undefined;
  const base = cwd === undefined ? undefined : absolutePath(cwd, home);
  const names = new Map<string, string>();
  for (const [path, contents] of files) {
    names.set(path, contents);
    const relative = base === undefined ? undefined : relativeToDir(path, base);
    if (relative !== undefined && relative !== '.') names.set(relative, contents);
  }
  return names;
}

/** One analysis of several commands: every command, finding and path; ok and read-only only when each is. */
export function mergeAnalyses(analyses: ShellAnalysis[]): ShellAnalysis {
  if (analyses.length === 1) return analyses[0]!;
  const failed = analyses.find((a) => !a.ok);
  return {
    ok: failed === undefined,
    ...(failed ? { error: failed.error } : {}),
    commands: analyses.flatMap((a) => a.commands),
    findings: analyses.flatMap((a) => a.findings),
    paths: analyses.flatMap((a) => a.paths),
    readOnly: analyses.every((a) => a.readOnly),
  };
}

/** Every URL a fetch call names. */
export function fetchUrls(call: NormalizedCall): string[] {
  return call.url === undefined ? [] : [call.url, ...(call.otherUrls ?? [])];
}
