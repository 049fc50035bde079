// The shell analyzer: parses a bash command with tree-sitter and reports what runs, what it touches, what is dangerous.
import { Parser, type Language } from 'web-tree-sitter';
import type { ShellAnalysis } from './types.ts';
import { LruCache } from './lru.ts';
import { Deadline } from './deadline.ts';
import { AnalysisAbort, ScriptWalker, type WalkTools } from './walker.ts';
import { DEFAULT_EXPANSION_LIMITS, TOO_LARGE, type ExpansionLimits } from './limits.ts';

/** Limits and context of an analyzer. */
export interface ShellAnalyzerOptions {
  /** The sidecar's home: `~`, `$HOME` and `${HOME}` expand to it. */
  home: string;
  /** Largest command analysed, in bytes (default 64 KiB); larger ones are not analysed (ok: false). */
  maxBytes?: number;
  /** Deepest nesting of re-parsed code (`bash -c`, `eval`, `$(…)`, …) followed (default 8). */
  maxDepth?: number;
  /** Time budget for one analysis, parse included (default 50 ms). */
  timeoutMs?: number;
  /** How large variables, words, arrays and all expansions of one analysis may grow (limits.ts; defaults there). */
  expansion?: Partial<ExpansionLimits>;
  /** Analyses kept by command text (default 2048). */
  cacheSize?: number;
  /**
   * Keep an analysis only when its command is seen a second time (default true): unique commands then pass through
   * without churning the cache (see SeenOnce in lru.ts). False keeps every analysis.
   */
  cacheOnSecondSight?: boolean;
  /**
   * Parse the plainest command lines, and rebuild the plain statements of parsed scripts, without tree-sitter
   * (default true; simple-parse.ts builds the same tree). False only for tests that compare the two paths.
   */
  simpleParse?: boolean;
}

/** Analyses bash commands; synchronous and cached by text. */
export interface ShellAnalyzer {
  /**
   * `files`: files known to hold these contents (keyed by the path as the command may name it, no leading `./`),
   * such as scripts the agent wrote earlier in its session: running one (`bash x.sh`, `./x.sh`, `. x.sh`) walks its
   * contents. An analysis given files is not cached.
   */
  analyze(command: string, files?: ReadonlyMap<string, string>): ShellAnalysis;
}

/** Builds an analyzer over a loaded tree-sitter-bash Language (the engine does no I/O: the service loads it). */
export function createShellAnalyzer(language: Language, options: ShellAnalyzerOptions): ShellAnalyzer {
  const {
    home,
    maxBytes = 64 * 1024,
    maxDepth = 8,
    timeoutMs = 50,
    cacheSize = 2048,
    cacheOnSecondSight = true,
    simpleParse = true,
  } = options;
  const expansion: ExpansionLimits = { ...DEFAULT_EXPANSION_LIMITS, ...options.expansion };
  const parser = new Parser();
  parser.setLanguage(language);
  // Analyses are synchronous, so one parser and one clock serve them all.
  const deadline = new Deadline();
  const tools: WalkTools = {
    parser,
    deadline,
    parseOptions: { progressCallback: () => deadline.passed() },
    simpleParse,
  };
  const cache = new LruCache<string, ShellAnalysis>(cacheSize, { admitOnSecondSight: cacheOnSecondSight });

  const run = (command: string, budgetMs = timeoutMs, files?: ReadonlyMap<string, string>): ShellAnalysis => {
    const size = Buffer.byteLength(command, 'utf8');
    if (size > maxBytes) return failed(`command is ${size} bytes, over the ${maxBytes}-byte analysis limit`);
    if (command.includes('\u0000')) return failed('command contains a NUL byte');
    deadline.start(budgetMs);
    const walker = new ScriptWalker(tools, home, { maxDepth, timeoutMs: budgetMs, expansion });
    if (files) for (const [path, contents] of files) walker.state.written.set(path, contents);
    try {
      walker.script(command, { depth: 0, vars: new Map() });
    } catch (error) {
      if (error instanceof AnalysisAbort) return failed(error.message, error.transient, walker);
      // Thousands of nested `( … )` exhaust the stack before a depth check runs: refuse to judge it, don't crash (a 500).
      if (error instanceof RangeError && /call stack/i.test(error.message))
        return failed('command nests too deeply to analyse');
      // A string or array past what V8 can hold (a limit above let it through): too large, not a crash.
      if (error instanceof RangeError) return failed(`${TOO_LARGE}: ${error.message}`);
      // Any other failure is a bug, but the caller is owed a verdict, not an exception (a hook whose call fails lets
      // the tool run): the command is asked about, with the cause in the reason.
      return failed(`the analyzer failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const result: ShellAnalysis = {
      ok: true,
      commands: walker.commands,
      findings: dedupe(walker.findings),
      paths: walker.paths,
      readOnly: walker.readOnly,
    };
    // An analysis that expanded a lot holds that much: kept out of the cache, so 2,048 of them cannot pile up.
    if (walker.budget.used > UNCACHED_EXPANSION) TRANSIENT.add(result);
    return result;
  };

  // The first analyses run cold (wasm and JIT warm-up) and could hit the time limit: warm up once, uncached.
  run(WARM_UP, 5_000);

  return {
    analyze(command: string, files?: ReadonlyMap<string, string>): ShellAnalysis {
      if (files && files.size > 0) return Object.freeze(run(command, timeoutMs, files));
      const hit = cache.get(command);
      if (hit) return hit;
      const result = Object.freeze(run(command));
      // A timeout can be a GC pause: it is not cached, so the next call tries again.
      if (!TRANSIENT.has(result)) cache.set(command, result);
      return result;
    },
  };
}

/** A command exercising most node types, analysed once when the analyzer is built. */
const WARM_UP = `cd "$HOME/w" && x=$(echo a | base64 -d); for f in *.ts; do grep -n "$f" <<< 'y' | sh -c 'rm -rf "$0"' ~/b > /dev/null 2>&1; done; sudo git -C . push -f origin +main; cat <<'EOF'\nz\nEOF`;

/** Characters an analysis may expand and still be cached (a cached analysis keeps its words). */
const UNCACHED_EXPANSION = 16 * 1024;

/** Results that must not be cached (timeouts, large expansions). */
const TRANSIENT = new WeakSet<ShellAnalysis>();

/** A failed analysis keeps what was found before it stopped (protected paths still deny). */
function failed(error: string, transient = false, partial?: ScriptWalker): ShellAnalysis {
  const result: ShellAnalysis = {
    ok: false,
    error,
    commands: partial?.commands ?? [],
    findings: partial ? dedupe(partial.findings) : [],
    paths: partial?.paths ?? [],
    readOnly: false,
  };
  if (transient) TRANSIENT.add(result);
  return result;
}

/** The same finding on the same command text once (glob candidates and nested re-walks can repeat one). */
function dedupe(findings: ShellAnalysis['findings']): ShellAnalysis['findings'] {
  if (findings.length < 2) return findings;
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.id}\u0000${f.command ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
