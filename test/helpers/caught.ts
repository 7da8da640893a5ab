import type { WalletError } from '@wallet/node';

/**
 * What a call rejected with, or `undefined` when it resolved: a test then asserts on the error's
 * fields (and `undefined` fails those assertions, naming the call that should have failed).
 */
export const caught = <E = WalletError>(p: Promise<unknown>): Promise<E | undefined> =>
  p.then(
    () => undefined,
    (e: unknown) => e as E,
  );
