// Talking to a running sidecar from the CLI: its URL and a token of the right role.
import { existsSync, readFileSync } from 'node:fs';
import { defaultDataDir, tokensFile } from '../config-values.ts';
import type { Io } from './command.ts';

/** The sidecar's base URL: --url, else TOOLGATE_URL, else the default address. */
export function sidecarUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return (flag ?? env.TOOLGATE_URL ?? 'http://127.0.0.1:7411').replace(/\/+$/, '');
}

/** The agent's token (hooks): TOOLGATE_AGENT_TOKEN, else the data directory's tokens.json. */
export function agentToken(env: NodeJS.ProcessEnv, dataDir?: string): string | undefined {
  if (env.TOOLGATE_AGENT_TOKEN) return env.TOOLGATE_AGENT_TOKEN;
  const file = tokensFile(dataDir ?? defaultDataDir(env));
  if (!existsSync(file)) return undefined;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).agent;
  } catch {
    return undefined;
  }
}

/** Why a reviewer command found no token, and how to give it one. */
export const NO_REVIEWER_TOKEN =
  "needs the reviewer token: set TOOLGATE_REVIEWER_TOKEN in your (the reviewer's) shell, or run it in a terminal to be asked for it. It does not read <data-dir>/tokens.json by itself: an agent running as your user could run this command, or import its code, and approve its own calls (docs/security.md).";

/**
 * The reviewer's token, given explicitly: TOOLGATE_REVIEWER_TOKEN, else typed at an interactive prompt (no echo).
 * Never read from the data directory's tokens.json: whatever can run this command could then act as the reviewer
 * without knowing the token — an agent on the same account included (issue 23, row 9).
 */
export async function reviewerToken(io: Pick<Io, 'env' | 'promptSecret'>): Promise<string | undefined> {
  if (io.env.TOOLGATE_REVIEWER_TOKEN) return io.env.TOOLGATE_REVIEWER_TOKEN;
  const typed = await io.promptSecret?.('Reviewer token (not echoed): ');
  return typed?.trim() || undefined;
}

/** A failed call to the sidecar, with the problem's detail when it sent one. */
export class RemoteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Calls the sidecar with a bearer token; returns the JSON body or throws a RemoteError with the problem's detail. */
export async function callSidecar<T>(
  base: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(base + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    throw new RemoteError(0, `cannot reach toolgate at ${base}: ${(error as Error).message}`);
  }
  const text = await response.text();
  const json = text ? safeJson(text) : undefined;
  if (!response.ok)
    throw new RemoteError(
      response.status,
      `${response.status} ${(json as { detail?: string } | undefined)?.detail ?? text}`,
    );
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
