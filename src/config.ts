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
  /** An agent token's fixed agent id: its calls act as this agent whatever they declare (docs/security.md). */
  agentId?: string;
}

/** Everything the server needs, resolved from flags > env > config file > defaults. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /**
   * The home directory of the agents' user: what `~` and `$HOME` in their calls mean. Defaults to toolgate's own
   * home, which is right only when toolgate runs as the agents' user; set it when it runs as its own (docs/security.md).
   */
  agentHome: string | null;
  mode: Mode;
  askFallback: 'deny' | 'allow';
  approvalTimeoutMs: number;
  maxPendingPerAgent: number;
  /** Pending approvals one token may hold, over all the agent ids it declares. */
  maxPendingPerToken: number;
  /** Pending approvals in total. */
  maxPendingTotal: number;
  /** A PostgreSQL URL (postgres://…): the shared store for many replicas. Null: SQLite in the data dir. */
  databaseUrl: string | null;
  /** Longest long-poll wait the server grants, in seconds. */
  maxWaitSeconds: number;
  bodyLimitBytes: number;
  /** An audit row keeps at most this much of a call's (masked) arguments as JSON; longer ones keep a digest and a prefix. */
  auditArgsMaxBytes: number;
  /** The largest tool output POST /v1/results accepts (413 beyond). */
  resultMaxBytes: number;
  /** Offloaded output bytes one token may store per day (429 beyond). */
  resultBudgetBytes: number;
  /** The HTTP server's connection limits and timeouts (src/http/connection-limits.ts); unset fields take its defaults. */
  connections: {
    maxConnections?: number;
    maxPerPeer?: number;
    reserve?: number;
    headersTimeoutMs?: number;
    requestTimeoutMs?: number;
    keepAliveTimeoutMs?: number;
  };
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
  /**
   * What a hook answers when toolgate has no opinion (no rule, grant or human decided, nothing dangerous found):
   * `unmatched` leaves the decision to the runtime's own permission checks (the default: a guard added to an agent
   * must only make it safer); `allow` answers allow, which switches the runtime's own prompt off for that call.
   */
  hookDefault: 'unmatched' | 'allow';
  /** Where the config file was read from, if any. */
  configFile: string | null;
}

const duration = z.union([
  z
    .number()
    .nonnegative()
    .transform((n) => n * 1000),
  z.string().transform((s, ctx) => {
    const ms = parseDuration(s);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `not a duration: ${s} (use e.g. 6s, 15m, 90d)` });
      return z.NEVER;
    }
    return ms;
  }),
]);
const namedToken = z.object({ name: z.string().min(1).max(100), token: z.string().min(16).max(512) });
const namedTokens = z.array(namedToken);
// An agent token may be bound to an agent id (`agent_id`): see src/service/agent-binding.ts.
const agentTokens = z.array(
  namedToken
    .extend({ agent_id: z.string().min(1).max(200).optional() })
    .transform(({ agent_id, ...t }) => (agent_id === undefined ? t : { ...t, agentId: agent_id })),
);

/** The config file's schema (JSON): every key optional. */
export const ConfigFileSchema = z
  .object({
    host: z.string().min(1),
    port: z.coerce.number().int().min(0).max(65535),
    data_dir: z.string().min(1),
    agent_home: z
      .string()
      .min(1)
      .refine((p) => p.startsWith('/'), 'an absolute path'),
    mode: z.enum(MODES as [Mode, ...Mode[]]),
    ask_fallback: z.enum(['deny', 'allow']),
    approval_timeout: duration,
    max_pending_per_agent: z.coerce.number().int().min(1).max(100_000),
    max_pending_per_token: z.coerce.number().int().min(1).max(100_000),
    max_pending_total: z.coerce.number().int().min(1).max(1_000_000),
    database: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL'),
    max_wait: z.coerce.number().int().min(1).max(3600),
    body_limit: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024),
    audit_args_max_bytes: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024),
    result_max_bytes: z.coerce
      .number()
      .int()
      .min(1024)
      .max(256 * 1024 * 1024),
    result_budget_bytes: z.coerce.number().int().min(1024),
    max_connections: z.coerce.number().int().min(1).max(1_000_000),
    max_connections_per_peer: z.coerce.number().int().min(1).max(1_000_000),
    reserved_connections: z.coerce.number().int().min(0).max(10_000),
    headers_timeout: duration,
    request_timeout: duration,
    keep_alive_timeout: duration,
    protected_paths: z.array(z.string().min(1)),
    aliases: z.record(z.string(), z.string()),
    read_only_tools: z.array(z.string()),
    tokens: z.object({ agent: agentTokens.optional(), reviewer: namedTokens.optional() }),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    audit_retention: duration,
    settings: z.string().min(1),
    plugins: z.array(z.string().min(1)),
    offload_threshold: z.coerce.number().int().min(1),
    hook_ask: z.enum(['passthrough', 'hold']),
    hook_hold: duration,
    hook_default: z.enum(['unmatched', 'allow']),
  })
  .partial()
  .strict();

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Raw flag values as parsed by the CLI (strings or undefined). */
export type ConfigFlags = Partial<
  Record<
    | 'host'
    | 'port'
    | 'data-dir'
    | 'agent-home'
    | 'mode'
    | 'config'
    | 'ask-fallback'
    | 'approval-timeout'
    | 'max-pending'
    | 'log-level'
    | 'audit-retention'
    | 'settings'
    | 'offload-threshold'
    | 'hook-ask'
    | 'hook-hold'
    | 'hook-default'
    | 'database',
    string
  >
