// The HTTP baseline: a raw node:http server that reads the same JSON body and answers a fixed decision.
// Plain JavaScript without a loader, so the baseline is what node:http alone can do on this core.
import { createServer } from 'node:http';

const TOKEN = process.env.TOOLGATE_AGENT_TOKEN ?? '';
const ANSWER = JSON.stringify({ decision_id: '00000000-0000-4000-8000-000000000000', decision: 'allow', reason: 'allowed: no rule matched and no danger was found', risk: null, source: 'default', findings: [], mode: 'default' });

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"title":"malformed JSON"}');
      return;
    }
    if (TOKEN && req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    if (typeof body?.tool !== 'string') {
      res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"title":"tool: required"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`raw node:http listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
