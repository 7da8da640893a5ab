import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { launchChromium, type Browser } from '../helpers/chromium.js';
import { merchantProject } from './harness.js';
import { proof } from './pending.js';
import { recordFigure } from './timing.js';

// A front-end that imports the SDK by mistake. esbuild with platform 'browser' asks for the
// package's `browser` condition, as every browser bundler does.
const PAGE = `import { Wallet, WalletError } from '@wallet/node';
let result;
try {
  const wallet = new Wallet({ apiKey: 'sk_test_browser_4eC39HqLyjWDarjt', baseUrl: 'http://127.0.0.1:9' });
  result = { refused: false, built: typeof wallet };
} catch (error) {
  result = {
    refused: true,
    name: error && error.name,
    walletError: error instanceof WalletError,
    message: String(error && error.message),
  };
}
globalThis.__walletResult = result;
`;

interface Refusal {
  refused: boolean;
  name?: string;
  walletError?: boolean;
  message?: string;
}

describe('a browser bundle of the packed tarball (the browser condition)', () => {
  let app: Awaited<ReturnType<typeof merchantProject>>;
  let bundle: { text: string; packages: string[] };
  let browser: Browser | undefined;
  beforeAll(async () => {
    app = await merchantProject({ 'page.js': PAGE });
    const result = await build({
      absWorkingDir: app.dir,
      entryPoints: ['page.js'],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      logLevel: 'silent',
    });
    const packages = Object.keys(result.metafile.inputs).flatMap(
      (input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? [],
    );
    bundle = { text: result.outputFiles[0]!.text, packages: [...new Set(packages)].sort() };
    recordFigure('browser bundle of a page importing Wallet', `${bundle.text.length} bytes`);
  });
  afterAll(async () => {
    await browser?.close();
    app?.remove();
  });

  proof('holds the refusing entry only: no undici, no zod, no Node builtin', () => {
    expect(bundle.packages).toEqual(['@wallet/node']);
    expect([...new Set(bundle.text.match(/["']node:[a-z_/]+["']/g))]).toEqual([]);
  });

  proof('refuses new Wallet() in headless Chromium with a WalletError about secret keys', async () => {
    browser = await launchChromium({ width: 800, height: 600 });
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('about:blank');
    await page.addScriptTag({ content: bundle.text });
    const result = await page.evaluate<Refusal>('globalThis.__walletResult');
    expect(errors).toEqual([]);
    expect(result).toMatchObject({ refused: true, walletError: true });
    expect(result.message).toMatch(/secret key/i);
  });
});
