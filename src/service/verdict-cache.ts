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
 * `realpath` answers about the file system. The cache is emptied when the policy object changes or the next
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
  private validUntil = Number.POSITIVE_INFINITY;
  private readonly size: number;
  private readonly maxKeyLength: number;

  /** Where the realpath answers of the decision being made go (decide() is synchronous: one at a time). */
  private probes: Entry['probes'] = [];
  /**
   * The context a miss is decided with: the live engine context (its prototype, so a changed setting is seen)
   * whose realpath also records each answer — built once, not copied per decision.
   */
  private readonly recording: EngineContext;

  constructor(private readonly engine: EngineContext, options: VerdictCacheOptions = {}) {
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

  /** The pipeline's verdict for this request: from the cache when nothing it depends on has changed. */
  decide(request: DecideRequest, policy: Policy): Verdict {
    const now = request.now ?? Date.now();
    if (request.explain || this.size <= 0) return decide({ ...request, now }, policy, this.engine);
    if (policy !== this.policy || now >= this.validUntil) {
      this.entries.clear();
      this.policy = policy;
      this.validUntil = nextExpiry(policy, now);
    }
    const key = this.keyOf(request);
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
  record<V extends Verdict>(verdict: V, args: unknown, redactArgs: (args: unknown) => { value: unknown; json: string }): Recorded<V> {
    const held = this.recorded.get(verdict) as Recorded<V> | null | undefined; // undefined: not a cached verdict
    if (held) return held;
    const masked = redactArgs(args);
    const redacted = redactVerdict(verdict);
    const recorded: Recorded<V> = { verdict: redacted, args: masked.value, argsJson: masked.json, findingsJson: JSON.stringify(redacted.findings) };
    if (held === null) this.recorded.set(verdict, recorded);
    return recorded;
  }

  private keyOf(request: DecideRequest): string | undefined {
    const { call } = request;
    // Files too large together for a key are not serialised only to be refused for their length.
    if (request.files) {
      let size = 0;
      for (const contents of request.files.values()) size += contents.length;
      if (size > this.maxKeyLength) return undefined;
    }
    // The engine context's mutable settings are part of the key, so changing them never serves a stale verdict.
    try {
      // Files the session wrote that the command may run are part of it (large ones make the key too long to cache).
      return JSON.stringify([call.tool, call.args ?? null, call.agentId ?? null, call.sessionId ?? null, call.cwd ?? null, request.mode ?? null, request.interactive ?? null,
        this.engine.operatorMode, this.engine.askFallback, this.engine.dataDir ?? null, this.engine.extraProtected ?? null, this.engine.readOnlyTools ?? null,
        request.files ? [...request.files] : null, request.agentHome ?? null, request.gitignore ?? null, request.remoteCredentials ?? null, call.annotations ?? null]);
    } catch {
      return undefined; // arguments JSON cannot express (a cycle, a BigInt): decided every time
    }
  }

  private probesHold(entry: Entry): boolean {
    const realpath = this.engine.realpath;
    if (!realpath) return true;
    for (const [path, real] of entry.probes) if (realpath(path) !== real) return false;
    return true;
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
