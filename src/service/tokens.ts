// Agent and reviewer tokens: configured ones, or generated once into <data-dir>/tokens.json (mode 0600).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NamedToken } from '../config.ts';

/** The tokens of both roles, and where generated ones are stored (when they were). */
export interface TokenSet {
  agent: NamedToken[];
  reviewer: NamedToken[];
  /** Path of tokens.json when tokens came from (or were written to) it. */
  file?: string;
  /** True when this call generated the file. */
  generated: boolean;
}

/** The tokens file's path in a data directory. */
export function tokensFile(dataDir: string): string {
  return join(dataDir, 'tokens.json');
}

/** Creates the data directory with mode 0700 if it does not exist (and tightens it if it does). */
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dataDir, 0o700);
  } catch {
    // Not ours to change (e.g. a mounted volume): the tokens file itself stays 0600.
  }
}

/** Uses configured tokens for each role; a role without any takes tokens.json, generating it on first start. */
export function loadTokens(dataDir: string, configured: { agent: NamedToken[]; reviewer: NamedToken[] }): TokenSet {
  if (configured.agent.length > 0 && configured.reviewer.length > 0) return { ...configured, generated: false };
  const file = tokensFile(dataDir);
  let generated = false;
  let stored: { agent: string; reviewer: string };
  if (existsSync(file)) {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } else {
    ensureDataDir(dataDir);
    stored = { agent: `tga_${randomBytes(24).toString('base64url')}`, reviewer: `tgr_${randomBytes(24).toString('base64url')}` };
    writeFileSync(file, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    generated = true;
  }
  chmodSync(file, 0o600);
  return {
    agent: configured.agent.length > 0 ? configured.agent : [{ name: 'agent', token: stored.agent }],
    reviewer: configured.reviewer.length > 0 ? configured.reviewer : [{ name: 'reviewer', token: stored.reviewer }],
    file,
    generated,
  };
}
