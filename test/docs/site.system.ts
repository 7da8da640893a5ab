import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type Browser } from '../helpers/chromium.js';
import { ensureFreshSite, serve } from './site-server.js';

// The docs site as a merchant meets it: `npm run docs` output, opened in headless Chromium. The
// screenshots land in test/docs/screenshots/ (ignored by git) for a person to look at.

const root = fileURLToPath(new URL('../..', import.meta.url));
const site = join(root, 'docs/api');
const shots = join(root, 'test/docs/screenshots');
const GUIDES = [
  'getting-started',
  'errors',
  'webhooks',
  'testing',
  'sandbox',
  'reliability',
  'performance',
  'observability',
  'reconciliation',
  'agents',
];

/** The guide's first heading: the title the site lists it under. */
function guideTitle(file: string): string {
  const heading = /^# (.+)$/m.exec(readFileSync(join(root, 'docs', file), 'utf8'));
  return heading![1]!.replaceAll('`', '');
}

let server: Server;
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureFreshSite(root, site);
  ({ server, base } = await serve(site));
  rmSync(shots, { recursive: true, force: true });
  mkdirSync(shots, { recursive: true });
  browser = await launchChromium({ width: 1280, height: 900 });
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

const url = (path: string): string => new URL(path, base).href;

/** The first screen, what a merchant sees on arrival; `DOCS_SCREENSHOTS=full` for whole pages. */
async function shot(name: string): Promise<void> {
  await page.screenshot({
    path: join(shots, `${name}.png`),
    fullPage: process.env.DOCS_SCREENSHOTS === 'full',
  });
}

/** A link whose visible text is exactly `name` (icons inside links add to their accessible names). */
function link(container: string, name: string) {
  const exact = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
  return page.locator(`${container} a`).filter({ hasText: exact }).first();
}

/** Opens a module's page, then the export named `name` from it, as a merchant clicks through. */
async function openExport(module: string, name: string): Promise<void> {
  await page.goto(url('index.html'));
  await link('#tsd-nav-container', module).click();
  await expect.poll(() => page.locator('h1').innerText()).toBe(`Module ${module}`);
  await link('.col-content', name).click();
  await expect.poll(() => page.locator('h1').innerText()).toMatch(new RegExp(`\\b${name}\\b`));
}

async function exampleCode(): Promise<string> {
  const example = page.locator('.tsd-tag-example pre').first();
  await example.waitFor({ state: 'visible' });
  return example.innerText();
}

