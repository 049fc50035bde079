// The store contract: every Store implementation runs these unchanged (SQLite in `npm test`, PostgreSQL in
// `npm run test:pg`). A factory gives a fresh database; `connect` opens another store on that same database (as
// another process or replica would).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Approval, AuditEntry, PendingLimits, Store, StoreChange } from '../../src/store/types.ts';

/** A fresh, empty database and a way to open stores on it. */
export interface StoreFixture {
  /** Opens a store on this fixture's database (call more than once for two "replicas"). */
  connect(): Promise<Store>;
  /** Drops the database. */
  dispose(): Promise<void>;
}

/** Makes fixtures (one per test). */
export type StoreFactory = () => Promise<StoreFixture>;

const LIMITS: PendingLimits = { perAgent: 50, perToken: 200, total: 1000 };

let counter = 0;
function approval(overrides: Partial<Approval> = {}): Approval {
  counter++;
  const now = Date.now();
  return {
    id: `00000000-0000-7000-8000-${String(counter).padStart(12, '0')}-${Math.random().toString(36).slice(2, 8)}`,
    status: 'pending',
    decisionId: `d${counter}`,
    agentId: 'agent',
    sessionId: 's1',
    tool: 'bash',
    args: { command: `sudo reboot ${counter}` },
    cwd: null,
    toolCallId: null,
    dedupeKey: `key-${counter}`,
    token: 'agent',
    reason: 'ask',
    risk: 'medium',
    source: 'danger',
    findings: [],
    suggestedPattern: null,
    createdAt: new Date(now + counter).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    resolvedAt: null,
    choice: null,
    feedback: null,
    modifiedArgs: null,
    resolvedBy: null,
    rulePattern: null,
    ...overrides,
  };
}

function entry(i: number, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    ts: new Date().toISOString(),
    decision_id: `d${i}`,
    agent_id: 'a',
    session_id: 's',
    tool: 'bash',
    args: JSON.stringify({ command: `echo ${i}` }),
    decision: 'allow',
    risk: null,
    source: 'default',
    reason: 'ok',
    rule_id: null,
    approval_id: null,
    mode: 'default',
    latency_us: 10,
    resolved_by: null,
    findings: '[]',
    ...extra,
  };
}

function resolution(status: 'approved' | 'denied' | 'expired', by: string | null = 'reviewer') {
  return {
    status,
    choice: status === 'approved' ? ('allow_once' as const) : status === 'denied' ? ('deny' as const) : null,
    feedback: null,
    modifiedArgs: null,
    resolvedBy: by,
    rulePattern: null,
    resolvedAt: new Date().toISOString(),
  };
}

