// The process entry of `toolgate hook …`: bin/toolgate.js loads its build instead of run.ts, so a hook, which runs
// before every tool call, loads neither the command table nor anything of another command (see hook.ts). Bundled
// into one CommonJS file (dist/cli/hook.cjs), so no top-level await.
import { processIo, runCommand } from './command.ts';
import { BLOCK, hookCommand } from './hook.ts';

// An error thrown outside the hook's steps (a callback of its own) still blocks the call: it ends the process with
// BLOCK, not with node's 1, on which Claude Code lets the call through. runHook blocks for every error inside them.
process.on('uncaughtException', (error) => {
  process.stderr.write(`toolgate hook: blocked: ${error?.message ?? String(error)}\n`);
  process.exit(BLOCK);
});

void runCommand(async () => hookCommand, process.argv.slice(3), processIo(), 'hook').then((code) => {
  process.exitCode = code;
});
