// The HTTP baseline: a raw node:http server that reads the same JSON body and answers a fixed decision.
// Plain JavaScript without a loader, so the baseline is what node:http alone can do on this core.
import { createServer } from 'node:http';
import { readDecideCall } from './raw-request.mjs';

const TOKEN = process.env.TOOLGATE_AGENT_TOKEN ?? '';
const ANSWER = JSON.stringify({
  decision_id: '00000000-0000-4000-8000-000000000000',
  decision: 'allow',
  reason: 'allowed: no rule matched and no danger was found',
  risk: null,
  source: 'default',
  findings: [],
  mode: 'default',
});

const server = createServer((req, res) => {
  readDecideCall(req, res, TOKEN, () => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`raw node:http listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
