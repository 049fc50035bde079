// Example toolgate plugin: rewrites a bare `npm install` to `npm ci`, which installs exactly what the lockfile says.
// Load it with: toolgate serve --plugin ./examples/plugins/npm-ci.js

const BARE_INSTALL = /^\s*npm\s+(?:install|i)\s*$/;

export default {
  name: 'npm-ci',

  /** Only the bare form: `npm install lodash` adds a dependency and must stay what it is. */
  beforeExecute(call) {
    if (call.canonicalTool !== 'bash') return undefined;
    const args = call.args && typeof call.args === 'object' ? call.args : {};
    if (typeof args.command !== 'string' || !BARE_INSTALL.test(args.command)) return undefined;
    return {
      action: 'allow',
      reason: 'npm install → npm ci (reproducible install from package-lock.json)',
      modifiedArgs: { ...args, command: 'npm ci' },
    };
  },
};
