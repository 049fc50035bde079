// Debian's Chromium, headless, driven by playwright-core: flags that keep it off the (closed) network, a fresh profile.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where screenshots go (gitignored; CI keeps them as artifacts). */
export const RESULTS_DIR = resolve(import.meta.dirname, '../../../test-results');

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A browser with its own throw-away profile; `close()` removes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh user-data-dir. */
export async function launchChromium(viewport = { width: 1280, height: 820 }): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'toolgate-chromium-'));
  mkdirSync(RESULTS_DIR, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
