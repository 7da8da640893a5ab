/**
 * The verifying half of `wallet reconcile`, for any command that checks ledger rows against the
 * service (reconcile today, settlements next): the SDK's `charges.reconcile` (concurrency, one
 * pause for every worker on a 429 or `Retry-After` up to `maxWait`, and its truth rules), plus
 * the rule that a refused key ends the run at once instead of writing one `error` row per row.
 */
import {
  isApiError,
  type ReconcileLine,
  type ReconcileProgress,
  type Wallet,
  type WalletError,
} from '@wallet/node';

import type { CsvRow } from './ledger.js';

/** How rows are verified. */
export interface VerifyRowsOptions {
  concurrency: number;
  retries: number;
  /** The longest wait a `Retry-After` may ask, in milliseconds. */
  maxWait: number;
  /** Rows to verify, for the SDK's progress counts. */
  total: number;
  onProgress?: (progress: ReconcileProgress) => void;
  /** Stops the run at once (a second Ctrl-C). */
  signal: AbortSignal;
}

/** The service refused the key (401) or this machine (403): no row can be verified. */
export class KeyRefused extends Error {
  override readonly name = 'KeyRefused';
  /** The SDK's error, with the service's message. */
  readonly error: WalletError;
  constructor(error: WalletError) {
    const why =
      isApiError(error) && error.status === 403
        ? "403: the key's IP allow list does not include this machine"
        : '401: the service refused the key';
    super(
      `Stopped: ${why} (${error.message.split('\n')[0] ?? ''}). Rows so far are in the report; fix the key and run again with --resume.`,
    );
    this.error = error;
  }
}

function refusedKey(line: ReconcileLine<CsvRow>): WalletError | undefined {
  const error = line.error;
  return isApiError(error) && (error.status === 401 || error.status === 403) ? error : undefined;
}

/** Reconciles `rows` in order; throws {@link KeyRefused} at the first 401 or 403, before its row. */
export async function* verifyRows(
  wallet: Wallet,
  rows: AsyncIterable<CsvRow>,
  options: VerifyRowsOptions,
): AsyncGenerator<ReconcileLine<CsvRow>, void, undefined> {
  // Our own stop, so a refused key can end the rows under way too.
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(options.signal.reason);
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const lines = wallet.charges.reconcile(rows, {
      concurrency: options.concurrency,
      maxRetries: options.retries,
      maxWait: options.maxWait,
      signal: stop.signal,
      total: options.total,
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
    for await (const line of lines) {
      const refused = refusedKey(line);
      if (refused !== undefined) {
        stop.abort(refused);
        throw new KeyRefused(refused);
      }
      yield line;
    }
  } finally {
    options.signal.removeEventListener('abort', onAbort);
  }
}
