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

  const decisions = new Counter({ name: 'toolgate_decisions_total', help: 'Decisions answered, by decision and source (before any human answer).', labelNames: ['decision', 'source'] as const, registers });
  const decisionSeconds = new Histogram({ name: 'toolgate_decision_duration_seconds', help: 'Time to decide one call, audit commit included, decide-and-wait excluded.', labelNames: ['decision'] as const, buckets: FAST_BUCKETS, registers });
  const auditSeconds = new Histogram({ name: 'toolgate_audit_write_duration_seconds', help: 'Time from queuing an audit row to its grouped commit.', buckets: FAST_BUCKETS, registers });
  const answerSeconds = new Histogram({ name: 'toolgate_approval_answer_seconds', help: 'Time from opening an approval to its answer, expiry or cancel.', labelNames: ['status'] as const, buckets: HUMAN_BUCKETS, registers });
  const answers = new Counter({ name: 'toolgate_approvals_resolved_total', help: 'Approvals that left pending, by final status.', labelNames: ['status'] as const, registers });
  new Gauge({
    name: 'toolgate_pending_approvals', help: 'Approvals waiting for a reviewer.', registers,
    async collect() {
      this.set(await toolgate.store.countPendingApprovals());
    },
  });
  new Gauge({
    name: 'toolgate_long_poll_waiters', help: 'Requests held in a long-poll for an approval.', registers,
    collect() {
      this.set(toolgate.approvals.waiting());
    },
  });
  new Gauge({
    name: 'toolgate_rules', help: 'Rules and session grants in the current policy, by effect.', labelNames: ['effect'] as const, registers,
    async collect() {
      const policy = await toolgate.policy.current();
      const counts = { allow: 0, deny: 0, ask: 0 };
      for (const rule of policy.rules) counts[rule.effect]++;
      for (const [effect, n] of Object.entries(counts)) this.set({ effect }, n);
    },
  });

  // One child per label set, looked up by its values: prom-client would hash a labels object on every call.
  const series = new Map<string, Map<string, { counter: ReturnType<typeof decisions.labels>; seconds: ReturnType<typeof decisionSeconds.labels> }>>();
  const seriesOf = (decision: string, source: string) => {
    let bySource = series.get(decision);
    if (!bySource) series.set(decision, (bySource = new Map()));
    let child = bySource.get(source);
    if (!child) bySource.set(source, (child = { counter: decisions.labels(decision, source), seconds: decisionSeconds.labels(decision) }));
    return child;
  };
  const offDecided = toolgate.decider.onDecided((outcome) => {
    const child = seriesOf(outcome.verdict.decision, outcome.verdict.source);
    child.counter.inc();
    child.seconds.observe((outcome.latencyUs + (outcome.auditUs ?? 0)) / 1e6);
    if (outcome.auditUs !== undefined) auditSeconds.observe(outcome.auditUs / 1e6);
  });
  const offEvents = toolgate.events.on((event) => {
    if (event.type === 'approval.created' || event.remote) return; // another replica counts its own
    const { approval } = event;
    answers.inc({ status: approval.status });
    const opened = Date.parse(approval.createdAt);
    const closed = Date.parse(approval.resolvedAt ?? new Date().toISOString());
    if (Number.isFinite(opened) && Number.isFinite(closed)) answerSeconds.observe({ status: approval.status }, Math.max(0, closed - opened) / 1000);
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
