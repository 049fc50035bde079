// Tiny local stand-ins for the model APIs the agent runtimes call (Anthropic Messages, OpenAI Responses, Gemini
// generateContent), each streaming: the first turn asks for one shell command, the turn after the tool result ends
// with a text. Every request body is kept, so a test can assert what reached the "model" (a secret must not).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A stand-in model server. */
export interface StandIn {
  url: string;
  /** Every request body, as text, in order. */
  requests: { path: string; body: string }[];
  /** Everything the model was sent, joined (to search for a secret). */
  received(): string;
  close(): Promise<void>;
}

export type Api = 'anthropic' | 'openai' | 'gemini';

/** A tool call other than the shell (Gemini only): its function name and arguments. */
export interface ToolCallSpec {
  name: string;
  args: Record<string, unknown>;
}

/** Starts a stand-in for `api` whose first turn runs `command` in the runtime's shell tool (or makes `call`). */
export async function startStandIn(api: Api, command: string, call?: ToolCallSpec): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      requests.push({ path: req.url ?? '', body });
      try {
        if (api === 'anthropic') return anthropic(req, res, body, command);
        if (api === 'openai') return openai(req, res, body, command);
        return gemini(req, res, body, call ?? { name: 'run_shell_command', args: { command } });
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received: () => requests.map((r) => r.body).join('\n'),
    close: () => closeServer(server),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function sse(res: ServerResponse, events: [string | undefined, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** Whether the conversation already carries a tool's result (the second turn). */
function hasToolResult(body: string): boolean {
  return /"tool_result"|"function_call_output"|"functionResponse"/.test(body);
}

// Anthropic Messages API (POST /v1/messages, stream: true).
function anthropic(req: IncomingMessage, res: ServerResponse, body: string, command: string): void {
  if (!req.url?.startsWith('/v1/messages')) {
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not here' } }));
    return;
  }
  const request = JSON.parse(body) as { model?: string; stream?: boolean; tools?: { name: string }[] };
  if (req.url.startsWith('/v1/messages/count_tokens')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }));
    return;
  }
  const shellTool = request.tools?.some((t) => t.name === 'Bash');
  const callTool = shellTool && !hasToolResult(body);
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const content = callTool
    ? {
        type: 'tool_use',
        id: `toolu_${Math.random().toString(36).slice(2)}`,
        name: 'Bash',
        input: { command, description: 'run it' },
      }
    : { type: 'text', text: 'All done.' };
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: [content],
        stop_reason: callTool ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  const start = callTool
    ? { type: 'tool_use', id: (content as { id: string }).id, name: 'Bash', input: {} }
    : { type: 'text', text: '' };
  const delta = callTool
    ? { type: 'input_json_delta', partial_json: JSON.stringify((content as { input: unknown }).input) }
    : { type: 'text_delta', text: 'All done.' };
  sse(res, [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: request.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: callTool ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

// OpenAI Responses API (POST /v1/responses, stream: true), as Codex's custom model providers speak it.
function openai(req: IncomingMessage, res: ServerResponse, body: string, command: string): void {
  if (!req.url?.includes('/responses')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not here' } }));
    return;
  }
  const callTool = !hasToolResult(body);
  const id = `resp_${Math.random().toString(36).slice(2)}`;
  const item = callTool
    ? {
        type: 'function_call',
        id: `fc_${Math.random().toString(36).slice(2)}`,
        call_id: `call_${Math.random().toString(36).slice(2)}`,
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: command, login: false, yield_time_ms: 2000 }),
        status: 'completed',
      }
    : {
        type: 'message',
        id: `msg_${Math.random().toString(36).slice(2)}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'All done.', annotations: [] }],
      };
  const response = {
    id,
    object: 'response',
    status: 'completed',
    output: [item],
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    },
  };
  sse(res, [
    ['response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response }],
  ]);
}

// Gemini API (POST /v1beta/models/<model>:streamGenerateContent?alt=sse).
function gemini(req: IncomingMessage, res: ServerResponse, body: string, call: ToolCallSpec): void {
  const url = req.url ?? '';
  if (!url.includes(':streamGenerateContent') && !url.includes(':generateContent')) {
    if (url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 404, message: 'not here', status: 'NOT_FOUND' } }));
    return;
  }
  const request = JSON.parse(body) as { tools?: { functionDeclarations?: { name: string }[] }[] };
  const declared = request.tools?.some((t) => t.functionDeclarations?.some((f) => f.name === call.name));
  const callTool = declared && !hasToolResult(body);
  const part = callTool ? { functionCall: { name: call.name, args: call.args } } : { text: 'All done.' };
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-2.5-pro',
  };
  if (url.includes(':generateContent')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chunk));
    return;
  }
  sse(res, [[undefined, chunk]]);
}
