// toolgate serve: the sidecar itself.
import { createHash } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { homedir } from 'node:os';
import { getRequestListener, type ServerType } from '@hono/node-server';
import { ConfigError, forgetTokenVariables, loadConfig, type Config } from '../config.ts';
import { createApp, type RouteModule } from '../http/app.ts';
import { limitConnections, serverTimeouts, type ConnectionLimiter } from '../http/connection-limits.ts';
import { failedAuthLimiter } from '../http/rate-limit.ts';
import { startAuditPruner } from '../service/audit-pruner.ts';
import { deploymentWarnings, inspectDeployment } from '../service/deployment-check.ts';
import { createLogger, type Logger } from '../service/logger.ts';
import { describeTokens, loadTokens, tokenWarnings, type TokenSet } from '../service/tokens.ts';
import { createToolgate, type Toolgate } from '../service/toolgate.ts';
import { parseFlags, UsageError, type Command, type Io } from './command.ts';

const HELP = `Usage: toolgate serve [options]

Starts the sidecar. Agents call POST /v1/decide; reviewers answer approvals.

Options:
  --host HOST               address to bind (default 127.0.0.1, loopback only)
  --port N                  port (default 7411; 0 picks a free one)
  --data-dir DIR            database, tokens and offloaded outputs (default ~/.toolgate, or TOOLGATE_DATA_DIR)
  --agent-home DIR          the agents' home directory, what ~ means in their calls (default: toolgate's own home;
                            set it when toolgate runs as its own user, or TOOLGATE_AGENT_HOME)
  --database URL            share a PostgreSQL database with other replicas (postgres://…; or TOOLGATE_DATABASE_URL;
                            default: SQLite in the data dir). See docs/replicas.md
  --mode MODE               default | strict | auto_approve | read_only | bypass_all
  --config FILE             JSON config file (see docs/configuration.md)
  --ask-fallback deny|allow how a non-interactive ask resolves (default deny)
  --approval-timeout DUR    how long an approval waits for a reviewer (default 15m; e.g. 6s, 1h)
  --max-pending N           pending approvals per agent id before 429 (default 50; per token:
                            max_pending_per_token 200, in total: max_pending_total 1000, in the config file)
  --log-level LEVEL         fatal|error|warn|info|debug|trace|silent (default info)
  --audit-retention DUR     prune audit rows older than this (e.g. 90d)
  --settings FILE           watch a settings.json and sync its rules
  --plugin FILE             load an extension hook module (repeatable)
  --offload-threshold BYTES tool outputs larger than this are offloaded (default 65536)
  --hook-ask passthrough|hold  agent hooks: hand an ask to the agent's own prompt (default), or hold it for a reviewer
  --hook-hold DUR           how long a held hook waits for a reviewer before denying (default 50s)
  --hook-default unmatched|allow  agent hooks: when toolgate has no opinion, leave the call to the agent's own
                            permission checks (default), or answer allow (skips the agent's own prompt)
  -h, --help                this help

Tokens: TOOLGATE_AGENT_TOKEN / TOOLGATE_REVIEWER_TOKEN, or generated into <data-dir>/tokens.json (0600).`;

/** Extra route modules and startup steps registered by other parts (review page, hooks, audit, plugins). */
export interface ServeExtensions {
  routes?: RouteModule[];
  /** Runs after the service is built and before the server listens. */
  setup?: (toolgate: Toolgate, config: Config) => Promise<void> | void;
}

const extensions: ServeExtensions[] = [];

/** Lets a module add routes or startup steps to `serve`. */
export function extendServe(extension: ServeExtensions): void {
  extensions.push(extension);
}

/** A started server, for tests and for the signal handlers. */
export interface RunningServer {
  url: string;
  toolgate: Toolgate;
  tokens: TokenSet;
  server: ServerType;
  /** The connection caps and reserve (src/http/connection-limits.ts). */
  connections: ConnectionLimiter;
  /** JSON logs (pino) at the configured level, on standard error. */
  logger: Logger;
  close(): Promise<void>;
}

