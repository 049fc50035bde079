// The MCP gateway's memory of tool definitions: the accepted hash of every tool of every gated server, and a changed one awaiting a reviewer.
import type Database from 'better-sqlite3';
import type { McpToolRecord } from './types.ts';

/** A row of the `mcp_tools` table (the same columns in every store). */
export interface McpToolRow {
  server: string;
  tool: string;
  hash: string;
  pending_hash: string | null;
  first_seen_at: string;
  changed_at: string | null;
}

/** The two store methods behind `Store.mcpTools` / `Store.saveMcpTool`, on their own prepared statements. */
export function mcpToolMethods(db: Database.Database): {
  mcpTools(server: string): Promise<McpToolRecord[]>;
  saveMcpTool(record: McpToolRecord): Promise<void>;
} {
  const select = db.prepare('SELECT * FROM mcp_tools WHERE server = ? ORDER BY tool');
  const upsert =
    db.prepare(`INSERT INTO mcp_tools (server, tool, hash, pending_hash, first_seen_at, changed_at) VALUES (@server, @tool, @hash, @pending_hash, @first_seen_at, @changed_at)
    ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, pending_hash = excluded.pending_hash, changed_at = excluded.changed_at`);
  return {
    async mcpTools(server) {
      return (select.all(server) as McpToolRow[]).map(mcpToolFromRow);
    },
    async saveMcpTool(record) {
      upsert.run({
        server: record.server,
        tool: record.tool,
        hash: record.hash,
        pending_hash: record.pendingHash,
        first_seen_at: record.firstSeenAt,
        changed_at: record.changedAt,
      });
    },
  };
}

export function mcpToolFromRow(r: McpToolRow): McpToolRecord {
  return {
    server: r.server,
    tool: r.tool,
    hash: r.hash,
    pendingHash: r.pending_hash,
    firstSeenAt: r.first_seen_at,
    changedAt: r.changed_at,
  };
}
