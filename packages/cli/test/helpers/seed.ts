/**
 * Charges in the states a reconciliation meets, made in a running sandbox over HTTP: resolve,
 * dispatch, then the customer's answer through the sandbox's control routes.
 */
import { TEST_KEY } from './processes.js';

/** The state a seeded charge ends in. */
export type SeedState = 'SUCCESS' | 'FAILED' | 'PENDING_AUTHORIZATION';

/** One charge to seed. */
export interface SeedCharge {
  reference: string;
  amount: number;
  state: SeedState;
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Seeds each charge, a few at a time. */
export async function seed(baseUrl: string, charges: readonly SeedCharge[]): Promise<void> {
  const one = async ({ reference, amount, state }: SeedCharge): Promise<void> => {
    const resolved = (await post(`${baseUrl}/v1/charges/resolve-handle`, {
      handle: '@ada',
      amount,
      reference,
    })) as {
      data: { linkedBanks: { bankId: string }[] };
    };
    const bankId = resolved.data.linkedBanks[0]!.bankId;
    await post(`${baseUrl}/v1/charges/dispatch`, { reference, bankId, authChannel: 'wallet_push' });
    const ref = encodeURIComponent(reference);
    if (state === 'SUCCESS') await post(`${baseUrl}/_sandbox/charges/${ref}/authorize`, {});
    if (state === 'FAILED') await post(`${baseUrl}/_sandbox/charges/${ref}/decline`, {});
  };
  const queue = [...charges];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await one(next);
    }),
  );
}
