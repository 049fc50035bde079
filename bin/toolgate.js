#!/usr/bin/env node
// The toolgate command: runs the compiled build in dist/ (`npm run build`; `npm ci` or `npm install` in a checkout
// runs it through the prepare script). From the TypeScript sources, without a build: `npm run dev -- <command> …`.
// CommonJS (bin/package.json): `toolgate hook` runs before every tool call of an agent, and a CommonJS process never
// starts Node's ES module loader — about 4 ms of the hook's ~17 over `node -e ''`. The hook goes straight to its own
// entry, bundled into one CommonJS file (`npm run build:hook`); every other command imports dist/cli/run.js.
'use strict';

const MISSING = 'dist/ is missing: run `npm run build` in the toolgate checkout';

if (process.argv[2] === 'hook') {
  // A hook that cannot run still blocks the call: every runtime reads exit 2 as "blocked, the reason is on standard
  // error", where Claude Code lets a call through on exit 1.
  try {
    require('../dist/cli/hook.cjs');
  } catch (error) {
    const missing = error?.code === 'MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/hook.cjs');
    process.stderr.write(
      `toolgate hook: blocked: ${missing ? MISSING : `its build does not load: ${error?.message ?? error}`}\n`,
    );
    process.exitCode = 2;
  }
} else {
  import('../dist/cli/run.js').catch((error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/run.js')) throw error;
    process.stderr.write(`toolgate: ${MISSING}\n`);
    process.exitCode = 1;
  });
}
