// toolgate doctor: checks how the sidecar is deployed — its user, its data dir, its token files — and says what to fix.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, operatorFiles } from '../config.ts';
import { deploymentWarnings, inspectDeployment } from '../service/deployment-check.ts';
import { tokensFile } from '../config-values.ts';
import { parseFlags, type Command } from './command.ts';

const HELP = `Usage: toolgate doctor [--data-dir DIR] [--config FILE]

Checks the deployment the way 'toolgate serve' would run here: whether it runs as its own user (not root, not the
login user whose agents it serves, no agent processes under its uid), and the permissions of its data dir, database,
tokens and config file. Prints one line per finding; exit code 1 when there is any. See docs/security.md.

Run it as the user toolgate runs as (e.g. sudo -u toolgate toolgate doctor --data-dir /var/lib/toolgate).`;

export const doctorCommand: Command = {
  name: 'doctor',
  summary: "check that the sidecar runs out of its agents' reach",
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, { 'data-dir': { type: 'string' }, config: { type: 'string' } }, false);
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const config = loadConfig({ 'data-dir': values['data-dir'], config: values.config }, io.env);
    const home = io.env.HOME ?? homedir();
    const warnings = deploymentWarnings(inspectDeployment(config.dataDir, io.env, home));
    for (const file of [
      tokensFile(config.dataDir),
      join(config.dataDir, 'toolgate.db'),
      join(config.dataDir, 'toolgate.db-wal'),
      ...operatorFiles(config),
    ]) {
      if (!existsSync(file)) continue;
      const mode = statSync(file).mode & 0o777;
      if ((mode & 0o077) !== 0)
        warnings.push(`${file} is readable by other users (mode ${mode.toString(8)}): chmod 600 ${file}`);
    }
    if (warnings.length === 0) {
      io.out(`ok: toolgate runs as its own user here; data dir ${config.dataDir} and its files are private`);
      return 0;
    }
    for (const w of warnings) io.out(`warning: ${w}`);
    return 1;
  },
};
