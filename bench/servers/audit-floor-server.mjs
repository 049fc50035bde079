// The durable-audit floor: the raw node:http baseline plus what toolgate must do for every decision before it
// answers — append the decision's row to the audit log through toolgate's own store (same schema, hash chain,
// grouped commit, checkpoint worker) and wait for the commit. No auth hashing, no validation, no decision.
// What this server reaches is the most any server can reach here that logs each call durably before answering.
// Plain JavaScript over the built store (dist/), so nothing but the audit path is added to the raw baseline.
import { createServer } from 'node:http';
import { readDecideCall } from './raw-request.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../dist/store/sqlite-store.js';
import { timeOrderedId } from '../../dist/store/ids.js';
import { SERVER_CHECKPOINT_INTERVAL_MS } from '../../dist/store/open-store.js';

const TOKEN = process.env.TOOLGATE_AGENT_TOKEN ?? '';
const REASON = 'allowed: no rule matched and no danger was found';
const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-floor-'));
const store = openSqliteStore(join(dataDir, 'toolgate.db'), { checkpointIntervalMs: SERVER_CHECKPOINT_INTERVAL_MS });

const server = createServer((req, res) => {
  const started = performance.now();
  readDecideCall(req, res, TOKEN, (body) => {
    const decisionId = timeOrderedId();
    const entry = {
      ts: new Date().toISOString(),
      decision_id: decisionId,
      agent_id: body.agent_id ?? null,
      session_id: body.session_id ?? null,
      tool: body.tool,
      args: JSON.stringify(body.args ?? {}),
      decision: 'allow',
      risk: null,
      source: 'default',
      reason: REASON,
      rule_id: null,
      approval_id: null,
      mode: 'default',
      latency_us: Math.round((performance.now() - started) * 1000),
      resolved_by: null,
      findings: '[]',
    };
    store.appendAudit([entry]).then(
      () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            decision_id: decisionId,
            decision: 'allow',
            reason: REASON,
            risk: null,
            source: 'default',
            findings: [],
            mode: 'default',
          }),
        ),
      () => res.writeHead(503, { 'content-type': 'application/problem+json' }).end('{"title":"audit log unavailable"}'),
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`audit floor listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () =>
  server.close(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }),
);
