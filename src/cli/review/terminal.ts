// The terminal driver: raw mode, the alternate screen, full-frame redraws, and a restore that always runs.

/** The streams the review screen runs on (process.stdin/stdout, or a test's). */
export interface TerminalStreams {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

/** Options: `dumb` terminals get no cursor addressing, only frames printed one after another. */
export interface TerminalOptions {
  dumb?: boolean;
  /** The process whose signals and crashes restore the terminal (tests pass a stand-in). */
  host?: NodeJS.Process;
}

const ENTER = '\x1b[?1049h\x1b[?25l';
const LEAVE = '\x1b[0m\x1b[?25h\x1b[?1049l';

/**
 * Owns the terminal while the dialog is up. `restore()` is idempotent and is wired to every way out:
 * normal return, SIGINT/SIGTERM/SIGHUP, an uncaught exception or rejection, and process exit, so the
 * reviewer's shell is never left in raw mode with the cursor hidden.
 */
export class Terminal {
  private restored = false;
  private started = false;
  private lastFrame = '';
  private readonly host: NodeJS.Process;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly streams: TerminalStreams,
    private readonly options: TerminalOptions = {},
  ) {
    this.host = options.host ?? process;
  }

  /** Enters raw mode and the alternate screen; `onData` receives raw input, `onResize` a size change. */
  start(onData: (chunk: string) => void, onResize: () => void): void {
    if (this.started) return;
    this.started = true;
    const { input, output } = this.streams;
    input.setRawMode?.(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.resume();
    output.on('resize', onResize);
    this.cleanups.push(
      () => input.off('data', onData),
      () => output.off('resize', onResize),
    );
    if (!this.options.dumb) output.write(ENTER);

    const exitOn = (signal: NodeJS.Signals, code: number) => {
      const handler = () => {
        this.restore();
        this.host.exit(code);
      };
      this.host.once(signal, handler);
      this.cleanups.push(() => this.host.off(signal, handler));
    };
    exitOn('SIGINT', 130);
    exitOn('SIGTERM', 143);
    exitOn('SIGHUP', 129);
    const crash = (error: unknown) => {
      this.restore();
      this.host.stderr.write(`toolgate review: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
      this.host.exit(1);
    };
    this.host.on('uncaughtException', crash);
    this.host.on('unhandledRejection', crash);
    const onExit = () => this.restore();
    this.host.on('exit', onExit);
    this.cleanups.push(
      () => this.host.off('uncaughtException', crash),
      () => this.host.off('unhandledRejection', crash),
      () => this.host.off('exit', onExit),
    );
  }

  /** Columns and rows, with 80×24 when the stream does not say. */
  size(): { columns: number; rows: number } {
    return { columns: this.streams.output.columns || 80, rows: this.streams.output.rows || 24 };
  }

  /** Draws a whole frame over the previous one (or, on a dumb terminal, prints it when it changed). */
  draw(lines: string[]): void {
    if (this.restored) return;
    const frame = lines.join('\r\n');
    if (this.options.dumb) {
      if (frame !== this.lastFrame) this.streams.output.write(`\r\n${frame}\r\n`);
    } else {
      // Home, each line with erase-to-end-of-line, then erase below: no flicker from clearing first.
      this.streams.output.write(`\x1b[H${lines.map((l) => `${l}\x1b[K`).join('\r\n')}\x1b[J`);
    }
    this.lastFrame = frame;
  }

  /** Leaves raw mode and the alternate screen, shows the cursor, stops listening. Safe to call twice. */
  restore(): void {
    if (this.restored || !this.started) return;
    this.restored = true;
    const { input, output } = this.streams;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    try {
      if (!this.options.dumb) output.write(LEAVE);
      input.setRawMode?.(false);
      input.pause();
    } catch {
      // The terminal may already be gone (SIGHUP); nothing left to restore then.
    }
  }
}
