import { getResponse, http, HttpResponse, type RequestHandler } from 'msw';
import { Wallet, type ClientOptions } from '@wallet/node';
import { FetchDispatcher } from '@wallet/node/testing';

export const BASE_URL = 'https://api.wallet.test';
export const TEST_KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';

/** A request as the service received it. */
export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/**
 * MSW handlers answering the SDK's undici requests: msw patches only node:http and global fetch,
 * so a Dispatcher hands each request to msw's getResponse. A request no handler answers fails the
 * call (as a connection error), so a test cannot pass by accident when the mock is bypassed.
 */
export function mockService(...handlers: RequestHandler[]) {
  const seen: Seen[] = [];
  const unhandled: string[] = [];
  const dispatcher = new FetchDispatcher(async (request) => {
    const body = await request.clone().text();
    seen.push({ method: request.method, url: new URL(request.url), headers: request.headers, body });
    const response = await getResponse(handlers, request);
    if (!response) {
      unhandled.push(`${request.method} ${request.url}`);
      throw new Error(`No mock handler for ${request.method} ${request.url}`);
    }
    return response;
  });
  const wallet = (options: ClientOptions = {}) =>
    new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, dispatcher, maxRetries: 0, ...options });
  return { dispatcher, seen, unhandled, wallet };
}

export const ok = (data: unknown, message: string | null = 'OK', init?: ResponseInit) =>
  HttpResponse.json(
    message === null ? { status: 'success', data } : { status: 'success', message, data },
    init,
  );

export const fail = (status: number, message: string, init?: ResponseInit) =>
  HttpResponse.json({ status: 'error', message }, { status, ...init });

export const resolved = {
  customer: { handle: '@ada', name: 'Ada Obi', avatarUrl: 'https://cdn.wallet.test/ada.png' },
  availableAuthChannels: [
    { id: 'wallet_push', name: 'Wallet push', isRecommended: true },
    { id: 'wallet_qr', name: 'Wallet QR' },
  ],
  linkedBanks: [
    {
      bankId: 'bnk_01',
      bankName: 'Zenith Bank',
      bankCode: '057',
      accountNumberMasked: '******1234',
      mandateStatus: 'ACTIVE',
    },
  ],
};

export const dispatched = {
  reference: 'order_1042',
  status: 'PENDING_AUTHORIZATION',
  authChannel: 'wallet_push',
  expiresAt: '2026-11-21T10:05:00.000Z',
};

export const paid = {
  reference: 'order_1042',
  amount: 500_000,
  currency: 'NGN',
  fee: 10_000,
  netAmount: 490_000,
  status: 'SUCCESS',
  channel: 'wallet_push',
  customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Obi' },
  settlement: { status: 'SETTLED', settledAt: '2026-11-21T12:00:00.000Z' },
  paidAt: '2026-11-21T10:01:00.000Z',
};

export const refunded = {
  refundReference: 'rf_001',
  amount: 100_000,
  currency: 'NGN',
  status: 'PROCESSED',
  refundedAt: '2026-11-21T13:00:00.000Z',
};

export { http, HttpResponse };
