// Structured JSON logs (pino): one logger per running toolgate, written where the caller says.
import { pino, type Logger } from 'pino';
import type { Config } from '../config.ts';

export type { Logger } from 'pino';

/** Options of the logger. */
export interface LoggerOptions {
  level: Config['logLevel'];
  /** Receives each JSON line (newline included); default: standard error, written synchronously. */
  write?: (line: string) => void;
}

/**
 * A pino logger: one JSON object a line with `level` as a name, an ISO `time`, and `service: "toolgate"`.
 * Standard error by default, so standard output stays free for a command's own output.
 */
export function createLogger(options: LoggerOptions): Logger {
  const settings = {
    level: options.level,
    base: { service: 'toolgate' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const write = options.write;
  return write
    ? pino(settings, { write: (line: string) => write(line) })
    : pino(settings, pino.destination({ dest: 2, sync: true }));
}
