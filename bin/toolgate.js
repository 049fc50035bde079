#!/usr/bin/env node
// The toolgate command: runs the compiled build in dist/ (`npm run build`; `npm ci` or `npm install` in a checkout
// runs it through the prepare script). From the TypeScript sources, without a build: `npm run dev -- <command> …`.
// Kept this small on purpose: `toolgate hook` starts it before every tool call of an agent.
try {
  await import('../dist/cli/run.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/cli/run.js')) throw error;
  process.stderr.write('toolgate: dist/ is missing: run `npm run build` in the toolgate checkout\n');
  process.exitCode = 1;
}
