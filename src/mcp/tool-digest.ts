// Hashes for the gateway: a tool definition's (a changed one is a possible "rug pull") and a call's (the same call again joins its approval).
import { createHash } from 'node:crypto';

/** The parts of an MCP tool definition that say what it does; a change in any of them is reported. */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** sha256 (hex) of the definition's canonical JSON: name, description, input and output schema, annotations. */
export function definitionHash(tool: ToolDefinition): string {
  const { name, description, inputSchema, outputSchema, annotations } = tool;
  return sha256(
    canonicalJson({
      name,
      description: description ?? null,
      inputSchema: inputSchema ?? null,
      outputSchema: outputSchema ?? null,
      annotations: annotations ?? null,
    }),
  );
}

/** sha256 (hex) of one call: the server, the tool and its arguments (keys sorted), so equal calls have equal digests. */
export function callDigest(server: string, tool: string, args: unknown): string {
  return sha256(canonicalJson([server, tool, args ?? {}]));
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
