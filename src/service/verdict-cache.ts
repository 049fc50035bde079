// Memoised verdicts for repeated calls: agents repeat the same commands all day, and the pipeline is pure.
import { decide, type DecideRequest, type EngineContext, type Verdict } from '../engine/decide.ts';
import { redactVerdict } from '../engine/redact.ts';
import type { Policy } from '../engine/rules/policy.ts';
import { SeenOnce } from '../engine/shell/lru.ts';

/** Options of the cache. */
export interface VerdictCacheOptions {
  /** Verdicts kept (least recently used go first). */
  size?: number;
  /** Calls whose key is longer than this are decided every time (a large script would only crowd the cache out). */
  maxKeyLength?: number;
  /**
   * Keep a verdict only when its call is seen a second time (default true): a call made once — a unique command —
   * is decided and answered, and leaves nothing behind (see SeenOnce). False keeps every verdict.
   */
  cacheOnSecondSight?: boolean;
}

/** A verdict as it is stored: masked, with its arguments and findings as JSON. */
export interface Recorded<V extends Verdict = Verdict> {
  verdict: V;
  args: unknown;
  argsJson: string;
  findingsJson: string;
}

interface Entry {
  /** The key it was stored under: a hit moves the entry to the back under this string, not the request's copy. */
  key: string;
  verdict: Verdict;
  /** Every symlink lookup the pipeline made, with its answer: the verdict holds only while they answer the same. */
  probes: [path: string, real: string | undefined][];
}

/**
 * A verdict depends on the request, the policy snapshot, the engine context, the clock (rules expire) and what
 * `realpath` answers about the file system. The cache is emptied when the policy object changes, an engine setting is replaced, or the next
 * rule expiry passes, and every hit repeats the realpath lookups of the original decision: a symlink created
 * since then makes it decide afresh. Explain requests are never cached (their trace is per request). A call is kept
 * from the second time it is seen: one-off calls leave nothing behind, so a stream of unique commands neither evicts
 * the calls agents repeat nor fills the old generation with entries no one reads.
 */
