// The toolgate command line: dispatches to subcommands, prints usage errors with exit code 2.
import { processIo, runCommand, type Command, type Io } from './command.ts';

/** A subcommand as the dispatcher knows it: loaded only when it runs, so `toolgate hook` starts fast. */
interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<Command>;
}

/** Every subcommand, in the order `--help` lists them. */
export const COMMANDS: CommandEntry[] = [
  {
    name: 'serve',
    summary: 'run the sidecar (HTTP API on 127.0.0.1:7411)',
    load: async () => (await import('./integrations.ts'), (await import('./serve.ts')).serveCommand),
  },
  {
    name: 'check',
    summary: 'explain the decision for a command, offline',
    load: async () => (await import('./check.ts')).checkCommand,
  },
  {
    name: 'rules',
    summary: 'list, add, remove, test, import and export rules',
    load: async () => (await import('./rules.ts')).rulesCommand,
  },
  {
    name: 'approvals',
    summary: 'list, show and answer pending approvals',
    load: async () => (await import('./approvals.ts')).approvalsCommand,
  },
  {
    name: 'review',
    summary: 'answer approvals in an interactive terminal dialog',
    load: async () => (await import('./review/command.ts')).reviewCommand,
  },
  {
    name: 'audit',
    summary: 'query, follow (tail) and verify the audit log',
    load: async () => (await import('./audit.ts')).auditCommand,
  },
  {
    name: 'doctor',
    summary: "check that the sidecar runs out of its agents' reach",
    load: async () => (await import('./doctor.ts')).doctorCommand,
  },
  {
    name: 'mcp',
    summary: 'MCP gateway: put toolgate in front of an MCP server (stdio or Streamable HTTP)',
    load: async () => (await import('./mcp.ts')).mcpCommand,
  },
  {
    name: 'hook',
    summary: 'agent hook adapter for Claude Code, Codex and Gemini CLI (fails closed)',
    load: async () => (await import('./hook.ts')).hookCommand,
  },
  {
    name: 'integrations',
    summary: 'print the hook settings for Claude Code, Codex or Gemini CLI on this machine',
    load: async () => (await import('./integrations-command.ts')).integrationsCommand,
  },
];

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
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.err(`toolgate: unknown command ${name}\n\n${usage()}`);
    return 2;
  }
  return runCommand(entry.load, rest, io, name);
}
