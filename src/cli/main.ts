// The toolgate command line: dispatches to subcommands, prints usage errors with exit code 2.
import { approvalsCommand } from './approvals.ts';
import { auditCommand } from './audit.ts';
import { checkCommand } from './check.ts';
import { processIo, UsageError, type Command, type Io } from './command.ts';
import { hookCommand } from './hook.ts';
import './integrations.ts';
import { reviewCommand } from './review/command.ts';
import { rulesCommand } from './rules.ts';
import { serveCommand } from './serve.ts';

/** Every subcommand, in the order `--help` lists them. */
export const COMMANDS: Command[] = [serveCommand, checkCommand, rulesCommand, approvalsCommand, reviewCommand, auditCommand, hookCommand];

function usage(): string {
  return `Usage: toolgate <command> [options]

A policy sidecar for AI-agent tool calls: allow, deny, or ask a human.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(11)} ${c.summary}`).join('\n')}

Run 'toolgate <command> --help' for a command's options.`;
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`toolgate: unknown command ${name}\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`toolgate ${name}: ${error.message}\nRun 'toolgate ${name} --help' for usage.`);
      return 2;
    }
    io.err(`toolgate ${name}: ${(error as Error)?.message ?? String(error)}`);
    return 1;
  }
}
