// toolgate audit: query the audit log, follow it live, and verify its hash chain — straight from the database file.
import { loadConfig, parseDuration } from '../config.ts';
import { timeBound } from '../service/time-bound.ts';
import { AUDIT_COLUMNS, auditRowJson } from '../store/audit-json.ts';
import { NoDatabaseError, openStore, sqlitePathOf } from '../store/open-store.ts';
import type { AuditQuery, AuditRow, Store } from '../store/types.ts';
import { parseFlags, UsageError, type Command, type Io } from './command.ts';

const HELP = `Usage: toolgate audit [filters] [--limit N] [--json|--csv]
       toolgate audit tail [filters] [-n N] [--interval 500ms] [--json]
       toolgate audit verify

Reads <data-dir>/toolgate.db directly (read-only), or the PostgreSQL database of --database / TOOLGATE_DATABASE_URL,
so it works with or without a running server.

  audit          the newest matching rows (default 100), printed oldest first
  audit tail     the last N rows (default 10), then every new row as it is committed, until Ctrl-C
  audit verify   walks the hash chain; exit 1 naming the first row that was edited, deleted or inserted out of order

Filters:
  --since T / --until T   ISO date-time or a duration back from now (15m, 1h, 7d)
  --decision D            allow | deny | ask | approved | denied | expired | cancelled | checkpoint
  --source S              rule | danger | protected_path | human | timeout | default | mode | fallback | …
  --tool NAME  --agent ID  --session ID  --approval ID  --decision-id ID
  --q TEXT                text in the (redacted) arguments, e.g. part of a command

Options:
  --json            one JSON object a line (args and findings parsed)
  --csv             the audit_log columns as CSV, with a header
  --data-dir DIR    where the database is (default ~/.toolgate, or TOOLGATE_DATA_DIR)
  --database URL    a PostgreSQL store (postgres://…; default TOOLGATE_DATABASE_URL)
  --config FILE     config file
  -h, --help        this help`;

const FILTER_FLAGS = {
  since: { type: 'string' },
  until: { type: 'string' },
  decision: { type: 'string' },
  source: { type: 'string' },
  tool: { type: 'string' },
  agent: { type: 'string' },
  session: { type: 'string' },
  approval: { type: 'string' },
  'decision-id': { type: 'string' },
  q: { type: 'string' },
} as const;

type Format = 'text' | 'json' | 'csv';

export const auditCommand: Command = {
  name: 'audit',
  summary: 'query, follow (tail) and verify the audit log',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      ...FILTER_FLAGS,
      limit: { type: 'string' },
      n: { type: 'string', short: 'n' },
      interval: { type: 'string' },
      json: { type: 'boolean' },
      csv: { type: 'boolean' },
      'data-dir': { type: 'string' },
      config: { type: 'string' },
      database: { type: 'string' },
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const [sub, ...rest] = positionals;
    if (rest.length > 0 || (sub !== undefined && sub !== 'tail' && sub !== 'verify'))
      throw new UsageError(
        `unexpected argument ${sub !== 'tail' && sub !== 'verify' ? sub : rest[0]} (subcommands: tail, verify)`,
      );
    if (values.json && values.csv) throw new UsageError('choose one of --json and --csv');
    const format: Format = values.json ? 'json' : values.csv ? 'csv' : 'text';
    const query = filtersFrom(values);
    const config = loadConfig(
      { 'data-dir': values['data-dir'], config: values.config, database: values.database },
      io.env,
    );
    const where = config.databaseUrl ? redactUrl(config.databaseUrl) : sqlitePathOf({ dataDir: config.dataDir });
    let store: Store;
    try {
      store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, { readonly: true });
    } catch (error) {
      if (!(error instanceof NoDatabaseError)) throw error;
      io.err(error.message);
      return 1;
    }
    try {
      if (sub === 'verify') return await verify(store, where, io);
      if (sub === 'tail') {
        const interval = values.interval === undefined ? 500 : parseDuration(values.interval);
        if (interval === undefined || interval < 10)
          throw new UsageError('--interval must be a duration of at least 10ms (e.g. 500ms, 2s)');
        const controller = new AbortController();
        const stop = () => controller.abort();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        try {
          await tailAudit(
            store,
            { query, last: count(values.n, 10, '-n'), intervalMs: interval, format, signal: controller.signal },
            io,
          );
        } finally {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
        }
        return 0;
      }
      const rows = await newest(store, query, count(values.limit, 100, '--limit'));
      printRows(rows.reverse(), format, io, true);
      return 0;
    } finally {
      await store.close();
    }
  },
};

/** What `audit tail` follows. */
export interface TailOptions {
  query: AuditQuery;
  /** Rows of history to print first. */
  last: number;
  intervalMs: number;
  format: Format;
  signal: AbortSignal;
}

/**
 * Prints the last rows, then polls the database for rows with a higher seq. Polling by seq (an indexed range on the
 * primary key) is how a separate process follows the log: it needs no token, sees rows from every writer, and a
 * read in WAL mode never blocks the server.
 */