export class VerdictCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * How each verdict the cache holds was recorded (null until its first record). Only those are worth remembering:
   * a verdict the cache does not hold is never seen again.
   */
  private readonly recorded = new WeakMap<Verdict, Recorded<Verdict> | null>();
  /** Keys of calls seen once (undefined: every call is kept). */
  private readonly seen: SeenOnce | undefined;
  private policy: Policy | undefined;
  /** The engine settings the cached verdicts were decided under (settingsHold). */
  private settings:
    Pick<EngineContext, 'operatorMode' | 'askFallback' | 'dataDir' | 'extraProtected' | 'readOnlyTools'> | undefined;
  private validUntil = Number.POSITIVE_INFINITY;
  private readonly size: number;
  private readonly maxKeyLength: number;

  /** The last key made for shared arguments (shareArgs), and the request it was made for (keyOf). */
  private readonly madeKeys = new WeakMap<object, { key: string; request: DecideRequest }>();

  /** Where the realpath answers of the decision being made go (decide() is synchronous: one at a time). */
  private probes: Entry['probes'] = [];
  /**
   * The context a miss is decided with: the live engine context (its prototype, so a changed setting is seen)
   * whose realpath also records each answer — built once, not copied per decision.
   */
  private readonly recording: EngineContext;

  constructor(
    private readonly engine: EngineContext,
    options: VerdictCacheOptions = {},
  ) {
    const realpath = engine.realpath;
    this.recording = realpath
      ? (Object.create(engine, {
          realpath: {
            value: (path: string) => {
              const real = realpath(path);
              this.probes.push([path, real]);
              return real;
            },
          },
        }) as EngineContext)
      : engine;
    // 1024: a team's repeated calls (git status, npm test, reads) fit many times over; an entry holds its verdict
    // and analysis (~3 KB), so a burst of unique asks cannot make the cache a notable part of the memory.
    this.size = options.size ?? 1024;
    this.maxKeyLength = options.maxKeyLength ?? 4096;
    this.seen = options.cacheOnSecondSight === false || this.size <= 0 ? undefined : new SeenOnce(this.size * 4);
  }

  /**
   * The pipeline's verdict for this request: from the cache when nothing it depends on has changed. `argsJson` is
   * `JSON.stringify(request.call.args ?? null)` when the caller has it (the decider makes it once for the key and the
   * audit row); undefined when the arguments have no JSON.
   */
  decide(
    request: DecideRequest,
    policy: Policy,
    argsJson: string | undefined = argsJsonOf(request.call.args),
  ): Verdict {
    const now = request.now ?? Date.now();
    if (request.explain || this.size <= 0) return decide({ ...request, now }, policy, this.engine);
    const settingsHold = this.settingsHold(); // asked every time: it also takes in new settings
    if (!settingsHold || policy !== this.policy || now >= this.validUntil) {
      this.entries.clear();
      this.policy = policy;
      this.validUntil = nextExpiry(policy, now);
    }
    const key = argsJson === undefined ? undefined : this.keyOf(request, argsJson);
    if (key === undefined || key.length > this.maxKeyLength) return decide({ ...request, now }, policy, this.engine);
    const hit = this.entries.get(key);
    if (hit && this.probesHold(hit)) {
      // Most recently used last. Re-set under the stored key: the request's equal key string then dies young,
      // instead of being kept by the map into the old generation on every hit.
      this.entries.delete(key);
      this.entries.set(hit.key, hit);
      return hit.verdict;
    }
    // A call seen for the first time is decided as it would be uncached: most never come again.
    if (!hit && this.seen && !this.seen.offer(key)) return decide({ ...request, now }, policy, this.engine);
    const probes: Entry['probes'] = [];
    this.probes = probes;
    const verdict = decide({ ...request, now }, policy, this.recording);
    if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { key, verdict, probes });
    this.recorded.set(verdict, null);
    return verdict;
  }

  /**
   * What the audit log and the approval store keep of a decision: the verdict and the arguments masked, and their
   * JSON. Computed once per verdict object — a cached verdict comes back only for JSON-equal arguments (they are
   * part of its key), so its masked arguments are the same every time.
   */
  record<V extends Verdict>(
    verdict: V,
    args: unknown,
    redactArgs: (args: unknown, json?: string) => { value: unknown; json: string },
    argsJson?: string,
  ): Recorded<V> {
    const held = this.recorded.get(verdict) as Recorded<V> | null | undefined; // undefined: not a cached verdict
    if (held) return held;
    const masked = redactArgs(args, argsJson);
    const redacted = redactVerdict(verdict);
    const recorded: Recorded<V> = {
      verdict: redacted,
      args: masked.value,
      argsJson: masked.json,
      findingsJson: JSON.stringify(redacted.findings),
    };
    if (held === null) this.recorded.set(verdict, recorded);
    return recorded;
  }

  /** Whether this verdict is one the cache keeps (and so hands out again, unchanged, for identical calls). */
  holds(verdict: Verdict): boolean {
    return this.recorded.has(verdict);
  }

  private keyOf(request: DecideRequest, argsJson: string): string | undefined {
    // A repeat of shared arguments (shareArgs: the same frozen object, so the same JSON) with the same other parts
    // gets the key string made last time back: no new string to build, and V8 keeps its hash for the look-up.
    const args = request.call.args;
    const shared = typeof args === 'object' && args !== null && sharedJson.has(args) ? args : undefined;
    const made = shared && this.madeKeys.get(shared);
    if (made && sameKeyParts(made.request, request)) return made.key;
    const key = this.makeKey(request, argsJson);
    if (key !== undefined && shared) this.madeKeys.set(shared, { key, request });
    return key;
  }

  private makeKey(request: DecideRequest, argsJson: string): string | undefined {
    const { call } = request;
    // Files too large together for a key are not serialised only to be refused for their length.
    if (request.files) {
      let size = 0;
      for (const contents of request.files.values()) size += contents.length;
      if (size > this.maxKeyLength) return undefined;
    }
    if (argsJson.length > this.maxKeyLength) return undefined;
    // One JSON array, assembled from the arguments' JSON (made once per call by the decider) and the call's other
    // fields; the engine's settings are not in it: a change of them empties the cache (settingsHold).
    // Files the session wrote that the command may run are part of it (large ones make the key too long to cache).
    try {
      const rest = JSON.stringify([
        call.agentId ?? null,
        call.sessionId ?? null,
        call.cwd ?? null,
        request.mode ?? null,
        request.interactive ?? null,
        request.files ? [...request.files] : null,
        request.agentHome ?? null,
        request.gitignore ?? null,
        request.remoteCredentials ?? null,
        call.annotations ?? null,
      ]);
      return `[${JSON.stringify(call.tool)},${argsJson},${rest.slice(1, -1)}]`;
    } catch {
      return undefined; // values JSON cannot express: decided every time
    }
  }

  /**
   * Whether the engine context's settings (mode, ask fallback, data directory, protected paths, read-only tools) are
   * those the cached verdicts were decided under; if not, they become the new ones (and the caller empties the
   * cache). The settings were part of every key, serialised on each call (~3 % of a cached decision's CPU, and a
   * longer key to hash); they are replaced, never changed in place (nothing changes them after start; tests assign
   * new values), so comparing them by identity is enough.
   */
  private settingsHold(): boolean {
    const e = this.engine;
    const s = this.settings;
    if (
      s &&
      s.operatorMode === e.operatorMode &&
      s.askFallback === e.askFallback &&
      s.dataDir === e.dataDir &&
      s.extraProtected === e.extraProtected &&
      s.readOnlyTools === e.readOnlyTools
    )
      return true;
    this.settings = {
      operatorMode: e.operatorMode,
      askFallback: e.askFallback,
      dataDir: e.dataDir,
      extraProtected: e.extraProtected,
      readOnlyTools: e.readOnlyTools,
    };
    return false;
  }

  private probesHold(entry: Entry): boolean {
    const realpath = this.engine.realpath;
    if (!realpath) return true;
    for (const [path, real] of entry.probes) if (realpath(path) !== real) return false;
    return true;
  }
}

