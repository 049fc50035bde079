// Prometheus metrics for one toolgate instance: its own prom-client Registry, fed by listeners, never by the decide path's code.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Toolgate } from './toolgate.ts';

/** Options of the metrics. */
export interface MetricsOptions {
  /** Also export the process metrics (CPU, memory, event loop lag, GC) under `toolgate_`; default true. */
  processMetrics?: boolean;
}

/** The metrics of one running toolgate. */
export interface ToolgateMetrics {
  readonly registry: Registry;
  /** The Prometheus text exposition. */
  render(): Promise<string>;
  /** Stops listening to the service (the registry keeps its last values). */
  detach(): void;
}

// Sub-millisecond buckets: a decision is normally tens to hundreds of microseconds, an audit commit about a millisecond.
const FAST_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
// A human answer takes seconds to minutes (approvals expire after 15 minutes by default).
const HUMAN_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 3600];

/**
 * Builds a Registry for `toolgate` (one per app instance, never the global default, so tests can build many) and
 * subscribes to the decider and the approval events. Counting costs the decide path one closure call after the
 * audit commit; the gauges are read only when Prometheus scrapes.
 */
export function createMetrics(toolgate: Toolgate, options: MetricsOptions = {}): ToolgateMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'toolgate_' });

  // Counted on every decision: plain arrays, exported in prom-client's format when scraped (see DecisionSeries).
  const decisions = new DecisionSeries(
    'toolgate_decisions_total',
    'Decisions answered, by decision and source (before any human answer).',
    'counter',
    ['decision', 'source'],
  );
  const decisionSeconds = new DecisionSeries(
    'toolgate_decision_duration_seconds',
    'Time to decide one call, audit commit included, decide-and-wait excluded.',
    'histogram',
    ['decision'],
    FAST_BUCKETS,
  );
  const auditSeconds = new DecisionSeries(
    'toolgate_audit_write_duration_seconds',
    'Time from queuing an audit row to its grouped commit.',
    'histogram',
    [],
    FAST_BUCKETS,
  );
  for (const metric of [decisions, decisionSeconds, auditSeconds])
    registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
  const answerSeconds = new Histogram({
    name: 'toolgate_approval_answer_seconds',
    help: 'Time from opening an approval to its answer, expiry or cancel.',
    labelNames: ['status'] as const,
    buckets: HUMAN_BUCKETS,
    registers,
  });
  const answers = new Counter({
    name: 'toolgate_approvals_resolved_total',
    help: 'Approvals that left pending, by final status.',
    labelNames: ['status'] as const,
    registers,
  });
  new Gauge({
    name: 'toolgate_pending_approvals',
    help: 'Approvals waiting for a reviewer.',
    registers,
    async collect() {
      this.set(await toolgate.store.countPendingApprovals());
    },
  });
  new Gauge({
    name: 'toolgate_long_poll_waiters',
    help: 'Requests held in a long-poll for an approval.',
    registers,
    collect() {
      this.set(toolgate.approvals.waiting());
    },
  });
  new Gauge({
    name: 'toolgate_rules',
    help: 'Rules and session grants in the current policy, by effect.',
    labelNames: ['effect'] as const,
    registers,
    async collect() {
      const policy = await toolgate.policy.current();
      const counts = { allow: 0, deny: 0, ask: 0 };
      for (const rule of policy.rules) counts[rule.effect]++;
      for (const [effect, n] of Object.entries(counts)) this.set({ effect }, n);
    },
  });

  const offDecided = toolgate.decider.onDecided((outcome) => {
    const { decision, source } = outcome.verdict;
    decisions.add(decision, source, 1);
    decisionSeconds.observe(decision, undefined, (outcome.latencyUs + (outcome.auditUs ?? 0)) / 1e6);
    if (outcome.auditUs !== undefined) auditSeconds.observe(undefined, undefined, outcome.auditUs / 1e6);
  });
  const offEvents = toolgate.events.on((event) => {
    if (event.type === 'approval.created' || event.remote) return; // another replica counts its own
    const { approval } = event;
    answers.inc({ status: approval.status });
    const opened = Date.parse(approval.createdAt);
    const closed = Date.parse(approval.resolvedAt ?? new Date().toISOString());
    if (Number.isFinite(opened) && Number.isFinite(closed))
      answerSeconds.observe({ status: approval.status }, Math.max(0, closed - opened) / 1000);
  });

  return {
    registry,
    render: () => registry.metrics(),
    detach() {
      offDecided();
      offEvents();
    },
  };
}

/** One series of a DecisionSeries: a count (a counter's value) and, for a histogram, per-bucket counts and the sum. */
interface Series {
  labels: Record<string, string>;
  count: number;
  sum: number;
  buckets: Float64Array;
}

/**
 * A counter or histogram with at most two labels, updated on every decision by an array index and two additions,
 * and exported in the shape prom-client's own metrics export (the registry formats it). prom-client's children
 * convert, validate and hash a labels object on every observation: its two histograms and counter cost 3.9 % of a
 * repeated call's CPU in the server (bench/profile.ts).
 */
class DecisionSeries {
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Map<string, Series>>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    private readonly labelNames: string[],
    private readonly bounds: readonly number[] = [],
  ) {
    if (labelNames.length === 0) this.of(); // as prom-client: a metric without labels is exported (zero) from the start
  }

  /** Adds `n` to a counter's series. */
  add(first: string | undefined, second: string | undefined, n: number): void {
    this.of(first, second).count += n;
  }

  /** Counts a value into a histogram's series. */
  observe(first: string | undefined, second: string | undefined, value: number): void {
    const s = this.of(first, second);
    s.count += 1;
    s.sum += value;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        s.buckets[i]! += 1;
        break;
      }
    }
  }

  private of(first = '', second = ''): Series {
    let inner = this.series.get(first);
    if (!inner) this.series.set(first, (inner = new Map()));
    let s = inner.get(second);
    if (!s) {
      const labels: Record<string, string> = {};
      if (this.labelNames[0]) labels[this.labelNames[0]] = first;
      if (this.labelNames[1]) labels[this.labelNames[1]] = second;
      inner.set(second, (s = { labels, count: 0, sum: 0, buckets: new Float64Array(this.bounds.length) }));
    }
    return s;
  }

  /** What the registry renders: prom-client's metric JSON (cumulative buckets, +Inf, _sum and _count for a histogram). */
  async get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
  }> {
    const values: { labels: Record<string, string | number>; value: number; metricName?: string }[] = [];
    for (const inner of this.series.values()) {
      for (const s of inner.values()) {
        if (this.type === 'counter') {
          values.push({ labels: s.labels, value: s.count });
          continue;
        }
        let cumulative = 0;
        this.bounds.forEach((le, i) => {
          cumulative += s.buckets[i]!;
          values.push({ labels: { ...s.labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
        });
        values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${this.name}_bucket` });
        values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
        values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
      }
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** prom-client's Registry calls this on resetMetrics(). */
  reset(): void {
    this.series.clear();
  }
}
