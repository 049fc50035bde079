// What every CLI command shares: its shape, the output streams, and a usage error.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { promptHidden } from './prompt.ts';

/** Where a command writes; tests pass their own. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Standard input, for commands that read it (hooks). */
  stdin?: () => Promise<string>;
  /** Asks the person at the terminal for a secret (no echo); undefined when not interactive. */
  promptSecret?: (question: string) => Promise<string | undefined>;
}

/** A subcommand: its help text and its runner, which returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  help: string;
  run(argv: string[], io: Io): Promise<number>;
}

/** A mistake in how the command was called: printed with a hint, exit code 2. */
export class UsageError extends Error {}

/** What parseFlags hands parseArgs: the command's options plus --help, strict. */
type FlagConfig<T extends ParseArgsConfig['options']> = {
  args: string[];
  options: T & { help: { type: 'boolean'; short: 'h' } };
  allowPositionals: boolean;
  strict: true;
};

/** parseArgs with strict checking, turning its errors into UsageErrors. */
export function parseFlags<T extends ParseArgsConfig['options']>(
  argv: string[],
  options: T,
  allowPositionals = true,
): ReturnType<typeof parseArgs<FlagConfig<T>>> {
  try {
    return parseArgs<FlagConfig<T>>({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * The standard streams of this process. A reader that closes early (`toolgate check … | head -1`) ends the output:
 * what was wanted has been read, so the command exits quietly instead of crashing on EPIPE.
 */
export function processIo(): Io {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') === 0)
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
        throw error;
      });
  }
  return {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    env: process.env,
    promptSecret: promptHidden,
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** Loads and runs a command; a UsageError exits 2 with a hint, any other error exits 1 with its message. */
export async function runCommand(load: () => Promise<Command>, argv: string[], io: Io, name: string): Promise<number> {
  try {
    return await (await load()).run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`toolgate ${name}: ${error.message}\nRun 'toolgate ${name} --help' for usage.`);
      return 2;
    }
    io.err(`toolgate ${name}: ${(error as Error)?.message ?? String(error)}`);
    return 1;
  }
}
