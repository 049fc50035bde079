// Benchmark 5: 16 clients decide for 3 s, then the server is killed with SIGKILL; every decision a client got an
// answer for must be in audit_log (the row is committed before the answer leaves).
import Database from 'better-sqlite3';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { decideBody, MIX } from './lib/mix.ts';
import { AGENT_TOKEN, removeDir, SERVER_CPU, startToolgate } from './lib/processes.ts';
import { atMost, info, type BenchOptions, type BenchResult } from './lib/result.ts';

const BENCH = 'audit';

/** POSTs a decide body; resolves with the decision id once the whole answer has arrived, or undefined on failure. */
function decideOnce(url: string, body: string, agent: Agent): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/v1/decide`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${AGENT_TOKEN}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.once('end', () => {
          if (res.statusCode !== 200) return resolve(undefined);
          try {
            resolve((JSON.parse(text) as { decision_id?: string }).decision_id);
          } catch {
            resolve(undefined); // cut off by the kill
          }
        });
        res.once('error', () => resolve(undefined));
        res.once('aborted', () => resolve(undefined));
      },
    );
    req.once('error', () => resolve(undefined));
    req.end(body);
  });
}

export async function benchAudit(options: BenchOptions): Promise<BenchResult> {
  const clients = 16;
  const seconds = options.quick ? 1 : 3;
  const server = await startToolgate({ cpu: SERVER_CPU, flags: ['--log-level', 'warn'] });
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const answered: string[] = [];
  let failed = 0;
  let stop = false;
  try {
    const loops = Array.from({ length: clients }, async (_, client) => {
      for (let n = 0; !stop; n++) {
        const id = await decideOnce(server.url, decideBody(MIX[(client + n) % MIX.length]!, `c${client}n${n}`), agent);
        if (id) answered.push(id);
        else if (!stop) failed++;
      }
    });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    // The kill lands while requests are in flight: some are answered, some cut off, some never read.
    stop = true;
    await server.kill9();
    await Promise.all(loops);
  } finally {
    agent.destroy();
    if (server.child.exitCode === null && server.child.signalCode === null) await server.kill9();
  }
  // After a crash SQLite recovers the WAL on open; the rows a client was answered for must all be there.
  const db = new Database(join(server.dataDir, 'toolgate.db'));
  let stored: number;
  const missing: string[] = [];
  try {
    const has = db.prepare('SELECT 1 FROM audit_log WHERE decision_id = ?').pluck();
    for (const id of answered) if (!has.get(id)) missing.push(id);
    stored = db.prepare('SELECT COUNT(*) FROM audit_log').pluck().get() as number;
  } finally {
    db.close();
    removeDir(server.dataDir);
  }
  options.log(
    `  ${answered.length} decisions answered in ${seconds} s by ${clients} clients; ${stored} audit rows after kill -9; ${missing.length} answered but missing`,
  );
  if (answered.length === 0) throw new Error(`no decision was answered before the kill (${failed} failed requests)`);
  return {
    bench: BENCH,
    figures: [
      atMost(
        BENCH,
        'answered decisions missing from audit_log after kill -9',
        missing.length,
        0,
        'rows',
        `${answered.length} answered by ${clients} clients in ${seconds} s; ${stored} rows stored (rows of requests cut off by the kill may be there too)`,
      ),
      info(BENCH, 'requests that failed before the kill', failed, 'requests'),
    ],
    raw: { clients, seconds, answered: answered.length, stored, missing, failedBeforeKill: failed },
  };
}
