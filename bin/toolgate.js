#!/usr/bin/env node
// The toolgate command. Runs the compiled build in dist/ (made by `npm run build`, which `npm ci` runs) when it
// is at least as new as every source file; otherwise loads the TypeScript sources through tsx, so an edit to
// src/ is never shadowed by a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function buildIsFresh() {
  if (process.env.TOOLGATE_FROM_SOURCE === '1' || !existsSync(stamp)) return false;
  const src = join(root, 'src');
  return !existsSync(src) || statSync(stamp).mtimeMs >= newestSourceMtime(src);
}

let entry;
if (buildIsFresh()) {
  entry = new URL('../dist/cli/main.js', import.meta.url).href;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  entry = new URL('../src/cli/main.ts', import.meta.url).href;
}
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
