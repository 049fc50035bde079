// What an audit row keeps of a call's arguments: all of them up to a size, else a digest and a prefix.
import { createHash } from 'node:crypto';

/** The shape stored in place of arguments longer than the limit (valid JSON, like every args column). */
export interface TruncatedArgs {
  truncated: { bytes: number; sha256: string; kept: number };
  /** The first `kept` bytes of the arguments' JSON text (cut at a character boundary). */
  prefix: string;
}

/**
 * The arguments' JSON as an audit row stores it. An agent that sends 250 KB `Write` contents in a loop must not grow
 * the audit log by that much per call (issue 23, row 3): beyond `maxBytes` the row keeps the SHA-256 of the (masked)
 * JSON, its size, and its first `maxBytes / 2` bytes, enough for a reviewer to see what the call was. Pending
 * approvals keep the whole (masked) arguments — a reviewer must see what they approve — and are capped in number.
 */
export function storedArgs(argsJson: string, maxBytes: number): string {
  if (argsJson.length <= maxBytes / 4) return argsJson; // at most 4 bytes per UTF-16 unit: surely within the limit
  const bytes = Buffer.byteLength(argsJson, 'utf8');
  if (bytes <= maxBytes) return argsJson;
  const buffer = Buffer.from(argsJson, 'utf8');
  let end = Math.floor(maxBytes / 2);
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end--; // not inside a UTF-8 character
  const prefix = buffer.subarray(0, end).toString('utf8');
  const stored: TruncatedArgs = {
    truncated: { bytes, sha256: createHash('sha256').update(buffer).digest('hex'), kept: end },
    prefix,
  };
  return JSON.stringify(stored);
}
