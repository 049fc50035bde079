// Wires `serve --settings FILE` (a synced rule layer) and `serve --plugin FILE` (extension hooks) into the server's startup.
import type { Config } from '../config.ts';
import { installPlugins, loadPlugins } from '../service/plugins.ts';
import { SettingsSync } from '../service/settings-sync.ts';
import type { Toolgate } from '../service/toolgate.ts';
import { extendServe } from './serve.ts';

/** Loads plugins and starts the settings sync for a freshly built toolgate; `log` gets warnings. */
export async function setupIntegrations(
  toolgate: Toolgate,
  config: Config,
  log: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): Promise<void> {
  if (config.plugins.length > 0) {
    // A configured plugin that does not load stops the start: running without it would silently drop its checks.
    const plugins = await loadPlugins(config.plugins);
    installPlugins(toolgate, plugins, (message) => log(`toolgate: ${message}`));
    log(`toolgate: plugins ${plugins.map((p) => p.name).join(', ')} (in this order, after the built-in stages)`);
  }
  if (config.settingsFile) {
    const sync = new SettingsSync(toolgate, config.settingsFile, {
      onError: (message) => log(`toolgate: ${message}`),
      onSync: (report) => log(`toolgate: synced ${report.rules} rule(s) from ${config.settingsFile}`),
    });
    sync.start();
    // The watcher ends with the service.
    const close = toolgate.close.bind(toolgate);
    toolgate.close = async () => {
      sync.close();
      await close();
    };
  }
}

extendServe({ setup: (toolgate, config) => setupIntegrations(toolgate, config) });
