// The zod-free part of the config: durations, the default data directory and its tokens file. `toolgate hook` runs before every
// tool call and reads only these, so it does not load zod and the config schema (see src/cli/hook.ts).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const DURATION_RE = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses `15m`, `6s`, `90d`, `500ms` or a number of seconds into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION_RE.exec(text.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS]);
}

/** The default data directory: `TOOLGATE_DATA_DIR`, else `~/.toolgate`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLGATE_DATA_DIR ? resolve(env.TOOLGATE_DATA_DIR) : join(homedir(), '.toolgate');
}

/** The tokens file's path in a data directory (written by the server, read by the CLI for its own calls). */
export function tokensFile(dataDir: string): string {
  return join(dataDir, 'tokens.json');
}
