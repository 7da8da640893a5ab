// #region crash-safe-refund
import { randomUUID } from 'node:crypto';
import type { Refund, Wallet } from '@wallet/node';

/** One row per refund in your database, written before the call: its id is the idempotency key. */
export interface RefundRow {
  id: string;
  reference: string;
  amount: number;
  refundReference?: string | undefined;
}

/** Your refunds table (SQL, Redis, …): what the pattern needs from it. */
export interface RefundTable {
  insert(row: RefundRow): Promise<void>;
  pending(): Promise<RefundRow[]>;
  markDone(id: string, refundReference: string): Promise<void>;
}

/** A new refund: recorded with its own key first, then sent. */
export async function refund(wallet: Wallet, table: RefundTable, reference: string, amount: number) {
  const row: RefundRow = { id: randomUUID(), reference, amount };
  await table.insert(row); // stored before sending: a crash after this line cannot lose the key
  return send(wallet, table, row);
}

/**
 * On start-up after a crash, and on a schedule: every pending row again, with its stored key. A row
 * that fails again stays pending for the next run; the failures are returned for your logs.
 */
export async function finishPendingRefunds(wallet: Wallet, table: RefundTable) {
  const failures: { row: RefundRow; error: unknown }[] = [];
  for (const row of await table.pending()) {
    await send(wallet, table, row).catch((error: unknown) => failures.push({ row, error }));
  }
  return failures;
}

async function send(wallet: Wallet, table: RefundTable, row: RefundRow): Promise<Refund> {
  // The same row always sends the same key: the service refunds once and replays its answer after.
  const done = await wallet.refunds.create(
    { reference: row.reference, amount: row.amount },
    { idempotencyKey: row.id },
  );
  await table.markDone(row.id, done.refundReference);
  return done;
}
// #endregion crash-safe-refund
