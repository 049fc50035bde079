// The process entry of `toolgate hook …`: bin/toolgate.js loads its build instead of run.ts, so a hook, which runs
// before every tool call, loads neither the command table nor anything of another command (see hook.ts). Bundled
// into one CommonJS file (dist/cli/hook.cjs), so no top-level await.
import { processIo, runCommand } from './command.ts';
import { BLOCK, hookCommand } from './hook.ts';

// Whatever fails, the call is blocked: an error no path of the hook caught ends the process with BLOCK, not with
// node's 1, on which Claude Code lets the call through.
process.on('uncaughtException', (error) => {
  process.stderr.write(`toolgate hook: blocked: ${error?.message ?? String(error)}\n`);
  process.exit(BLOCK);
});

void runCommand(async () => hookCommand, process.argv.slice(3), processIo(), 'hook').then((code) => {
  process.exitCode = code === 0 ? 0 : BLOCK;
});