export async function tailAudit(store: Store, options: TailOptions, io: Io): Promise<void> {
  const history = (await newest(store, options.query, options.last)).reverse();
  printRows(history, options.format, io, true);
  // Start from the log's head, not the last *matching* row, so rows that do not match are not scanned again.
  let cursor = (await store.queryAudit({ limit: 1 }))[0]?.seq ?? 0;
  while (!options.signal.aborted) {
    await sleep(options.intervalMs, options.signal);
    for (;;) {
      const head = (await store.queryAudit({ limit: 1 }))[0]?.seq ?? cursor;
      const rows = await store.queryAudit({ ...options.query, cursor, ascending: true, limit: 1000 });
      printRows(rows, options.format, io, false);
      const lastPrinted = rows.length ? rows[rows.length - 1]!.seq : cursor;
      cursor = rows.length === 1000 ? lastPrinted : Math.max(lastPrinted, head);
      if (rows.length < 1000) break;
    }
  }
}

/** Walks the chain and reports; exit 0 when intact, 1 naming the first bad row. */
async function verify(store: Store, dbPath: string, io: Io): Promise<number> {
  const result = await store.verifyAudit();
  const anchor = result.checkpoint
    ? `, starting after retention checkpoint (rows ≤ ${result.checkpoint.pruned_through_seq} pruned)`
    : '';
  if (result.ok) {
    io.out(
      result.rows === 0
        ? `ok: ${dbPath} has no audit rows yet`
        : `ok: ${result.rows} audit row(s), seq ${result.firstSeq}–${result.lastSeq}${anchor}; head hash ${result.headHash}`,
    );
    return 0;
  }
  io.err(`FAILED: ${result.problem!.message}`);
  io.err(`(${result.rows} row(s) verified before it${anchor}; first bad row: seq ${result.problem!.seq})`);
  return 1;
}

/** The newest `limit` matching rows, newest first, paging past the store's 1000-row cap. */
async function newest(store: Store, query: AuditQuery, limit: number): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  let cursor: number | undefined;
  while (rows.length < limit) {
    const want = Math.min(1000, limit - rows.length);
    const page = await store.queryAudit({ ...query, cursor, limit: want });
    rows.push(...page);
    if (page.length < want) break;
    cursor = page[page.length - 1]!.seq;
  }
  return rows;
}

/** A database URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}

function filtersFrom(values: Record<string, unknown>): AuditQuery {
  const when = (flag: 'since' | 'until') => {
    const text = values[flag] as string | undefined;
    if (text === undefined) return undefined;
    const iso = timeBound(text);
    if (!iso) throw new UsageError(`--${flag} must be an ISO date-time or a duration such as 1h or 7d, not ${text}`);
    return iso;
  };
  const decision = values.decision as string | undefined;
  if (
    decision !== undefined &&
    ![
      'allow',
      'deny',
      'ask',
      'approved',
      'denied',
      'expired',
      'cancelled',
      'result',
      'checkpoint',
      'tool_changed',
      'tool_accepted',
    ].includes(decision)
  ) {
    throw new UsageError(
      `--decision must be allow, deny, ask, approved, denied, expired, cancelled, result or checkpoint, not ${decision}`,
    );
  }
  return {
    since: when('since'),
    until: when('until'),
    decision,
    source: values.source as string | undefined,
    tool: values.tool as string | undefined,
    agentId: values.agent as string | undefined,
    sessionId: values.session as string | undefined,
    approvalId: values.approval as string | undefined,
    decisionId: values['decision-id'] as string | undefined,
    q: values.q as string | undefined,
  };
}

function count(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 1_000_000)
    throw new UsageError(`${flag} must be a whole number from 0 to 1000000`);
  return n;
}

function printRows(rows: AuditRow[], format: Format, io: Io, header: boolean): void {
  if (format === 'csv' && header) io.out(AUDIT_COLUMNS.join(','));
  for (const row of rows) {
    if (format === 'json') io.out(JSON.stringify(auditRowJson(row)));
    else if (format === 'csv') io.out(AUDIT_COLUMNS.map((c) => csvField(row[c])).join(','));
    else io.out(textLine(row));
  }
}

function textLine(row: AuditRow): string {
  const who = [row.agent_id, row.session_id].filter(Boolean).join('/') || '-';
  const by = row.resolved_by ? ` by ${row.resolved_by}` : '';
  return `${row.ts}  #${row.seq}  ${row.decision.padEnd(9)} ${row.source.padEnd(14)} ${row.tool.padEnd(10)} ${subject(row)}  [${who}${by}]  ${row.reason}`;
}

function subject(row: AuditRow): string {
  try {
    const args = JSON.parse(row.args) as { command?: unknown };
    if (typeof args?.command === 'string') return args.command;
    if (Array.isArray(args?.command)) return args.command.join(' ');
  } catch {
    // not JSON: print as stored
  }
  return row.args.length > 120 ? `${row.args.slice(0, 119)}…` : row.args;
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
