// Three `toolgate serve` replicas on one PostgreSQL database: one approval queue, one rule set, one audit log.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { destroyClusterAfterAll, freshDatabase, pgSkipReason, sharedCluster } from './support/shared.ts';
import {
  call,
  decide,
  percentile,
  resolve,
  REVIEWER_TOKEN,
  sleep,
  startReplica,
  writeConfig,
  type Replica,
} from './support/replicas.ts';
import type { Cluster } from './support/cluster.ts';

const skip = pgSkipReason();
if (!skip) destroyClusterAfterAll();
/** Approvals held at once in the long-poll run (the issue asks 1,000; the default keeps a shared CI box quick). */
const HELD = Number(process.env.TOOLGATE_PG_HELD ?? 300);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('three replicas on one PostgreSQL', { skip }, () => {
  let cluster: Cluster;
  let url: string;
  let a: Replica;
  let b: Replica;
  let c: Replica;
  let config: { file: string; dispose(): void };
  const auditName = () => new URL(url).pathname.slice(1);

  before(async () => {
    cluster = await sharedCluster();
    url = await freshDatabase('replicas');
    config = writeConfig({ max_pending_per_agent: 5, max_pending_per_token: 100_000, max_pending_total: 100_000 });
    // Started together: the migrations run once, under the advisory lock.
    [a, b, c] = await Promise.all([
      startReplica('a', url, config.file),
      startReplica('b', url, config.file),
      startReplica('c', url, config.file),
    ]);
  });
  after(async () => {
    await Promise.all([a, b, c].filter(Boolean).map((r) => r.stop()));
    config?.dispose();
  });

  it(`(1) a long-poll on A gets the answer given on B: p50 ≤ 2 ms, p99 ≤ 50 ms over ${HELD} held approvals; nothing lost when A's listening connection is killed`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < HELD; i++) {
      const { status, body } = await decide(a.url, `sudo systemctl restart lp-${i}`, { agent_id: `lp-${i}` });
      assert.equal(status, 200, JSON.stringify(body));
      ids.push(body.approval.id);
    }
    const arrived = new Map<string, { at: number; status: string }>();
    const rssBefore = rssMb(a.process.pid!);
    const polls = ids.map((id) =>
      call(a.url, `/v1/approvals/${id}?wait=60`).then((r) =>
        arrived.set(id, { at: performance.now(), status: r.body.status }),
      ),
    );
    await waitForWaiters(a, HELD);
    const rssHeld = rssMb(a.process.pid!) - rssBefore;
    console.log(
      `# A's resident memory with ${HELD} long-polls held: +${rssHeld.toFixed(1)} MB (${((rssHeld * 1000) / HELD).toFixed(1)} MB per 1,000)`,
    );
    assert.ok(rssHeld <= 50, `+${rssHeld} MB for ${HELD} held long-polls`);
    const latencies: number[] = [];
    const half = Math.floor(HELD / 2);
    for (let i = 0; i < half; i++) {
      const res = await resolve(b.url, ids[i]!, 'allow_once');
      const answeredAt = performance.now();
      assert.equal(res.status, 200);
      while (!arrived.has(ids[i]!)) await new Promise((r) => setImmediate(r));
      latencies.push(Math.max(0, arrived.get(ids[i]!)!.at - answeredAt));
    }
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(
      `# long-poll on A answered on B: ${latencies.length} answers, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${Math.max(...latencies).toFixed(2)} ms`,
    );
    assert.ok(p50 <= 2, `p50 ${p50} ms`);
    assert.ok(p99 <= 50, `p99 ${p99} ms`);

    // Kill A's LISTEN connection, then answer the rest on B at once: every waiter on A still gets its answer
    // (the notifications sent while it reconnects are lost; the re-read after reconnecting finds the answers).
    const killed = cluster.psql(
      `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'toolgate-listen:${a.process.pid}'`,
      auditName(),
    );
    assert.equal(killed.trim(), '1');
    const after: number[] = [];
    for (const id of ids.slice(half)) {
      const res = await resolve(b.url, id, 'deny');
      const answeredAt = performance.now();
      assert.equal(res.status, 200);
      while (!arrived.has(id)) await new Promise((r) => setTimeout(r, 1));
      after.push(Math.max(0, arrived.get(id)!.at - answeredAt));
    }
    await Promise.all(polls);
    console.log(
      `# after killing A's listening connection: ${after.length} answers, p50 ${percentile(after, 50).toFixed(2)} ms, max ${Math.max(...after).toFixed(0)} ms`,
    );
    for (const [i, id] of ids.entries()) assert.equal(arrived.get(id)!.status, i < half ? 'approved' : 'denied');
    assert.ok(
      Math.max(...after) < 1000,
      'every answer arrived within a second, the ones given while A reconnected included',
    );
  });

  it('(2) the same pending call sent to A and B at once opens one approval; two reviewers answering at once: one wins, the other gets 409', async () => {
    const [fromA, fromB] = await Promise.all([
      decide(a.url, 'sudo systemctl restart same-call'),
      decide(b.url, 'sudo systemctl restart same-call'),
    ]);
    assert.equal(fromA.status, 200);
    assert.equal(fromA.body.approval.id, fromB.body.approval.id);
    // Control: another call is another approval.
    const other = await decide(c.url, 'sudo systemctl restart other-call');
    assert.notEqual(other.body.approval.id, fromA.body.approval.id);
    const [onA, onC] = await Promise.all([
      resolve(a.url, fromA.body.approval.id, 'allow_once'),
      resolve(c.url, fromA.body.approval.id, 'deny'),
    ]);
    assert.deepEqual([onA.status, onC.status].sort(), [200, 409]);
    const winner = onA.status === 200 ? 'approved' : 'denied';
    for (const r of [a, b, c])
      assert.equal((await call(r.url, `/v1/approvals/${fromA.body.approval.id}`)).body.status, winner);
  });

  it('the review feed (SSE) on B shows an approval opened on A, and its answer given on C, live', async () => {
    const controller = new AbortController();
    const res = await fetch(`${b.url}/v1/events`, {
      headers: { authorization: `Bearer ${REVIEWER_TOKEN}` },
      signal: controller.signal,
    });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      const end = Date.now() + 5000;
      while (!pattern.test(text)) {
        if (Date.now() > end) throw new Error(`not seen in the feed: ${pattern} in ${text.slice(-500)}`);
        const { value, done } = await reader.read();
        if (done) throw new Error('the feed ended');
        text += new TextDecoder().decode(value);
      }
    };
    await sleep(100);
    const opened = await decide(a.url, 'sudo systemctl restart feed-probe', { agent_id: 'feed' });
    const id = opened.body.approval.id as string;
    await readUntil(new RegExp(`approval\\.created[\\s\\S]*${id}`));
    assert.equal((await resolve(c.url, id, 'deny')).status, 200);
    await readUntil(new RegExp(`approval\\.resolved[\\s\\S]*${id}`));
    controller.abort();
  });

  it('(3) a rule added on C applies on A and B: p99 ≤ 50 ms over 100 changes', async () => {
    // Measured per change: from C's response to the sending of the first request on each of A and B that the new
    // rule decided (an upper bound on the propagation; the probe's own round trip, ~ms on a loaded box, is not
    // counted), and end to end (to that request's answer), printed for reference.
    const applied: number[] = [];
    const endToEnd: number[] = [];
    for (let i = 0; i < 100; i++) {
      const command = `echo tg-rule-probe-${i}`;
      assert.notEqual((await decide(a.url, command)).body.decision, 'deny', 'control: allowed before the rule');
      const added = await call(c.url, '/v1/rules', {
        token: REVIEWER_TOKEN,
        body: { effect: 'deny', pattern: `bash(echo tg-rule-probe-${i})` },
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const at = performance.now();
      // Probes go out every 2 ms without waiting for each other (a slow answer on a busy machine does not delay
      // the next probe); the rule applied by the send time of the earliest probe it decided.
      const seen = await Promise.all(
        [a, b].map(async (r) => {
          const probes: Promise<{ sent: number; answered: number } | undefined>[] = [];
          let denied = false;
          while (!denied && performance.now() - at < 2000) {
            const sent = performance.now() - at;
            probes.push(
              decide(r.url, command).then((res) => {
                if (res.body.decision !== 'deny') return undefined;
                denied = true;
                return { sent, answered: performance.now() - at };
              }),
            );
            await sleep(2);
          }
          const hits = (await Promise.all(probes)).filter((x) => x !== undefined);
          return hits.length
            ? { sent: Math.min(...hits.map((x) => x.sent)), answered: Math.min(...hits.map((x) => x.answered)) }
            : { sent: Infinity, answered: Infinity };
        }),
      );
      applied.push(Math.max(...seen.map((x) => x.sent)));
      endToEnd.push(Math.max(...seen.map((x) => x.answered)));
    }
    const p99 = percentile(applied, 99);
    console.log(
      `# rule added on C applied on A and B: p50 ${percentile(applied, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (end to end with the probe's round trip: p50 ${percentile(endToEnd, 50).toFixed(2)} ms, p99 ${percentile(endToEnd, 99).toFixed(2)} ms)`,
    );
    assert.ok(p99 <= 50, `p99 ${p99} ms`);
  });

  it('(6) the pending cap holds across replicas (counted in the database)', async () => {
    const asks = await Promise.all(
      [a, b, c].flatMap((r, k) =>
        [0, 1, 2, 3].map((i) => decide(r.url, `sudo systemctl restart cap-${k}-${i}`, { agent_id: 'capped' })),
      ),
    );
    assert.equal(asks.filter((r) => r.status === 200).length, 5, 'five per agent, whichever replica was asked');
    assert.equal(asks.filter((r) => r.status === 429).length, 7);
    assert.equal(
      (await decide(b.url, 'sudo systemctl restart cap-other', { agent_id: 'not-capped' })).status,
      200,
      'control: another agent still asks',
    );
    // An answer given on C frees one slot, whichever replica opened it: the next ask through A opens, the one after
    // through B is capped again.
    const opened = asks.find((r) => r.status === 200)!.body.approval.id as string;
    assert.equal((await resolve(c.url, opened, 'deny')).status, 200);
    assert.equal((await decide(a.url, 'sudo systemctl restart cap-freed', { agent_id: 'capped' })).status, 200);
    assert.equal((await decide(b.url, 'sudo systemctl restart cap-again', { agent_id: 'capped' })).status, 429);
  });

  it('(6) failed authentications are counted in the database: bad tokens spread over three replicas are blocked after 30 in all, not 90; a block made through A holds on B and C', async () => {
    // The replicas run the default limit: 30 failures a minute per address, then 429 for 60 s. Every request here
    // comes from 127.0.0.1. The first 29 go round-robin over C, B, A, …; the 30th, which blocks, goes through A.
    const bad = (r: Replica, i: number) => call(r.url, '/v1/rules', { token: `tg-wrong-token-${i}-0123456789abcdef` });
    const spread = [c, b, a];
    const statuses: number[] = [];
    for (let i = 0; i < 29; i++) statuses.push((await bad(spread[i % 3]!, i)).status);
    assert.deepEqual(statuses, Array(29).fill(401), 'under the limit, each replica answers 401');
    assert.equal((await bad(a, 29)).status, 401, 'the 30th failure (through A) is answered, and blocks');
    for (const r of [b, c, a]) {
      const refused = await bad(r, 100);
      assert.equal(refused.status, 429, `replica ${r.name} honours the block made through A`);
      assert.match(refused.body.detail, /too many failed authentications/);
    }
    const retry = await fetch(`${b.url}/v1/decide`, {
      method: 'POST',
      headers: { authorization: 'Bearer tg-wrong-again-0123456789abcdef', 'content-type': 'application/json' },
      body: '{"tool":"bash","args":{"command":"ls"}}',
    });
    assert.equal(retry.status, 429);
    assert.ok(Number(retry.headers.get('retry-after')) > 50, `Retry-After ${retry.headers.get('retry-after')}`);
    // Control: valid tokens from the same address are served on every replica (the decide fast path included).
    for (const r of [a, b, c]) {
      assert.equal((await call(r.url, '/v1/rules', { token: REVIEWER_TOKEN })).status, 200);
      assert.equal((await decide(r.url, 'ls')).status, 200);
    }
    const [row] = cluster
      .psql("SELECT failures || ' ' || (blocked_until > 0) FROM auth_failures WHERE address = '127.0.0.1'", auditName())
      .split('\n');
    assert.equal(row, '30 true', 'one row for the address, counted once per failure whichever replica saw it');
  });

  it('(4) kill -9 of a replica under load: every answered decision is in audit_log, audit verify passes, its waiters retried elsewhere get their answers', async () => {
    const waiting = await decide(c.url, 'sudo systemctl restart waits-on-c', { agent_id: 'kill9' });
    const held = call(c.url, `/v1/approvals/${waiting.body.approval.id}?wait=30`);
    const answered = await load([a, b, c], 16, 1500, () => c.kill(), 600);
    await held; // the connection to C broke
    console.log(`# kill -9 under load: ${answered.length} decisions answered`);
    assert.ok(answered.length > 100, `only ${answered.length} decisions answered`);
    await assertAllAudited(answered);
    // The agent retries its wait on A; a reviewer answers on B.
    const retried = call(a.url, `/v1/approvals/${waiting.body.approval.id}?wait=10`);
    await sleep(50);
    assert.equal((await resolve(b.url, waiting.body.approval.id, 'allow_once')).status, 200);
    assert.equal((await retried).body.status, 'approved');
    const verify = execFileSync(process.execPath, [`${ROOT}/bin/toolgate.js`, 'audit', 'verify', '--database', url], {
      encoding: 'utf8',
    });
    assert.match(verify, /^ok: \d+ audit row/);
    c = await startReplica('c2', url, config.file);
  });

  it('(5) PostgreSQL restarted under load: /readyz not ready while down, replicas reconnect, no answered decision lost, waiters woken', async () => {
    const pending = await decide(a.url, 'sudo systemctl restart across-restart', { agent_id: 'restart' });
    const held = call(a.url, `/v1/approvals/${pending.body.approval.id}?wait=60`);
    let sawNotReady = false;
    const answered = await load(
      [a, b, c],
      16,
      2500,
      async () => {
        cluster.stop('fast');
        for (let i = 0; i < 20 && !sawNotReady; i++) {
          sawNotReady = (await call(a.url, '/readyz')).status === 503;
          await sleep(25);
        }
        await sleep(300);
        cluster.start();
      },
      500,
    );
    assert.ok(sawNotReady, '/readyz said not ready while the database was down');
    // Every replica is ready again by itself.
    for (const r of [a, b, c]) {
      await until(async () => (await call(r.url, '/readyz')).status === 200, 10_000).catch(async (error) => {
        throw new Error(
          `replica ${r.name} not ready again (exit ${r.process.exitCode}): ${JSON.stringify((await call(r.url, '/readyz')).body)}\n${r.log().slice(-3000)}`,
          { cause: error },
        );
      });
    }
    await assertAllAudited(answered);
    // The waiter on A is woken by an answer given on B after the restart.
    await until(async () => (await resolve(b.url, pending.body.approval.id, 'deny')).status === 200, 5000);
    assert.equal((await held).body.status, 'denied');
  });

  /** Decides allowed commands from `clients` loops spread over the replicas for `ms`; calls `during` at `at` ms. */
  async function load(
    replicas: Replica[],
    clients: number,
    ms: number,
    during: () => unknown,
    at: number,
  ): Promise<string[]> {
    const answered: string[] = [];
    const end = performance.now() + ms;
    const event = sleep(at).then(during);
    await Promise.all(
      Array.from({ length: clients }, async (_, k) => {
        let n = 0;
        while (performance.now() < end) {
          const r = replicas[(k + n++) % replicas.length]!;
          const res = await decide(r.url, `echo load-${k}-${n}`, { agent_id: `load-${k}` });
          if (res.status === 200) answered.push(res.body.decision_id);
          else await sleep(5);
        }
      }),
    );
    await event;
    return answered;
  }

  async function assertAllAudited(decisionIds: string[]): Promise<void> {
    const db = auditName();
    const missing: string[] = [];
    for (let i = 0; i < decisionIds.length; i += 500) {
      const list = decisionIds
        .slice(i, i + 500)
        .map((id) => `'${id}'`)
        .join(',');
      const found = new Set(
        cluster
          .psql(`SELECT decision_id FROM audit_log WHERE decision_id IN (${list})`, db)
          .split('\n')
          .filter(Boolean),
      );
      for (const id of decisionIds.slice(i, i + 500)) if (!found.has(id)) missing.push(id);
    }
    assert.deepEqual(missing, [], `${missing.length} answered decisions are not in audit_log`);
  }
});

/** Resident set size of a process, in MB. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function waitForWaiters(replica: Replica, n: number): Promise<void> {
  await until(async () => {
    const text = (await fetch(`${replica.url}/metrics`).then((r) => r.text())) as string;
    const m = /^toolgate_long_poll_waiters (\d+)/m.exec(text);
    return m !== null && Number(m[1]) >= n;
  }, 20_000);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}
