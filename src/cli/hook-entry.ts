// The process entry of `toolgate hook …`: bin/toolgate.js loads its build instead of run.ts, so a hook, which runs
// before every tool call, loads neither the command table nor anything of another command (see hook.ts). Bundled
// into one CommonJS file (dist/cli/hook.cjs), so no top-level await.
import { processIo, runCommand } from './command.ts';
import { hookCommand } from './hook.ts';

void runCommand(async () => hookCommand, process.argv.slice(3), processIo(), 'hook').then((code) => {
  process.exitCode = code;
});
