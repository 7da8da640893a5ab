import { mkdirSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';
import type { Sandbox, SandboxServer } from '@wallet/node/testing';

import { launchChromium, type Browser } from '../helpers/chromium.js';
import { readQrGrid } from './browser.js';
import { TEST_KEY } from './http-helpers.js';
import { decodeQr } from './qr-decode.js';
import { WEBHOOK_SECRET, startReceiver } from './receiver.js';
import type { Receiver } from './receiver.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);

let browser: Browser;
let receiver: Receiver;
let sandbox: Sandbox;
let server: SandboxServer;
let wallet: Wallet;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  receiver = await startReceiver();
  sandbox = createSandbox({ webhookUrl: receiver.url, webhookSecret: WEBHOOK_SECRET });
  server = await sandbox.listen();
  wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: server.url });
  browser = await launchChromium({ width: 480, height: 760 });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await wallet?.close();
  await sandbox?.close();
  await receiver?.close();
});

async function qrCharge(reference: string, amount: number): Promise<string> {
  const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount, reference });
  const dispatched = await wallet.charges.dispatch({
    reference,
    bankId: linkedBanks[0]!.bankId,
    authChannel: 'wallet_qr',
    description: 'Two jollof plates',
  });
  return dispatched.qrCodeUrl!;
}

describe('the customer page of a QR charge, in Chromium', () => {
  it('shows a QR code that decodes to its own URL; Authorize pays the charge and sends the webhook', async () => {
    const qrCodeUrl = await qrCharge('order_qr_1', 500_000);
    expect(qrCodeUrl).toMatch(new RegExp(`^${server.url}/_sandbox/qr/[0-9a-f]{32}$`));

    const page = await browser.context.newPage();
    await page.goto(qrCodeUrl);
    expect(await page.textContent('#amount')).toBe('₦5,000.00');
    expect(await page.getAttribute('#status', 'data-status')).toBe('PENDING_SCAN');
    expect(await page.textContent('#reference')).toBe('order_qr_1');
    await page.screenshot({ path: new URL('customer-page.png', ARTIFACTS).pathname, fullPage: true });

    // The pixels the customer's phone would see, read back and decoded without the encoder.
    const grid = await page.evaluate(readQrGrid);
    expect(decodeQr(grid)).toBe(qrCodeUrl);

    await Promise.all([page.waitForURL(qrCodeUrl), page.click('#authorize')]);
    expect(await page.getAttribute('#status', 'data-status')).toBe('SUCCESS');
    expect(await page.locator('#authorize').count()).toBe(0);
    await page.screenshot({ path: new URL('customer-page-paid.png', ARTIFACTS).pathname, fullPage: true });

    expect((await wallet.charges.verify('order_qr_1')).status).toBe('SUCCESS');
    expect(receiver.handled).toContainEqual({
      event: 'charge.success',
      data: { reference: 'order_qr_1', amount: 500_000, customer: { handle: '@ada' } },
    });
    expect(sandbox.debits.filter((d) => d.reference === 'order_qr_1')).toHaveLength(1);

    // A reload of the page, or a second press from another tab, cannot pay twice.
    const again = await page.request.post(`${qrCodeUrl}/authorize`, { maxRedirects: 0 });
    expect(again.status()).toBe(409);
    expect(sandbox.debits.filter((d) => d.reference === 'order_qr_1')).toHaveLength(1);
    await page.close();
  });

  it('Decline fails the charge, and sends no webhook', async () => {
    const qrCodeUrl = await qrCharge('order_qr_2', 120_000);
    const page = await browser.context.newPage();
    await page.goto(qrCodeUrl);
    await Promise.all([page.waitForURL(qrCodeUrl), page.click('#decline')]);
    expect(await page.getAttribute('#status', 'data-status')).toBe('FAILED');
    expect((await wallet.charges.verify('order_qr_2')).status).toBe('FAILED');
    expect(JSON.stringify(receiver.handled)).not.toContain('order_qr_2');
    await page.close();
  });

  it('serves the QR code as an image to an <img src=qrCodeUrl> on the merchant page', async () => {
    const qrCodeUrl = await qrCharge('order_qr_3', 80_000);
    const page = await browser.context.newPage();
    await page.setContent(`<img id="merchant" src="${qrCodeUrl}">`);
    const size = await page.$eval('#merchant', (img) => {
      const image = img as unknown as { complete: boolean; naturalWidth: number };
      return image.complete ? image.naturalWidth : 0;
    });
    expect(size).toBeGreaterThan(100);
    const svg = await fetch(qrCodeUrl, { headers: { accept: 'image/svg+xml,image/*' } });
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    await page.close();
  });
});
