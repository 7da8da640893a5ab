/**
 * The "truth about money" campaigns (issue 15), money side: idempotency keys reused the way a
 * hurried merchant reuses them, and crashes between sending and hearing back, against a service
 * that replays saved answers as the spec says. Each call's result is judged against what the
 * service really did.
 */
import { isWalletError, type Wallet } from '@wallet/node';
import { specServer } from '../../helpers/spec-server.js';
import { finishPendingRefunds, refund, type RefundRow } from '../../idempotency/crash-safe-refund.js';
import { pool, rng } from './tools.js';

export interface MoneyFigures {
  calls: number;
  successes: number;
  replayMismatches: number;
  keysRefusedBeforeSending: number;
  otherTypedErrors: number;
  /** Keys the service acted on more than once. */
  doubleExecutions: number;
  /** Successes reporting another request's refund as theirs, or mismatches that were really theirs. */
  outcomeLies: number;
  /**
   * Successes that were another reference's refund of the same amount under the same key, sent by
   * another client: the spec's refund answer carries no reference, so no check of the answer can
   * see it (a key stored per operation never meets this). Counted apart from the lies above.
   */
  undetectableByAnswer: number;
  /** Anything thrown that is not a WalletError. */
  crashes: number;
}

/** Many partial refunds whose keys come from a small pool (reused across clients and amounts), with lost answers. */
export async function keyReuseCampaign(calls: number, seed: number): Promise<MoneyFigures> {
  const server = await specServer();
  const random = rng(seed);
  const refs = Array.from({ length: 8 }, (_, i) => `order_${i}`);
  for (const ref of refs) server.paid(ref, 1_000_000_000);
  const clients = Array.from({ length: 4 }, () => server.wallet({ maxRetries: 2, logLevel: 'off' }));
  for (let n = 1; n <= calls * 3; n++) if (random() < 0.15) server.loseAnswer(n);
  const plan = Array.from({ length: calls }, () => ({
    client: clients[Math.floor(random() * clients.length)]!,
    key: `key_${Math.floor(random() * (calls / 6))}`,
    reference: refs[Math.floor(random() * refs.length)]!,
    amount: 1 + Math.floor(random() * 5) * 1000,
  }));
  const f: MoneyFigures = {
    calls,
    successes: 0,
    replayMismatches: 0,
    keysRefusedBeforeSending: 0,
    otherTypedErrors: 0,
    doubleExecutions: 0,
    outcomeLies: 0,
    undetectableByAnswer: 0,
    crashes: 0,
  };
  const judged: { key: string; reference: string; amount: number; verdict: 'ok' | 'mismatch' }[] = [];
  await pool(calls, 24, async (i) => {
    const { client, key, reference, amount } = plan[i]!;
    try {
      await client.refunds.create({ reference, amount }, { idempotencyKey: key });
      f.successes++;
      judged.push({ key, reference, amount, verdict: 'ok' });
    } catch (error) {
      if (!isWalletError(error)) f.crashes++;
      else if (error.code === 'replay_mismatch') {
        f.replayMismatches++;
        judged.push({ key, reference, amount, verdict: 'mismatch' });
      } else if (error.code === 'idempotency_key_reused') f.keysRefusedBeforeSending++;
      else f.otherTypedErrors++;
    }
  });
  const done = new Map<string, { reference: string; amount: number }[]>();
  for (const r of server.refunds) done.set(r.key!, [...(done.get(r.key!) ?? []), r]);
  for (const list of done.values()) if (list.length > 1) f.doubleExecutions++;
  for (const j of judged) {
    const acted = done.get(j.key)?.[0];
    const mine = acted !== undefined && acted.reference === j.reference && acted.amount === j.amount;
    // A success must be the refund the service did under that key; a mismatch must not be.
    if (j.verdict === 'ok' ? mine : !mine) continue;
    if (j.verdict === 'ok' && acted?.amount === j.amount) f.undetectableByAnswer++;
    else f.outcomeLies++;
  }
  await server.close();
  return f;
}

export interface CrashFigures {
  rows: number;
  /** Refund rows refunded more than once, or never, after recovery. */
  doubleRefunds: number;
  missingRefunds: number;
  crashedCalls: number;
  recoveryRounds: number;
  crashes: number;
}

/** The docs' crash-safe pattern under lost answers: every crashed process is replaced by a fresh one. */
export async function crashCampaign(rows: number, seed: number): Promise<CrashFigures> {
  const server = await specServer();
  const random = rng(seed);
  server.paid('order_c', 1_000_000_000);
  for (let n = 1; n <= rows * 4; n++) if (random() < 0.3) server.loseAnswer(n);
  const table = new Map<string, RefundRow>();
  const db = {
    insert: async (row: RefundRow) => void table.set(row.id, { ...row }),
    pending: async () => [...table.values()].filter((r) => r.refundReference === undefined),
    markDone: async (id: string, ref: string) => void (table.get(id)!.refundReference = ref),
  };
  const f: CrashFigures = {
    rows,
    doubleRefunds: 0,
    missingRefunds: 0,
    crashedCalls: 0,
    recoveryRounds: 0,
    crashes: 0,
  };
  const crashing: Wallet = server.wallet({ maxRetries: 0, logLevel: 'off' });
  await pool(rows, 16, async (i) => {
    try {
      await refund(crashing, db, 'order_c', 100 + i);
    } catch (error) {
      if (!isWalletError(error)) f.crashes++;
      else f.crashedCalls++;
    }
  });
  while ((await db.pending()).length > 0 && f.recoveryRounds < 10) {
    f.recoveryRounds++;
    await finishPendingRefunds(server.wallet({ maxRetries: 0, logLevel: 'off' }), db).catch(
      (error: unknown) => {
        if (!isWalletError(error)) f.crashes++;
      },
    );
  }
  for (const row of table.values()) {
    const done = server.refunds.filter((r) => r.key === row.id);
    if (done.length > 1) f.doubleRefunds++;
    if (done.length === 0 || row.refundReference === undefined) f.missingRefunds++;
  }
  await server.close();
  return f;
}
