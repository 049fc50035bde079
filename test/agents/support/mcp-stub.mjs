// A stand-in MCP server (stdio, newline-delimited JSON-RPC) with one tool, execute_command, that runs nothing: it
// appends the command it was given to the file named by MCP_STUB_LOG, so a test can see whether a call got through.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const tools = [
  {
    name: 'execute_command',
    description: 'Run a shell command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

createInterface({ input: process.stdin }).on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  if (request.id === undefined) return; // a notification
  if (request.method === 'initialize') {
    send({
      id: request.id,
      result: {
        protocolVersion: request.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'stub', version: '1.0.0' },
      },
    });
  } else if (request.method === 'tools/list') {
    send({ id: request.id, result: { tools } });
  } else if (request.method === 'tools/call') {
    appendFileSync(process.env.MCP_STUB_LOG, `${request.params?.arguments?.command}\n`);
    send({ id: request.id, result: { content: [{ type: 'text', text: 'stub: recorded, not run' }] } });
  } else {
    send({ id: request.id, result: {} });
  }
});
