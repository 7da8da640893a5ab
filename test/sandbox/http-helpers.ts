/**
 * Plain-HTTP helpers for the sandbox tests: what a merchant without the SDK would send, and the
 * status and body they would see.
 */
import type { Sandbox } from '@wallet/node/testing';

export const TEST_KEY = 'sk_test_merchant_123';

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON). */
  rawBody?: string;
  idempotencyKey?: string;
  apiKey?: string | null;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by path in tests; the assertions check its shape.
  body: any;
  headers: Headers;
}

export function buildRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Request {
  const headers = new Headers({ accept: 'application/json', ...options.headers });
  const apiKey = options.apiKey === undefined ? TEST_KEY : options.apiKey;
  if (apiKey !== null) headers.set('authorization', `Bearer ${apiKey}`);
  if (options.idempotencyKey !== undefined) headers.set('x-idempotency-key', options.idempotencyKey);
  let body: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    body = options.rawBody ?? JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return new Request(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
}

async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

/** Calls the sandbox's Fetch handler directly, in process. */
export function callSandbox(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: CallOptions = {},
  clientIp?: string,
): Promise<Answer> {
  const request = buildRequest(sandbox.baseUrl, method, path, options);
  return sandbox.fetch(request, clientIp === undefined ? {} : { clientIp }).then(read);
}

/** Calls any base URL over global fetch (a loopback server, or MSW's interception). */
export async function callHttp(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  return read(await fetch(buildRequest(baseUrl, method, path, options)));
}

/** Resolves `@ada` for a reference and dispatches a push to her ACTIVE bank. */
export async function resolveAndDispatch(
  sandbox: Sandbox,
  reference: string,
  amount: number,
  authChannel: 'wallet_push' | 'wallet_qr' = 'wallet_push',
): Promise<Answer> {
  const resolved = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
    body: { handle: '@ada', amount, reference },
  });
  if (resolved.status !== 200) throw new Error(`resolve failed: ${JSON.stringify(resolved.body)}`);
  return callSandbox(sandbox, 'POST', '/v1/charges/dispatch', {
    body: { reference, bankId: resolved.body.data.linkedBanks[0].bankId, authChannel },
  });
}

/** Resolves, dispatches and authorizes: a SUCCESS charge. */
export async function paidCharge(sandbox: Sandbox, reference: string, amount: number): Promise<void> {
  const dispatched = await resolveAndDispatch(sandbox, reference, amount);
  if (dispatched.status !== 200) throw new Error(`dispatch failed: ${JSON.stringify(dispatched.body)}`);
  await sandbox.authorize(reference);
}
