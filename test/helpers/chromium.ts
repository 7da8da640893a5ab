/**
 * Headless Chromium for the browser tests: Debian's chromium driven by playwright-core, a fresh
 * profile per launch, no network beyond loopback, and always closed by the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A launched browser; `close()` also removes its profile. */
export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a window of `viewport` and a fresh profile in the temp directory. */
export async function launchChromium(viewport: { width: number; height: number }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'wallet-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
