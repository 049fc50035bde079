// `node --import ./test/support/trace-loads.mjs …`: writes `LOADED <url>` to stderr for every module the process
// loads, ES modules and CommonJS (and, at exit, `LOADED node:<id>` for Node's own internal modules), so a test can
// check what a command pulls in. Used by test/cli/hook.test.ts: the hook runs before every tool call and must stay small.
import { writeSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const hooks = `
import { writeSync } from 'node:fs';
export async function load(url, context, next) {
  if (!url.startsWith('node:')) writeSync(2, 'LOADED ' + url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
// CommonJS loads (the hook's bundle, required by the CommonJS bin/toolgate.js) do not pass the hooks above.
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (!Module.isBuiltin(request))
    writeSync(2, `LOADED ${pathToFileURL(Module._resolveFilename(request, parent, isMain)).href}\n`);
  return load.apply(this, arguments);
};
process.on('exit', () => {
  for (const entry of process.moduleLoadList)
    if (entry.startsWith('NativeModule ')) writeSync(2, `LOADED node:${entry.slice('NativeModule '.length)}\n`);
});