describe('the docs site', () => {
  it('shows the landing page content with scripts off: merchant material, no contributor sections', async () => {
    const plain = await browser.context.newPage();
    try {
      const cdp = await browser.context.newCDPSession(plain);
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
      await plain.goto(url('index.html'));
      // The theme's script never ran (it defines window.app), and the page shows anyway.
      expect(await plain.evaluate(() => typeof (globalThis as { app?: unknown }).app)).toBe('undefined');
      expect(await plain.getByRole('heading', { name: /Quick start/ }).isVisible()).toBe(true);
      expect(await plain.getByText('npx wallet-sandbox --port 4010').first().isVisible()).toBe(true);
      await plain.screenshot({ path: join(shots, 'landing-without-scripts.png') });
      const text = await plain.locator('body').innerText();
      expect(text).toContain('What you need from Wallet');
      expect(text).not.toContain('Working on the SDK');
      expect(text).not.toContain('npm install && npm run demo');
    } finally {
      await plain.close();
    }
    await page.goto(url('index.html'));
    await shot('landing');
  });

  it('shows the landing page at once while the theme script is still on its way', async () => {
    const held = await browser.context.newPage();
    try {
      // A slow network for the theme's main script: the page must not wait for it.
      await held.route('**/assets/main.js', () => undefined);
      // And a stopped clock, so no timer can reveal a page that hid itself until the script ran.
      await held.clock.install({ time: 0 });
      await held.clock.pauseAt(1_000);
      // A deferred script holds DOMContentLoaded back, so wait only for the markup to arrive.
      await held.goto(url('index.html'), { waitUntil: 'commit' });
      // (Not a role query: those skip hidden elements and would wait forever on a hidden page.)
      const heading = held.locator('h2', { hasText: 'Quick start' });
      await heading.waitFor({ state: 'attached' });
      expect(await held.evaluate(() => typeof (globalThis as { app?: unknown }).app)).toBe('undefined');
      expect(await heading.isVisible()).toBe(true);
    } finally {
      // Playwright's clock belongs to the whole (persistent) context: left paused, later pages'
      // timers never fire (their search never answers).
      await held.clock.resume();
      await held.close();
    }
  });

  it('names the modules as merchants import them and groups the navigation by category', async () => {
    await page.goto(url('index.html'));
    for (const module of ['@wallet/node', '@wallet/node/webhooks', '@wallet/node/testing']) {
      await expect.poll(() => link('#tsd-nav-container', module).isVisible()).toBe(true);
    }
    await link('#tsd-nav-container', '@wallet/node').click();
    await expect.poll(() => page.locator('h1').innerText()).toBe('Module @wallet/node');
    const sections = await page.locator('.col-content h2').allInnerTexts();
    expect(sections.map((s) => s.trim())).toEqual([
      'Client',
      'Resources',
      'Errors',
      'Money',
      'Webhooks',
      'Types',
    ]);
    await shot('module-wallet-node');
  });

  it('shows the Wallet example, and Charges methods in the order of a payment with their shapes', async () => {
    await openExport('@wallet/node', 'Wallet');
    expect(await exampleCode()).toContain('new Wallet()');
    await shot('class-wallet');

    await openExport('@wallet/node', 'Charges');
    const methods = (await page.locator('.col-content h3.tsd-anchor-link').allInnerTexts()).map((m) =>
      m.trim(),
    );
    const payment = ['resolveHandle', 'dispatch', 'verify', 'waitForOutcome'].filter((m) =>
      methods.includes(m),
    );
    expect(methods.filter((m) => payment.includes(m))).toEqual(payment);
    expect(payment.slice(0, 3)).toEqual(['resolveHandle', 'dispatch', 'verify']);
    // Parameter and result fields are on the method's own page, not one click away.
    const resolve = page.locator('section.tsd-member:has(#resolvehandle)');
    const fields = await resolve.locator('.tsd-parameters .tsd-kind-property').allInnerTexts();
    expect(fields).toEqual(
      expect.arrayContaining(['handle', 'amount', 'reference', 'customer', 'linkedBanks']),
    );
    expect(await resolve.locator('.tsd-returns-title', { hasText: 'Resolves to' }).count()).toBe(1);
    await shot('class-charges');
  });

  it('shows the verifyWebhook and createSandbox examples', async () => {
    await openExport('@wallet/node/webhooks', 'verifyWebhook');
    expect(await exampleCode()).toContain('verifyWebhook(req.body');
    await shot('function-verifyWebhook');

    await openExport('@wallet/node/testing', 'createSandbox');
    expect(await exampleCode()).toContain('createSandbox(');
    await shot('function-createSandbox');
  });

  const present = GUIDES.map((g) => `${g}.md`).filter((file) => existsSync(join(root, 'docs', file)));
  it.each(present)('renders the guide %s as an HTML page listed in the navigation', async (file) => {
    const title = guideTitle(file);
    await page.goto(url('index.html'));
    await link('#tsd-nav-container', title).click();
    await expect.poll(() => page.locator('.col-content h1').first().innerText()).toBe(title);
    const markdown = readFileSync(join(root, 'docs', file), 'utf8');
    // Rendered, not shown as source: no fences or heading marks outside code, code in <pre>,
    // tables as tables.
    // (A string, since this file is type-checked without the DOM library.)
    const prose = await page.evaluate<string>(`(() => {
      const copy = document.querySelector('.col-content').cloneNode(true);
      copy.querySelectorAll('pre').forEach((pre) => pre.remove());
      return copy.textContent;
    })()`);
    expect(prose).not.toMatch(/^\s*(```|#{1,3} )/m);
    if (markdown.includes('```')) expect(await page.locator('.col-content pre').count()).toBeGreaterThan(0);
    if (/^\|.*\|$/m.test(markdown))
      expect(await page.locator('.col-content table').count()).toBeGreaterThan(0);
    await shot(`guide-${file.replace(/\.md$/, '')}`);
  });

  // Merchants search in their own words, which live in the guides, not only in API names.
  it.each([
    ['express', 'Webhooks'],
    ['next.js', 'Webhooks'],
    ['idempotency', 'Errors and retries'],
  ])('finds the guides when a merchant searches for %s', async (words, guide) => {
    await page.goto(url('index.html'));
    await page.locator('#tsd-search-trigger').click();
    await page.locator('#tsd-search-input').fill(words);
    const results = page.locator('#tsd-search-results li');
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    expect((await results.allInnerTexts()).join('\n')).toContain(guide);
    await shot(`search-${words.replace(/\W/g, '-')}`);
  });

  /** The search results for `words`, as the merchant reads them, best first. */
  async function searchFor(words: string): Promise<string[]> {
    await page.goto(url('index.html'));
    await page.locator('#tsd-search-trigger').click();
    await page.locator('#tsd-search-input').fill(words);
    const results = page.locator('#tsd-search-results li');
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    return (await results.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  // The member a merchant means by their words comes first; the guides that explain it follow.
  it.each([
    ['refund', /(^|\.)Refunds$/, /\.Refunds\.create$/],
    ['verify webhook', /(^|\.)verifyWebhook$/, /^Webhooks$/],
    ['next.js', /(^|\.)createWebhookHandler$/, /^Webhooks$/],
  ])('ranks first the member a merchant means by %s', async (words, first, alsoListed) => {
    const results = await searchFor(words);
    await shot(`search-first-${words.replace(/\W/g, '-')}`);
    expect(results[0], results.join(' | ')).toMatch(first);
    expect(
      results.some((text) => alsoListed.test(text)),
      results.join(' | '),
    ).toBe(true);
  });

  it('opens a guide found by search at the section that holds the words', async () => {
    await searchFor('next.js');
    await page.locator('#tsd-search-results li a[href*="documents/"]', { hasText: /^Webhooks$/ }).click();
    await page.waitForURL(/documents\/.*#/);
    expect(new URL(page.url()).hash).toMatch(/next/i);
    const heading = page.locator(`[id="${new URL(page.url()).hash.slice(1)}"]`);
    await expect.poll(() => heading.isVisible()).toBe(true);
    await expect.poll(() => heading.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(400);
    await shot('search-next-js-lands-on-section');
  });

  it('lists the guides in reading order, getting started first', async () => {
    await page.goto(url('index.html'));
    const titles = present.map(guideTitle);
    const nav = await page.locator('#tsd-nav-container').innerText();
    const order = titles.map((t) => nav.indexOf(t));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
