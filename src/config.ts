// The one reader of environment variables, command-line flags and the config file, validated with zod.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { defaultDataDir, parseDuration } from './config-values.ts';
import { MODES } from './engine/modes.ts';
import type { Mode } from './engine/types.ts';

export { defaultDataDir, parseDuration } from './config-values.ts';

/** A named token: the name is what the audit log records as `resolved_by`. */
export interface NamedToken {
  name: string;
  token: string;
}

/** Everything the server needs, resolved from flags > env > config file > defaults. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  mode: Mode;
  askFallback: 'deny' | 'allow';
  approvalTimeoutMs: number;
  maxPendingPerAgent: number;
  /** Longest long-poll wait the server grants, in seconds. */
  maxWaitSeconds: number;
  bodyLimitBytes: number;
  protectedPaths: string[];
  aliases: Record<string, string>;
  readOnlyTools: string[];
  agentTokens: NamedToken[];
  reviewerTokens: NamedToken[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  auditRetentionMs: number | null;
  settingsFile: string | null;
  plugins: string[];
  offloadThresholdBytes: number;
  /** Agent hooks: pass `ask` through to the runtime's own prompt, or hold the hook on toolgate's approval queue. */
  hookAsk: 'passthrough' | 'hold';
  /** How long a held hook waits for a reviewer before answering deny, in seconds (keep it below the hook's timeout). */
  hookHoldSeconds: number;
  /** Where the config file was read from, if any. */
  configFile: string | null;
}

const duration = z.union([z.number().nonnegative().transform((n) => n * 1000), z.string().transform((s, ctx) => {
  const ms = parseDuration(s);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `not a duration: ${s} (use e.g. 6s, 15m, 90d)` });
    return z.NEVER;
  }
  return ms;
})]);
const namedTokens = z.array(z.object({ name: z.string().min(1).max(100), token: z.string().min(16).max(512) }));

/** The config file's schema (JSON): every key optional. */
export const ConfigFileSchema = z.object({
  host: z.string().min(1),
  port: z.coerce.number().int().min(0).max(65535),
  data_dir: z.string().min(1),
  mode: z.enum(MODES as [Mode, ...Mode[]]),
  ask_fallback: z.enum(['deny', 'allow']),
  approval_timeout: duration,
  max_pending_per_agent: z.coerce.number().int().min(1).max(100_000),
  max_wait: z.coerce.number().int().min(1).max(3600),
  body_limit: z.coerce.number().int().min(1024).max(64 * 1024 * 1024),
  protected_paths: z.array(z.string().min(1)),
  aliases: z.record(z.string(), z.string()),
  read_only_tools: z.array(z.string()),
  tokens: z.object({ agent: namedTokens.optional(), reviewer: namedTokens.optional() }),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  audit_retention: duration,
  settings: z.string().min(1),
  plugins: z.array(z.string().min(1)),
  offload_threshold: z.coerce.number().int().min(1),
  hook_ask: z.enum(['passthrough', 'hold']),
  hook_hold: duration,
}).partial().strict();

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Raw flag values as parsed by the CLI (strings or undefined). */
export type ConfigFlags = Partial<Record<'host' | 'port' | 'data-dir' | 'mode' | 'config' | 'ask-fallback' | 'approval-timeout' | 'max-pending' | 'log-level' | 'audit-retention' | 'settings' | 'offload-threshold' | 'hook-ask' | 'hook-hold', string>> & { plugin?: string[] };

/** A config problem, reported as `path: message`. */
export class ConfigError extends Error {}

/** Resolves the configuration: flags override env, env overrides the config file, the file overrides defaults. */
export function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const configFile = flags.config ?? env.TOOLGATE_CONFIG ?? null;
  const file = configFile ? readConfigFile(configFile) : {};
  const fromFlags = ConfigFileSchema.safeParse(dropUndefined({
    host: flags.host, port: flags.port, data_dir: flags['data-dir'], mode: flags.mode, ask_fallback: flags['ask-fallback'],
    approval_timeout: flags['approval-timeout'], max_pending_per_agent: flags['max-pending'], log_level: flags['log-level'],
    audit_retention: flags['audit-retention'], settings: flags.settings, offload_threshold: flags['offload-threshold'],
    plugins: flags.plugin && flags.plugin.length ? flags.plugin : undefined, hook_ask: flags['hook-ask'], hook_hold: flags['hook-hold'],
  }));
  if (!fromFlags.success) throw new ConfigError(formatIssues('flag', fromFlags.error.issues));
  const fromEnv = ConfigFileSchema.safeParse(dropUndefined({ mode: env.TOOLGATE_MODE, port: env.TOOLGATE_PORT, host: env.TOOLGATE_HOST, log_level: env.TOOLGATE_LOG_LEVEL, hook_ask: env.TOOLGATE_HOOK_ASK }));
  if (!fromEnv.success) throw new ConfigError(formatIssues('env', fromEnv.error.issues));
  const merged: ConfigFile = { ...file, ...fromEnv.data, ...fromFlags.data };
  const agentTokens = [...(merged.tokens?.agent ?? [])];
  const reviewerTokens = [...(merged.tokens?.reviewer ?? [])];
  if (env.TOOLGATE_AGENT_TOKEN) agentTokens.unshift({ name: 'agent', token: env.TOOLGATE_AGENT_TOKEN });
  if (env.TOOLGATE_REVIEWER_TOKEN) reviewerTokens.unshift({ name: 'reviewer', token: env.TOOLGATE_REVIEWER_TOKEN });
  return {
    host: merged.host ?? '127.0.0.1',
    port: merged.port ?? 7411,
    dataDir: merged.data_dir ? resolve(expandTilde(merged.data_dir)) : defaultDataDir(env),
    mode: merged.mode ?? 'default',
    askFallback: merged.ask_fallback ?? 'deny',
    approvalTimeoutMs: merged.approval_timeout ?? 15 * 60_000,
    maxPendingPerAgent: merged.max_pending_per_agent ?? 50,
    maxWaitSeconds: merged.max_wait ?? 60,
    bodyLimitBytes: merged.body_limit ?? 256 * 1024,
    protectedPaths: merged.protected_paths ?? [],
    aliases: merged.aliases ?? {},
    readOnlyTools: merged.read_only_tools ?? [],
    agentTokens,
    reviewerTokens,
    logLevel: merged.log_level ?? 'info',
    auditRetentionMs: merged.audit_retention ?? null,
    settingsFile: merged.settings ?? null,
    plugins: merged.plugins ?? [],
    offloadThresholdBytes: merged.offload_threshold ?? 64 * 1024,
    hookAsk: merged.hook_ask ?? 'passthrough',
    hookHoldSeconds: Math.max(1, Math.round((merged.hook_hold ?? 50_000) / 1000)),
    configFile,
  };
}

function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`config file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config file ${path}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(formatIssues(`config file ${path}`, parsed.error.issues));
  return parsed.data;
}

function formatIssues(where: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${where} ${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('\n');
}

function dropUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function expandTilde(p: string): string {
  return p === '~' || p.startsWith('~/') ? homedir() + p.slice(1) : p;
}
