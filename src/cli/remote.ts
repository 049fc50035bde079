// Talking to a running sidecar from the CLI: its URL and a token of the right role.
import { existsSync, readFileSync } from 'node:fs';
import { defaultDataDir, tokensFile } from '../config-values.ts';

/** The sidecar's base URL: --url, else TOOLGATE_URL, else the default address. */
export function sidecarUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return (flag ?? env.TOOLGATE_URL ?? 'http://127.0.0.1:7411').replace(/\/+$/, '');
}

/** A token of `role`: the env variable, else the data directory's tokens.json. */
export function roleToken(role: 'agent' | 'reviewer', env: NodeJS.ProcessEnv, dataDir?: string): string | undefined {
  const fromEnv = role === 'agent' ? env.TOOLGATE_AGENT_TOKEN : env.TOOLGATE_REVIEWER_TOKEN;
  if (fromEnv) return fromEnv;
  const file = tokensFile(dataDir ?? defaultDataDir(env));
  if (!existsSync(file)) return undefined;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)[role];
  } catch {
    return undefined;
  }
}

/** A failed call to the sidecar, with the problem's detail when it sent one. */
export class RemoteError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Calls the sidecar with a bearer token; returns the JSON body or throws a RemoteError with the problem's detail. */
export async function callSidecar<T>(base: string, token: string | undefined, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(base + path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    throw new RemoteError(0, `cannot reach toolgate at ${base}: ${(error as Error).message}`);
  }
  const text = await response.text();
  const json = text ? safeJson(text) : undefined;
  if (!response.ok) throw new RemoteError(response.status, `${response.status} ${(json as { detail?: string } | undefined)?.detail ?? text}`);
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