/** `JSON.stringify(args ?? null)`, or undefined for arguments JSON cannot express (a cycle, a BigInt). */
export function argsJsonOf(args: unknown): string | undefined {
  if (typeof args === 'object' && args !== null) {
    const json = sharedJson.get(args);
    if (json !== undefined) return json;
  }
  return jsonOf(args);
}

/**
 * Whether two requests with the same shared arguments have the same key: every other part of it (keyOf) is the same
 * value, or — the session's files, the .gitignore lines, the annotations — the same object.
 */
function sameKeyParts(a: DecideRequest, b: DecideRequest): boolean {
  return (
    a.call.tool === b.call.tool &&
    a.call.agentId === b.call.agentId &&
    a.call.sessionId === b.call.sessionId &&
    a.call.cwd === b.call.cwd &&
    a.call.annotations === b.call.annotations &&
    a.mode === b.mode &&
    a.interactive === b.interactive &&
    a.files === b.files &&
    a.agentHome === b.agentHome &&
    a.gitignore === b.gitignore &&
    a.remoteCredentials === b.remoteCredentials
  );
}

/** The JSON of arguments several requests share (shareArgs), made once. */
const sharedJson = new WeakMap<object, string>();

/**
 * Freezes arguments that repeated requests will share (deeply: no request may change what another one reads) and
 * keeps their JSON, which argsJsonOf then answers without serialising them again. Returns `args`.
 */
export function shareArgs<T>(args: T): T {
  if (typeof args !== 'object' || args === null || sharedJson.has(args)) return args;
  deepFreeze(args);
  const json = jsonOf(args);
  if (json !== undefined) sharedJson.set(args, json);
  return args;
}

/** Freezes an object and everything it holds. */
export function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) if (typeof v === 'object' && v !== null) deepFreeze(v);
}

function jsonOf(args: unknown): string | undefined {
  try {
    return JSON.stringify(args ?? null);
  } catch {
    return undefined;
  }
}

/** The first moment after `now` at which a rule of the policy expires (and the verdicts may change). */
function nextExpiry(policy: Policy, now: number): number {
  let next = Number.POSITIVE_INFINITY;
  for (const rule of policy.rules) {
    if (!rule.expiresAt) continue;
    const at = Date.parse(rule.expiresAt);
    if (at > now && at < next) next = at;
  }
  return next;
}
