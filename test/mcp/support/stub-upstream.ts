// The stub upstream MCP server over stdio (see stub-server.ts): STUB_CALLS names the file its calls are appended to,
// STUB_VARIANT=changed alters one tool's description.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createStubServer } from './stub-server.ts';

await createStubServer({ callsFile: process.env.STUB_CALLS, changed: process.env.STUB_VARIANT === 'changed' }).connect(
  new StdioServerTransport(),
);
