// The MCP gateway is a client of the sidecar, not of its database: src/mcp reaches toolgate only through src/client.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const dir = new URL('../../src/mcp/', import.meta.url);

describe('src/mcp imports', () => {
  it('never the engine, the store, the service, the HTTP app or the CLI (only ../client, the MCP SDK, zod and node:)', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length >= 4);
    for (const file of files) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const [, from] of text.matchAll(/^(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        assert.ok(
          from!.startsWith('node:') ||
            from!.startsWith('@modelcontextprotocol/') ||
            from === 'zod' ||
            from!.startsWith('./') ||
            from === '../client/index.ts',
          `${file} imports ${from}`,
        );
      }
    }
  });
});