/** Waits until `check` passes or `ms` runs out. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Registers the contract suite for one implementation. */
export function storeContract(name: string, factory: StoreFactory): void {
  const withStore = (fn: (store: Store, fixture: StoreFixture) => Promise<void>) => async () => {
    const fixture = await factory();
    const store = await fixture.connect();
    try {
      await fn(store, fixture);
    } finally {
      await store.close();
      await fixture.dispose();
    }
  };

  describe(`store contract: ${name}`, () => {
    it(
      'keeps rules in order, inserts at a position, and bumps the policy version on every change',
      withStore(async (store) => {
        const v0 = await store.policyVersion();
        const a = await store.addRule({ effect: 'allow', pattern: 'bash(git *)' });
        await store.addRule({ effect: 'deny', pattern: 'bash(git push *)' });
        await store.addRule({ effect: 'ask', pattern: 'bash(sudo *)', position: 1 });
        assert.deepEqual(
          (await store.listRules()).map((r) => r.pattern),
          ['bash(sudo *)', 'bash(git *)', 'bash(git push *)'],
        );
        assert.equal((await store.listRules())[0]!.risk, 'medium');
        const v1 = await store.policyVersion();
        assert.ok(v1 > v0);
        assert.equal(await store.removeRule(a.id), true);
        assert.equal(await store.removeRule(a.id), false);
        const v2 = await store.policyVersion();
        assert.ok(v2 > v1);
        const grant = await store.addGrant({
          sessionId: 's1',
          pattern: 'bash(make *)',
          approvalId: null,
          createdBy: 'r',
          expiresAt: null,
        });
        assert.ok((await store.policyVersion()) > v2);
        assert.deepEqual(
          (await store.listGrants('s1')).map((g) => g.id),
          [grant.id],
        );
        assert.deepEqual(await store.listGrants('other'), []);
        assert.equal(await store.removeGrant(grant.id), true);
      }),
    );

    it(
      'a rule change through one store reaches another store on the same database (subscription and version)',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          const changes: StoreChange[] = [];
          const off = other.subscribe((c) => changes.push(c));
          const before = await other.policyVersion();
          await store.addRule({ effect: 'deny', pattern: 'bash(make *)' });
          await eventually(async () => (await other.policyVersion()) > before);
          assert.equal((await other.listRules())[0]!.pattern, 'bash(make *)');
          await eventually(() => changes.some((c) => c.kind === 'policy'));
          off();
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'opens or joins atomically: concurrent opens of one call through two stores give one approval',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          const key = 'same-call-digest';
          const outcomes = await Promise.all(
            Array.from({ length: 12 }, (_, i) =>
              (i % 2 ? other : store).openOrJoinApproval(approval({ dedupeKey: key }), LIMITS),
            ),
          );
          const opened = outcomes.filter((o) => o.kind === 'opened');
          assert.equal(opened.length, 1);
          const ids = new Set(outcomes.map((o) => (o.kind === 'capped' ? 'capped' : o.approval.id)));
          assert.equal(ids.size, 1);
          // Control: another digest is another approval.
          const another = await store.openOrJoinApproval(approval({ dedupeKey: 'other-digest' }), LIMITS);
          assert.equal(another.kind, 'opened');
          // Once answered, the same digest opens a new one.
          const first = opened[0]!.kind === 'opened' ? opened[0]!.approval : undefined;
          await store.resolveApproval(first!.id, resolution('denied'));
          assert.equal((await other.openOrJoinApproval(approval({ dedupeKey: key }), LIMITS)).kind, 'opened');
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'holds the caps per agent, per token and in total, counted in the database',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          const limits = { perAgent: 2, perToken: 3, total: 5 };
          assert.equal(
            (await store.openOrJoinApproval(approval({ agentId: 'x', token: 't1' }), limits)).kind,
            'opened',
          );
          assert.equal(
            (await other.openOrJoinApproval(approval({ agentId: 'x', token: 't1' }), limits)).kind,
            'opened',
          );
          assert.deepEqual(await store.openOrJoinApproval(approval({ agentId: 'x', token: 't1' }), limits), {
            kind: 'capped',
            scope: 'agent',
            limit: 2,
          });
          assert.equal(
            (await other.openOrJoinApproval(approval({ agentId: 'y', token: 't1' }), limits)).kind,
            'opened',
            'control: another agent id is under its own cap',
          );
          assert.deepEqual(await store.openOrJoinApproval(approval({ agentId: 'z', token: 't1' }), limits), {
            kind: 'capped',
            scope: 'token',
            limit: 3,
          });
          assert.equal(
            (await store.openOrJoinApproval(approval({ agentId: 'z', token: 't2' }), limits)).kind,
            'opened',
          );
          assert.equal(
            (await other.openOrJoinApproval(approval({ agentId: 'w', token: 't2' }), limits)).kind,
            'opened',
          );
          assert.deepEqual(await store.openOrJoinApproval(approval({ agentId: 'v', token: 't3' }), limits), {
            kind: 'capped',
            scope: 'total',
            limit: 5,
          });
          assert.equal(await other.countPendingApprovals(), 5);
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'resolves exactly once: of concurrent answers through two stores one changes it, the rest see the winner',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          const opened = await store.openOrJoinApproval(approval(), LIMITS);
          assert.equal(opened.kind, 'opened');
          const id = opened.kind === 'opened' ? opened.approval.id : '';
          const results = await Promise.all([
            store.resolveApproval(id, resolution('approved', 'alice')),
            other.resolveApproval(id, resolution('denied', 'bob')),
            other.resolveApproval(id, resolution('expired', null)),
          ]);
          assert.equal(results.filter((r) => r.changed).length, 1);
          const winner = results.find((r) => r.changed)!.approval!;
          for (const r of results) assert.equal(r.approval!.status, winner.status);
          assert.equal((await other.getApproval(id))!.status, winner.status);
          assert.equal((await store.resolveApproval('no-such-id', resolution('denied'))).approval, undefined);
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'announces approvals opened and answered through another store',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          const seen: StoreChange[] = [];
          const off = other.subscribe((c) => seen.push(c));
          const opened = await store.openOrJoinApproval(approval(), LIMITS);
          const id = opened.kind === 'opened' ? opened.approval.id : '';
          await eventually(() => seen.some((c) => c.kind === 'approval' && c.id === id && c.status === 'pending'));
          await store.resolveApproval(id, resolution('approved'));
          await eventually(() => seen.some((c) => c.kind === 'approval' && c.id === id && c.status === 'approved'));
          off();
        } finally {
          await other.close();
        }
      }),
    );

    it(
      "keeps the MCP gateway's tool definitions per server, replaced on save and seen by another store",
      withStore(async (store, fixture) => {
        const at = new Date().toISOString();
        await store.saveMcpTool({
          server: 'github',
          tool: 'create_issue',
          hash: 'a'.repeat(64),
          pendingHash: null,
          firstSeenAt: at,
          changedAt: null,
        });
        await store.saveMcpTool({
          server: 'github',
          tool: 'add_comment',
          hash: 'b'.repeat(64),
          pendingHash: null,
          firstSeenAt: at,
          changedAt: null,
        });
        await store.saveMcpTool({
          server: 'other',
          tool: 'x',
          hash: 'c'.repeat(64),
          pendingHash: null,
          firstSeenAt: at,
          changedAt: null,
        });
        await store.saveMcpTool({
          server: 'github',
          tool: 'create_issue',
          hash: 'a'.repeat(64),
          pendingHash: 'd'.repeat(64),
          firstSeenAt: at,
          changedAt: at,
        });
        const other = await fixture.connect();
        try {
          const tools = await other.mcpTools('github');
          assert.deepEqual(
            tools.map((t) => [t.tool, t.hash[0], t.pendingHash?.[0] ?? null]),
            [
              ['add_comment', 'b', null],
              ['create_issue', 'a', 'd'],
            ],
          );
          assert.deepEqual(await other.mcpTools('none'), []);
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'lists the newest pending approvals, oldest first, and the answered ones newest first',
      withStore(async (store) => {
        const ids: string[] = [];
        const made: Approval[] = [];
        for (let i = 0; i < 5; i++) {
          const candidate = approval({
            createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
            findings: [{ id: 'f', risk: 'high', reason: 'r' }] as Approval['findings'],
          });
          made.push(candidate);
          const o = await store.openOrJoinApproval(candidate, LIMITS);
          ids.push(o.kind === 'opened' ? o.approval.id : '');
        }
        assert.deepEqual(
          (await store.listApprovals({ status: 'pending', limit: 2 })).map((a) => a.id),
          [ids[3], ids[4]],
        );
        await store.resolveApproval(ids[0]!, resolution('denied'));
        assert.deepEqual(
          (await store.listApprovals({ status: 'denied' })).map((a) => a.id),
          [ids[0]],
        );
        assert.equal(await store.countPendingApprovals(), 4);
        // An approval reads back as it was opened.
        assert.deepEqual(await store.getApproval(ids[1]!), made[1]);
      }),
    );

    it(
      'counts failed authentications per address across stores: one budget, one block, refused uncounted while blocked',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          const policy = { maxFailures: 5, windowMs: 60_000, blockMs: 30_000 };
          const t0 = 1_000_000;
          const outcomes = [];
          for (let i = 0; i < 7; i++)
            outcomes.push(await (i % 2 ? other : store).recordAuthFailure('10.0.0.7', policy, t0 + i));
          assert.deepEqual(
            outcomes.map((o) => o.refused),
            [false, false, false, false, false, true, true],
          );
          assert.deepEqual(
            outcomes.map((o) => o.failures),
            [1, 2, 3, 4, 5, 5, 5],
            'the refused ones are not counted',
          );
          assert.equal(outcomes[4]!.blockedUntil, t0 + 4 + 30_000, 'the fifth failure blocks for blockMs');
          assert.equal(outcomes[6]!.blockedUntil, t0 + 4 + 30_000, 'a refused failure does not extend the block');
          assert.equal(
            await other.authBlockedUntil('10.0.0.7', t0 + 10),
            t0 + 4 + 30_000,
            'the block made through one store holds on the other',
          );
          assert.equal(await store.authBlockedUntil('10.0.0.8', t0 + 10), 0, 'control: another address is not blocked');
          assert.equal((await other.recordAuthFailure('10.0.0.8', policy, t0 + 10)).refused, false);
          assert.deepEqual(await store.countAuthFailures(t0 + 10), { tracked: 2, blocked: 1 });
          // The block ends; the window is not over yet, so the next failure blocks again at once (as the count says).
          assert.equal(await store.authBlockedUntil('10.0.0.7', t0 + 4 + 30_000), 0);
          const again = await other.recordAuthFailure('10.0.0.7', policy, t0 + 40_000);
          assert.deepEqual([again.refused, again.failures, again.blockedUntil], [false, 6, t0 + 70_000]);
          // After window and block both end, counting starts from one.
          const fresh = await store.recordAuthFailure('10.0.0.7', policy, t0 + 200_000);
          assert.deepEqual([fresh.refused, fresh.failures], [false, 1]);
          assert.equal(await store.authBlockedUntil('10.0.0.7', t0 + 200_000), 0);
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'counts concurrent failed authentications from two stores exactly once each',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          const policy = { maxFailures: 10, windowMs: 60_000, blockMs: 60_000 };
          const at = 5_000_000;
          const outcomes = await Promise.all(
            Array.from({ length: 40 }, (_, i) => (i % 2 ? other : store).recordAuthFailure('192.0.2.1', policy, at)),
          );
          assert.equal(outcomes.filter((o) => !o.refused).length, 10, 'exactly maxFailures counted, not one per store');
          assert.deepEqual(
            outcomes
              .filter((o) => !o.refused)
              .map((o) => o.failures)
              .sort((a, b) => a - b),
            Array.from({ length: 10 }, (_, i) => i + 1),
          );
          assert.equal(outcomes.filter((o) => o.refused).length, 30);
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'sweeps failed-authentication rows: expired ones go, then the oldest beyond the cap, blocked ones kept first',
      withStore(async (store) => {
        const policy = { maxFailures: 2, windowMs: 10_000, blockMs: 100_000 };
        const t0 = 1_000_000;
        for (let i = 0; i < 10; i++) await store.recordAuthFailure(`old-${i}`, policy, t0);
        await store.recordAuthFailure('blocked', policy, t0);
        await store.recordAuthFailure('blocked', policy, t0);
        for (let i = 0; i < 30; i++) await store.recordAuthFailure(`new-${i}`, policy, t0 + 20_000 + i);
        assert.deepEqual(await store.countAuthFailures(t0 + 20_030), { tracked: 41, blocked: 1 });
        // The ten old windows are over (and not blocked): gone. Of the 31 left, the blocked one and the 19 newest stay.
        assert.equal(await store.sweepAuthFailures(policy, t0 + 20_030, 20), 21);
        assert.deepEqual(await store.countAuthFailures(t0 + 20_030), { tracked: 20, blocked: 1 });
        assert.ok((await store.authBlockedUntil('blocked', t0 + 20_030)) > 0);
        assert.equal(
          (await store.recordAuthFailure('new-29', policy, t0 + 20_031)).failures,
          2,
          'the newest is still counted',
        );
        assert.equal(
          (await store.recordAuthFailure('new-0', policy, t0 + 20_031)).failures,
          1,
          'the oldest beyond the cap was forgotten',
        );
      }),
    );

    it(
      'prunes the old prefix of the audit log in bounded batches, each closed by a checkpoint, and verify passes',
      withStore(async (store, fixture) => {
        const old = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString();
        for (let i = 1; i <= 12; i++)
          await store.appendAudit([entry(i, { ts: i <= 10 ? old(i) : new Date().toISOString() })]);
        const cutoff = new Date(Date.UTC(2025, 0, 1)).toISOString();
        assert.deepEqual(await store.pruneAudit(cutoff, 4), { pruned: 4, throughSeq: 4, checkpointSeq: 13 });
        assert.deepEqual(await store.pruneAudit(cutoff, 4), { pruned: 4, throughSeq: 8, checkpointSeq: 14 });
        assert.deepEqual(await store.pruneAudit(cutoff, 4), { pruned: 2, throughSeq: 10, checkpointSeq: 15 });
        assert.deepEqual(
          await store.pruneAudit(cutoff, 4),
          { pruned: 0, throughSeq: null, checkpointSeq: null },
          'the checkpoints are new: nothing more',
        );
        const rows = await store.queryAudit({ ascending: true, limit: 100 });
        assert.deepEqual(
          rows.map((r) => r.seq),
          [11, 12, 13, 14, 15],
          'the old rows are gone, the newer stay',
        );
        assert.deepEqual(
          rows.slice(2).map((r) => [r.decision, r.source, JSON.parse(r.args).pruned_through_seq]),
          [
            ['checkpoint', 'retention', 4],
            ['checkpoint', 'retention', 8],
            ['checkpoint', 'retention', 10],
          ],
        );
        const other = await fixture.connect();
        try {
          await other.appendAudit([entry(13)]);
          const verified = await other.verifyAudit();
          assert.equal(verified.ok, true, verified.problem?.message);
          assert.deepEqual(
            [verified.firstSeq, verified.lastSeq, verified.checkpoint?.pruned_through_seq],
            [11, 16, 10],
          );
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'concurrent prunes through two stores, while both append, leave one verifiable chain with no range pruned twice',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          const old = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString();
          await store.appendAudit(Array.from({ length: 30 }, (_, i) => entry(i, { ts: old(i) })));
          await store.appendAudit([entry(30), entry(31)]);
          const cutoff = new Date(Date.UTC(2025, 0, 1)).toISOString();
          const work: Promise<unknown>[] = [];
          for (let i = 0; i < 8; i++) {
            work.push((i % 2 ? other : store).pruneAudit(cutoff, 5));
            work.push((i % 2 ? store : other).appendAudit([entry(100 + i)]));
          }
          await Promise.all(work);
          while ((await store.pruneAudit(cutoff, 5)).pruned > 0);
          const rows = await other.queryAudit({ ascending: true, limit: 1000 });
          assert.deepEqual(
            rows.filter((r) => r.ts < cutoff),
            [],
            'every old row is gone',
          );
          assert.equal(
            rows.filter((r) => r.decision !== 'checkpoint').length,
            10,
            'the two new rows and the eight appended meanwhile stay',
          );
          const checkpoints = rows
            .filter((r) => r.decision === 'checkpoint')
            .map((r) => JSON.parse(r.args) as { pruned_through_seq: number; pruned_rows: number });
          assert.equal(
            checkpoints.reduce((n, c) => n + c.pruned_rows, 0),
            30,
            'each old row pruned once',
          );
          assert.deepEqual(
            checkpoints.map((c) => c.pruned_through_seq),
            [5, 10, 15, 20, 25, 30],
            'one checkpoint per range, in order',
          );
          for (const s of [store, other]) {
            const verified = await s.verifyAudit();
            assert.equal(verified.ok, true, verified.problem?.message);
          }
        } finally {
          await other.close();
        }
      }),
    );

    it(
      'appends audit rows in one hash chain across stores, queries them and verifies the chain',
      withStore(async (store, fixture) => {
        const other = await fixture.connect();
        try {
          await Promise.all(
            Array.from({ length: 40 }, (_, i) =>
              (i % 2 ? other : store).appendAudit([entry(i, i === 7 ? { decision: 'deny', tool: 'write_file' } : {})]),
            ),
          );
          const rows = await store.queryAudit({ limit: 1000, ascending: true });
          assert.equal(rows.length, 40);
          assert.deepEqual(
            rows.map((r) => r.seq),
            Array.from({ length: 40 }, (_, i) => i + 1),
          );
          for (let i = 1; i < rows.length; i++) assert.equal(rows[i]!.prev_hash, rows[i - 1]!.hash);
          assert.deepEqual(
            (await store.queryAudit({ decision: 'deny' })).map((r) => r.decision_id),
            ['d7'],
          );
          assert.deepEqual(
            (await store.queryAudit({ q: 'echo 13' })).map((r) => r.decision_id),
            ['d13'],
          );
          assert.equal((await store.queryAudit({ cursor: 10, limit: 3 })).map((r) => r.seq).join(), '9,8,7');
          // Text that needs escaping or care is stored as given and verifies.
          const awkward = JSON.stringify({ command: "echo 'it''s' \\ \"q\" $(x) \n ünïcødé 🚀 \u0000" });
          await store.appendAudit([
            entry(99, { args: awkward, reason: "quote ' backslash \\ newline \n end", agent_id: null }),
          ]);
          const stored = (await store.queryAudit({ decisionId: 'd99' }))[0]!;
          assert.equal(stored.args, awkward);
          assert.equal(stored.reason, "quote ' backslash \\ newline \n end");
          assert.equal(stored.agent_id, null);
          const verified = await other.verifyAudit();
          assert.equal(verified.ok, true);
          assert.equal(verified.rows, 41);
          assert.equal(await store.writeProblem(), undefined);
        } finally {
          await other.close();
        }
      }),
    );
  });
}
