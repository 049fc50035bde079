#!/usr/bin/env node
// The toolgate command: runs the compiled build in dist/ (`npm run build`; `npm ci` or `npm install` in a checkout
// runs it through the prepare script). From the TypeScript sources, without a build: `npm run dev -- <command> …`.
// `toolgate hook` runs before every tool call of an agent: it goes straight to its own entry, bundled into one file
// (`npm run build:hook`): one module to load instead of seven saves about a tenth of a Node start.
const entry = process.argv[2] === 'hook' ? '../dist/cli/hook.bundle.js' : '../dist/cli/run.js';
try {
  await import(entry);
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(entry.slice(2))) throw error;
  process.stderr.write('toolgate: dist/ is missing: run `npm run build` in the toolgate checkout\n');
  process.exitCode = 1;
}
