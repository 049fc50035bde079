// What the raw baseline does with a request, shared with the durable-audit floor so the two differ only in what
// happens after it: read the body, parse the JSON, check the token and the tool, then hand the body on.
// Plain JavaScript without a loader.

/** Reads a /v1/decide request; answers bad ones itself and calls `onCall(body)` with a valid one. */
export function readDecideCall(req, res, token, onCall) {
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
    if (token && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end();
      return;
    }
    if (typeof body?.tool !== 'string') {
      res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"title":"tool: required"}');
      return;
    }
    onCall(body);
  });
}