/** Builds the service and listens. */
export async function startServer(config: Config, io: Io): Promise<RunningServer> {
  const tokens = loadTokens(config.dataDir, { agent: config.agentTokens, reviewer: config.reviewerTokens });
  // Approvals are de-duplicated on a keyed digest of the unredacted call; replicas share the reviewer tokens, so
  // they derive the same key, and the database alone cannot confirm a guessed secret.
  const digestKey = createHash('sha256')
    .update(
      `toolgate approval digest\u0000${tokens.reviewer
        .map((t) => t.token)
        .sort()
        .join('\u0000')}`,
    )
    .digest('hex');
  const toolgate = await createToolgate(config, { digestKey });
  for (const e of extensions) await e.setup?.(toolgate, config);
  const logger = createLogger({ level: config.logLevel, write: (line) => io.err(line) });
  const { app, withFastPaths } = createApp(
    {
      toolgate,
      tokens,
      logger,
      authGuard: failedAuthLimiter(toolgate.store),
      onUnexpectedError: (error) => logger.error({ err: error }, 'unexpected error'),
    },
    extensions.flatMap((e) => e.routes ?? []),
  );
  const pruner = config.auditRetentionMs
    ? startAuditPruner(toolgate.store, { retentionMs: config.auditRetentionMs, logger })
    : undefined;
  let connections!: ConnectionLimiter;
  const server = await new Promise<ServerType>((resolve, reject) => {
    // The agent's hot routes (decide, long-poll) are answered before the app (src/http/fast-path.ts); header and
    // idle timeouts, connection caps and the reserve for /healthz and the hooks come first (connection-limits.ts).
    const s = createHttpServer(serverTimeouts(config.connections));
    connections = limitConnections(s, config.connections);
    s.on('request', connections.wrap(withFastPaths(getRequestListener(app.fetch, { hostname: config.host }))));
    s.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    toolgate,
    tokens,
    server,
    connections,
    logger,
    close() {
      closing ??= (async () => {
        pruner?.stop();
        // Stop accepting; idle keep-alive connections close now, busy ones once their response is out.
        let drained = false;
        const closed = new Promise<void>((resolve) => server.close(() => resolve())).then(() => void (drained = true));
        // Answer every held long-poll with the current (pending) state, and keep answering any that arrive on a
        // still-open connection, until the responses are out or the grace period ends (SSE streams never end).
        const grace = Date.now() + 2000;
        await toolgate.approvals.stop();
        while (!drained && Date.now() < grace) {
          await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 25))]);
          if (toolgate.approvals.waiting() > 0) await toolgate.approvals.stop();
        }
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        await closed;
        await toolgate.close(); // flushes queued audit rows, closes the database
        logger.info('toolgate stopped');
      })();
      return closing;
    },
  };
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the sidecar (HTTP API on 127.0.0.1:7411)',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(
      argv,
      {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'agent-home': { type: 'string' },
        mode: { type: 'string' },
        config: { type: 'string' },
        'ask-fallback': { type: 'string' },
        'approval-timeout': { type: 'string' },
        'max-pending': { type: 'string' },
        'log-level': { type: 'string' },
        'audit-retention': { type: 'string' },
        settings: { type: 'string' },
        plugin: { type: 'string', multiple: true },
        'offload-threshold': { type: 'string' },
        'hook-ask': { type: 'string' },
        'hook-hold': { type: 'string' },
        'hook-default': { type: 'string' },
        database: { type: 'string' },
      },
      false,
    );
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    let config: Config;
    try {
      config = loadConfig(values, io.env);
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    // Looked at before the token variables are dropped: their presence is one of the findings.
    const deployment = deploymentWarnings(inspectDeployment(config.dataDir, io.env, io.env.HOME ?? homedir()));
    forgetTokenVariables(io.env);
    const running = await startServer(config, io);
    const { logger } = running;
    // The banner is how scripts find the URL (--port 0): a JSON line at info, a plain line when the level hides info.
    const announce = (text: string) => (logger.isLevelEnabled('info') ? logger.info(text) : io.err(text));
    announce(
      `toolgate listening on ${running.url} (mode ${config.mode}, data ${config.dataDir}${config.databaseUrl ? ', store postgresql' : ''})`,
    );
    if (running.tokens.file)
      announce(`tokens: ${running.tokens.file}${running.tokens.generated ? ' (generated now, mode 0600)' : ''}`);
    // Names and the first characters only: a log is read by more people than tokens.json (0600).
    for (const line of describeTokens(running.tokens)) announce(line);
    for (const warning of tokenWarnings(running.tokens, config.configFile)) logger.warn(warning);
    for (const warning of deployment) logger.warn(warning);
    if (!isLoopback(config.host))
      logger.warn(
        `listening on ${config.host}, beyond loopback, without TLS: put a TLS-terminating proxy in front, or bind 127.0.0.1`,
      );
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, 'shutting down: answering held long-polls, flushing the audit log');
        const force = setTimeout(() => process.exit(1), 5000);
        force.unref();
        void running.close().then(resolve, resolve);
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
    return 0;
  },
};

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}
