// The toolgate command for tests that run it as a process. bin/toolgate.js runs the build in dist/, so a test of
// the command must not run an old build: `npm test` builds first (its pretest script); a single test file run by
// hand after an edit to src/ stops here with the fix instead of testing stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Absolute path of bin/toolgate.js (ROOT: the repository). */
export const BIN = join(ROOT, 'bin', 'toolgate.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const stamp = join(ROOT, 'dist', '.build-stamp');
if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestMtime(join(ROOT, 'src'))) {
  throw new Error('dist/ is older than src/: run `npm run build` first (`npm test` does)');
}