> & { plugin?: string[] };

/** The environment variables that carry tokens. */
export const TOKEN_VARIABLES = ['TOOLGATE_AGENT_TOKEN', 'TOOLGATE_REVIEWER_TOKEN'] as const;

/**
 * Deletes the token variables from `env` once the config holds them: plugins, child processes and anything that
 * prints the environment no longer see them. Linux still serves the environment the process *started* with at
 * /proc/<pid>/environ (and `ps eww`), which JavaScript cannot overwrite: that file is a protected path, and running
 * the sidecar as its own user (docs/security.md) puts it out of the agents' reach.
 */
export function forgetTokenVariables(env: NodeJS.ProcessEnv): void {
  for (const name of TOKEN_VARIABLES) delete env[name];
}

/**
 * The files toolgate reads its policy, tokens or code from: the config file, the settings file it syncs rules from,
 * the plugins. An agent that could write one of them could turn a deny into an allow, or read the tokens, so each is
 * protected like the data directory (absolute, resolved against the directory toolgate started in).
 */
export function operatorFiles(config: Pick<Config, 'configFile' | 'settingsFile' | 'plugins'>): string[] {
  const files = [config.configFile, config.settingsFile, ...config.plugins].filter(
    (f): f is string => typeof f === 'string' && f.length > 0,
  );
  return [...new Set(files.map((f) => resolve(expandTilde(f))))];
}

/** The protected paths beyond the built-in ones: the operator's `protected_paths` and toolgate's own files. */
export function extraProtectedPaths(
  config: Pick<Config, 'protectedPaths' | 'configFile' | 'settingsFile' | 'plugins'>,
): string[] {
  return [...config.protectedPaths, ...operatorFiles(config)];
}

/** A config problem, reported as `path: message`. */
export class ConfigError extends Error {}

/** Resolves the configuration: flags override env, env overrides the config file, the file overrides defaults. */
export function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const configFile = flags.config ?? env.TOOLGATE_CONFIG ?? null;
  const file = configFile ? readConfigFile(configFile) : {};
  const fromFlags = ConfigFileSchema.safeParse(
    dropUndefined({
      host: flags.host,
      port: flags.port,
      data_dir: flags['data-dir'],
      agent_home: flags['agent-home'],
      mode: flags.mode,
      ask_fallback: flags['ask-fallback'],
      approval_timeout: flags['approval-timeout'],
      max_pending_per_agent: flags['max-pending'],
      log_level: flags['log-level'],
      audit_retention: flags['audit-retention'],
      settings: flags.settings,
      offload_threshold: flags['offload-threshold'],
      plugins: flags.plugin && flags.plugin.length ? flags.plugin : undefined,
      hook_ask: flags['hook-ask'],
      hook_hold: flags['hook-hold'],
      hook_default: flags['hook-default'],
      database: flags.database,
    }),
  );
  if (!fromFlags.success) throw new ConfigError(formatIssues('flag', fromFlags.error.issues));
  const fromEnv = ConfigFileSchema.safeParse(
    dropUndefined({
      agent_home: env.TOOLGATE_AGENT_HOME,
      mode: env.TOOLGATE_MODE,
      port: env.TOOLGATE_PORT,
      host: env.TOOLGATE_HOST,
      log_level: env.TOOLGATE_LOG_LEVEL,
      hook_ask: env.TOOLGATE_HOOK_ASK,
      hook_default: env.TOOLGATE_HOOK_DEFAULT,
      database: env.TOOLGATE_DATABASE_URL || undefined,
    }),
  );
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
    agentHome: merged.agent_home ?? null,
    mode: merged.mode ?? 'default',
    askFallback: merged.ask_fallback ?? 'deny',
    approvalTimeoutMs: merged.approval_timeout ?? 15 * 60_000,
    maxPendingPerAgent: merged.max_pending_per_agent ?? 50,
    maxPendingPerToken: merged.max_pending_per_token ?? 200,
    maxPendingTotal: merged.max_pending_total ?? 1000,
    databaseUrl: merged.database ?? null,
    maxWaitSeconds: merged.max_wait ?? 60,
    bodyLimitBytes: merged.body_limit ?? 256 * 1024,
    auditArgsMaxBytes: merged.audit_args_max_bytes ?? 16 * 1024,
    resultMaxBytes: merged.result_max_bytes ?? 8 * 1024 * 1024,
    resultBudgetBytes: merged.result_budget_bytes ?? 256 * 1024 * 1024,
    connections: dropUndefined({
      maxConnections: merged.max_connections,
      maxPerPeer: merged.max_connections_per_peer,
      reserve: merged.reserved_connections,
      headersTimeoutMs: merged.headers_timeout,
      requestTimeoutMs: merged.request_timeout,
      keepAliveTimeoutMs: merged.keep_alive_timeout,
    }),
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
    hookDefault: merged.hook_default ?? 'unmatched',
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
