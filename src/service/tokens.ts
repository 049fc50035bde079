// Agent and reviewer tokens: configured ones, or generated once into <data-dir>/tokens.json (mode 0600).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { NamedToken } from '../config.ts';
import { tokensFile } from '../config-values.ts';

/** The tokens of both roles, and where generated ones are stored (when they were). */
export interface TokenSet {
  agent: NamedToken[];
  reviewer: NamedToken[];
  /** Path of tokens.json when tokens came from (or were written to) it. */
  file?: string;
  /** True when this call generated the file. */
  generated: boolean;
}

/** A token problem that must stop the server (an agent token that would act as a reviewer, a corrupt file). */
export class TokenError extends Error {}

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
  let set: TokenSet;
  if (configured.agent.length > 0 && configured.reviewer.length > 0) {
    set = { ...configured, generated: false };
  } else {
    const file = tokensFile(dataDir);
    let generated = false;
    let stored: { agent: string; reviewer: string };
    ensureDataDir(dataDir);
    if (existsSync(file)) {
      stored = readStored(file);
    } else {
      stored = {
        agent: `tga_${randomBytes(24).toString('base64url')}`,
        reviewer: `tgr_${randomBytes(24).toString('base64url')}`,
      };
      // `wx`: never follow or overwrite a file someone planted between the check and the write.
      writeFileSync(file, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
      generated = true;
    }
    // Tightened on every start: a copy or an editor may have widened it.
    chmodSync(file, 0o600);
    set = {
      agent: configured.agent.length > 0 ? configured.agent : [{ name: 'agent', token: stored.agent }],
      reviewer: configured.reviewer.length > 0 ? configured.reviewer : [{ name: 'reviewer', token: stored.reviewer }],
      file,
      generated,
    };
  }
  // The authenticator tries reviewer tokens first: a token listed for both roles would give an agent the reviewer's power.
  const reviewerTokens = new Set(set.reviewer.map((t) => t.token));
  const shared = set.agent.find((t) => reviewerTokens.has(t.token));
  if (shared)
    throw new TokenError(`agent token "${shared.name}" is also a reviewer token; give the agent its own token`);
  return set;
}

/**
 * Whether `token` is a reviewer token of this installation: one of the config file's, else the one in tokens.json.
 * Generates nothing (a command that checks a token must not create one). With neither (the server's tokens come from
 * its own environment) there is nothing here to check against, and the token given explicitly is taken as it is.
 */
export function isReviewerToken(token: string, dataDir: string, configured: NamedToken[]): boolean {
  const file = tokensFile(dataDir);
  const known =
    configured.length > 0 ? configured.map((t) => t.token) : existsSync(file) ? [readStored(file).reviewer] : [];
  if (known.length === 0) return true;
  const given = Buffer.from(token);
  return known.some((k) => {
    const candidate = Buffer.from(k);
    return candidate.length === given.length && timingSafeEqual(candidate, given);
  });
}

function readStored(file: string): { agent: string; reviewer: string } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TokenError(`${file}: not valid JSON (${(error as Error).message}); delete it to generate new tokens`);
  }
  const record = json as Record<string, unknown> | null;
  if (
    !record ||
    typeof record.agent !== 'string' ||
    typeof record.reviewer !== 'string' ||
    record.agent.length < 16 ||
    record.reviewer.length < 16
  ) {
    throw new TokenError(
      `${file}: expected {"agent": "<token>", "reviewer": "<token>"} with tokens of at least 16 characters; delete it to generate new tokens`,
    );
  }
  return { agent: record.agent, reviewer: record.reviewer };
}

/** A token as it may appear in a log: its first characters only. */
export function tokenHint(token: string): string {
  return `${token.slice(0, Math.min(6, Math.floor(token.length / 4)))}…`;
}

/** One log line per role naming the tokens (never their values), for the startup banner. */
export function describeTokens(set: TokenSet): string[] {
  const list = (tokens: NamedToken[]) => tokens.map((t) => `${t.name} (${tokenHint(t.token)})`).join(', ');
  return [`agent tokens: ${list(set.agent)}`, `reviewer tokens: ${list(set.reviewer)}`];
}

/** Warnings about tokens that are easy to guess or files others can read; empty when all is well. */
export function tokenWarnings(set: TokenSet, configFile: string | null): string[] {
  const warnings: string[] = [];
  for (const [role, tokens] of [
    ['agent', set.agent],
    ['reviewer', set.reviewer],
  ] as const) {
    for (const t of tokens)
      if (t.token.length < 24)
        warnings.push(`${role} token "${t.name}" is only ${t.token.length} characters; use at least 24 random ones`);
  }
  if (configFile && existsSync(configFile)) {
    const mode = statSync(configFile).mode & 0o077;
    if (mode !== 0 && /"tokens"\s*:/.test(readFileSync(configFile, 'utf8')))
      warnings.push(`${configFile} holds tokens and other users can read it: chmod 600 ${configFile}`);
  }
  return warnings;
}
