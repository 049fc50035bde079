// Keeps the compiled policy current: recompiles only when the database's policy version moves (any process).
import type { AliasIndex } from '../engine/catalog/tool-aliases.ts';
import { compilePolicy, type Policy } from '../engine/rules/policy.ts';
import type { Rule } from '../engine/rules/rule.ts';
import type { Grant, Store } from '../store/types.ts';

/** Rules from outside the database (a watched settings file), placed after the database's own. */
export type RuleLayer = () => readonly Rule[];

/** Serves the current policy snapshot, recompiling on a version change or a layer change. */
export class PolicySource {
  private policy: Policy | undefined;
  private version = -1;
  private layerStamp = 0;
  private compiledLayerStamp = -1;
  private readonly layers: RuleLayer[] = [];

  constructor(
    private readonly store: Store,
    private readonly aliases: AliasIndex,
    private readonly home: string,
  ) {}

  /** Adds a rule layer (read-only rules, e.g. a synced settings file). Call `invalidate()` when it changes. */
  addLayer(layer: RuleLayer): void {
    this.layers.push(layer);
    this.invalidate();
  }

  /** Forces a recompile on the next call (a layer changed). */
  invalidate(): void {
    this.layerStamp++;
  }

  /** The current policy; costs one indexed read when nothing changed. */
  async current(): Promise<Policy> {
    const version = await this.store.policyVersion();
    if (this.policy && version === this.version && this.layerStamp === this.compiledLayerStamp) return this.policy;
    const stamp = this.layerStamp;
    const [rules, grants] = await Promise.all([this.store.listRules(), this.store.listGrants()]);
    const extra = this.layers.flatMap((layer) => layer());
    const offset = rules.reduce((max, r) => Math.max(max, r.position), 0);
    const all = [
      ...rules,
      ...extra.map((r, i) => ({ ...r, position: offset + 1 + i })),
      ...grants.map((g, i) => grantRule(g, offset + extra.length + 1 + i)),
    ];
    this.policy = compilePolicy(all, this.aliases, this.home, version);
    this.version = version;
    this.compiledLayerStamp = stamp;
    return this.policy;
  }
}

/** A session grant is an allow rule scoped to its session. */
function grantRule(grant: Grant, position: number): Rule {
  return {
    id: grant.id,
    effect: 'allow',
    pattern: grant.pattern,
    risk: null,
    scope: `session:${grant.sessionId}`,
    expiresAt: grant.expiresAt,
    note: 'session grant',
    createdBy: grant.createdBy,
    createdAt: grant.createdAt,
    position,
    origin: 'grant',
  };
}
