// The composition root of the service layer: store, analyzer, policy, approvals and decider, built from a Config.
import { existsSync, lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { projectGitignore } from './project-gitignore.ts';
import { projectRemoteCredentials } from './project-git-remotes.ts';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { extraProtectedPaths, type Config } from '../config.ts';
import { buildAliasIndex } from '../engine/catalog/tool-aliases.ts';
import type { EngineContext } from '../engine/decide.ts';
import { redactSecretsToJson } from '../engine/redact.ts';
import type { ShellAnalyzer } from '../engine/shell/analyzer.ts';
import { openStore } from '../store/open-store.ts';
import type { Store } from '../store/types.ts';
import { ApprovalService } from './approvals.ts';
import { loadShellAnalyzer } from './bash-language.ts';
import { perTurn } from './per-turn.ts';
import { Decider, type VerdictStage } from './decider.ts';
import { ApprovalEvents } from './events.ts';
import { PolicySource } from './policy-source.ts';
import { ensureDataDir } from './tokens.ts';

/** The running service: everything a front end (HTTP, CLI) needs. */
export interface Toolgate {
  config: Config;
  store: Store;
  engine: EngineContext;
  policy: PolicySource;
  approvals: ApprovalService;
  decider: Decider;
  events: ApprovalEvents;
  /** Adds an extension stage after the built-in pipeline. */
  addStage(stage: VerdictStage): void;
  close(): Promise<void>;
}

/** Options for building the service; tests pass `dbPath: ':memory:'` and their own home. */
export interface ToolgateOptions {
  /** SQLite database path; defaults to `<dataDir>/toolgate.db` (ignored when the config names a PostgreSQL URL). */
  dbPath?: string;
  /**
   * A ready store (the service closes it with itself). Without one, the config chooses: PostgreSQL when it names a
   * database URL, else SQLite at `dbPath`.
   */
  store?: Store;
  /** Keys the approvals' call digests (the server derives it from the reviewer tokens: the same on every replica). */
  digestKey?: string;
  /** The home directory whose protected paths are guarded (defaults to the process's). */
  home?: string;
  /** A ready analyzer (tests share one). */
  analyzer?: ShellAnalyzer;
  now?: () => number;
}

/**
 * Resolves a path through symlinks where it exists on this host — and where a dangling symlink points: a write
 * through `proj/notes.txt -> ~/.ssh/authorized_keys` creates the target, so the link is judged by its target (that
 * target resolved as far as it exists). Undefined when nothing is at the path.
 */
export function realpathIfExists(path: string): string | undefined {
  return resolveLink(path, 0);
}

/** Links followed by hand before giving up (the kernel's own limit is 40). */
const MAX_LINKS = 40;

function resolveLink(path: string, depth: number): string | undefined {
  // On the decision path for every path a call touches (and each missing ancestor). existsSync answers without
  // building an exception, and for a path that exists realpath(3) is all that is needed.
  if (existsSync(path)) {
    try {
      return realpathSync.native(path);
    } catch {
      return undefined;
    }
  }
  // Nothing there — or a link whose target is missing (existsSync follows links): one lstat tells them apart. It
  // answers ENOENT without an exception; a path below a file (ENOTDIR) throws, and is rare.
  let stat: Stats | undefined;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (stat === undefined || !stat.isSymbolicLink() || depth >= MAX_LINKS) return undefined;
  let target: string;
  try {
    target = resolve(dirname(path), readlinkSync(path));
  } catch {
    return undefined;
  }
  return resolveNearest(target, depth + 1);
}

/** The resolved path, or its nearest resolvable ancestor's with the rest appended (the engine's realpathNearest). */
function resolveNearest(path: string, depth: number): string {
  let head = path;
  let tail = '';
  while (head !== '' && head !== '/') {
    const real = resolveLink(head, depth);
    if (real !== undefined) return real === '/' ? tail || '/' : real + tail;
    const cut = head.lastIndexOf('/');
    tail = head.slice(cut) + tail;
    head = head.slice(0, cut);
  }
  return path;
}

/** Builds the service from a config. */
export async function createToolgate(config: Config, options: ToolgateOptions = {}): Promise<Toolgate> {
  const dbPath = options.dbPath ?? join(config.dataDir, 'toolgate.db');
  if (dbPath !== ':memory:' || config.databaseUrl) ensureDataDir(config.dataDir);
  const home = options.home ?? config.agentHome ?? homedir();
  // A server's SQLite store checkpoints its write-ahead log from a worker, once a second (src/store/checkpointer.ts);
  // a PostgreSQL store listens for the other replicas' changes.
  const store =
    options.store ??
    (await openStore(
      { databaseUrl: config.databaseUrl, dataDir: config.dataDir, sqlitePath: dbPath },
      { server: true },
    ));
  const aliases = buildAliasIndex(config.aliases);
  // 1024 analyses (~2–3 KB each): repeated commands are answered by the verdict cache before they get here.
  const analyzer = options.analyzer ?? (await loadShellAnalyzer({ home, cacheSize: 1024 }));
  const engine: EngineContext = {
    operatorMode: config.mode,
    askFallback: config.askFallback,
    home,
    dataDir: config.dataDir,
    extraProtected: extraProtectedPaths(config),
    aliases,
    analyzer,
    // Once per path per turn of the event loop (see per-turn.ts); every cached verdict repeats its lookups.
    realpath: perTurn(realpathIfExists),
    readOnlyTools: config.readOnlyTools,
  };
  const events = new ApprovalEvents();
  const policy = new PolicySource(store, aliases, home);
  const approvals = new ApprovalService({
    store,
    events,
    approvalTimeoutMs: config.approvalTimeoutMs,
    maxPendingPerAgent: config.maxPendingPerAgent,
    maxPendingPerToken: config.maxPendingPerToken,
    maxPendingTotal: config.maxPendingTotal,
    digestKey: options.digestKey,
    now: options.now,
  });
  await approvals.start();
  const stages: VerdictStage[] = [];
  const decider = new Decider({
    store,
    policy,
    engine,
    approvals,
    redact: redactSecretsToJson,
    stages,
    auditArgsMaxBytes: config.auditArgsMaxBytes,
    gitignore: projectGitignore(),
    remoteCredentials: projectRemoteCredentials(),
  });
  return {
    config,
    store,
    engine,
    policy,
    approvals,
    decider,
    events,
    addStage: (stage) => stages.push(stage),
    async close() {
      await approvals.stop();
      await store.close();
    },
  };
}
