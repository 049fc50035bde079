// serve --settings FILE: a seed-format or Claude Code settings.json, watched and synced as a read-only rule layer.
import { readFileSync, statSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Rule } from '../engine/rules/rule.ts';
import { rulesFromSettings } from '../engine/rules/settings.ts';
import type { Toolgate } from './toolgate.ts';

/** What one read of the file gave. */
export interface SyncReport {
  rules: number;
  /** Entries that could not be translated (the rest still apply). */
  errors: string[];
}

/** Options of the sync. */
export interface SettingsSyncOptions {
  /** Told about unreadable files and untranslatable entries. */
  onError?: (message: string) => void;
  /** Told after every successful read. */
  onSync?: (report: SyncReport) => void;
  /** Fallback polling interval (editors that replace the file can escape a directory watch). */
  pollMs?: number;
}

/**
 * Keeps a settings file's rules in the policy. The file is re-read when it changes (a directory watch, plus
 * polling as a fallback); a file that cannot be read or parsed keeps the last good rules, so a half-saved file
 * never drops every deny rule at once.
 */
export class SettingsSync {
  readonly file: string;
  private rules: Rule[] = [];
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private lastText: string | undefined;

  constructor(
    private readonly toolgate: Toolgate,
    file: string,
    private readonly options: SettingsSyncOptions = {},
  ) {
    this.file = resolve(file);
  }

  /** Reads the file (it must be readable JSON at start), adds the layer and starts watching. */
  start(): SyncReport {
    const report = this.reload(true);
    this.toolgate.policy.addLayer(() => this.rules);
    try {
      this.watcher = watch(dirname(this.file), { persistent: false }, (_event, name) => {
        if (name === null || name === basename(this.file)) this.schedule();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      // No directory watch on this platform: polling alone.
    }
    watchFile(this.file, { interval: this.options.pollMs ?? 1000, persistent: false }, () => this.schedule());
    return report;
  }

  /** Current rules from the file (read-only: they live in the file, not the database). */
  current(): readonly Rule[] {
    return this.rules;
  }

  /** Re-reads the file now; on failure keeps the last good rules (or throws at start). */
  reload(strict = false): SyncReport {
    let text: string;
    let json: unknown;
    try {
      text = readFileSync(this.file, 'utf8');
      if (text === this.lastText) return { rules: this.rules.length, errors: [] };
      json = JSON.parse(text);
    } catch (error) {
      const message = `settings ${this.file}: ${(error as Error).message}; keeping the ${this.rules.length} rule(s) read before`;
      if (strict) throw new Error(`settings ${this.file}: ${(error as Error).message}`, { cause: error });
      this.options.onError?.(message);
      return { rules: this.rules.length, errors: [message] };
    }
    const { rules, errors } = rulesFromSettings(json);
    const createdAt = modified(this.file);
    this.rules = rules.map((r, i): Rule => ({
      id: `settings:${i + 1}`,
      effect: r.effect,
      pattern: r.pattern,
      risk: r.effect === 'ask' ? 'medium' : null,
      scope: 'global',
      expiresAt: null,
      note: `from ${this.file}`,
      createdBy: `settings:${this.file}`,
      createdAt,
      position: i + 1,
      origin: 'settings',
    }));
    this.lastText = text;
    this.toolgate.policy.invalidate();
    for (const e of errors) this.options.onError?.(`settings ${this.file}: not applied: ${e}`);
    const report = { rules: this.rules.length, errors };
    this.options.onSync?.(report);
    return report;
  }

  /** Stops watching (the rules stay as last read). */
  close(): void {
    clearTimeout(this.debounce);
    this.watcher?.close();
    unwatchFile(this.file);
  }

  private schedule(): void {
    clearTimeout(this.debounce);
    // Editors write in several steps; read once they are done.
    this.debounce = setTimeout(() => this.reload(), 30);
    this.debounce.unref();
  }
}

function modified(file: string): string {
  try {
    return statSync(file).mtime.toISOString();
  } catch {
    return new Date().toISOString();
  }
}
