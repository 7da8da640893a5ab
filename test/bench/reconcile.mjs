// Reconcile throughput against a plain loop of verify calls, at the same concurrency against the
// same loopback server, in alternating rounds; the ratio is the median of the per-round ratios.
// Target: reconcile >= 0.8x the plain loop. The short form's 0.4x only catches a collapse: its
// 2,000-row rounds on a busy two-core machine fall to 0.45x for healthy code, and that reconcile
// keeps `concurrency` verifies in flight is held by count in test/reconcile/verify-many.test.ts.
// Prints its own table and sets process.exitCode = 1 on a miss.
import { Wallet } from '../../dist/index.js';

const CONCURRENCY = 8;
const PLAN = { full: { rounds: 7, rows: 20_000 }, short: { rounds: 5, rows: 2_000 } };
const TARGET = { full: 0.8, short: 0.4 };

async function plainLoop(wallet, rows) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < rows; i = next++) await wallet.charges.verify(`order_${i}`);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function reconcile(wallet, rows) {
  function* ledger() {
    for (let i = 0; i < rows; i++) yield { reference: `order_${i}`, amount: 500_000, status: 'paid' };
  }
  let matched = 0;
  for await (const line of wallet.charges.reconcile(ledger(), { concurrency: CONCURRENCY })) {
    if (line.verdict === 'match') matched++;
  }
  if (matched !== rows) throw new Error(`reconcile matched ${matched} of ${rows} rows`);
}

async function rate(run, wallet, rows) {
  const started = performance.now();
  await run(wallet, rows);
  return (rows * 1000) / (performance.now() - started);
}

/** Measures and prints; resolves to the figures. */
export async function reconcileBench(base, form) {
  const { rounds, rows } = PLAN[form];
  const wallet = new Wallet({ apiKey: 'sk_test_bench_reconcile_key_0000', baseUrl: base });
  // A full round each first: a shorter warm-up left the first round's plain loop still cold.
  await rate(plainLoop, wallet, rows);
  await rate(reconcile, wallet, rows);
  const loopRates = [];
  const reconcileRates = [];
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    // Alternating which goes first, so a drift in the machine's load hits both sides alike.
    const first = r % 2 === 0;
    const a = first ? await rate(plainLoop, wallet, rows) : undefined;
    const b = await rate(reconcile, wallet, rows);
    const c = a ?? (await rate(plainLoop, wallet, rows));
    loopRates.push(c);
    reconcileRates.push(b);
    ratios.push(b / c);
  }
  await wallet.close();
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const ratio = median(ratios);
  const holds = ratio >= TARGET[form];
  console.log(
    `\nReconcile throughput, concurrency ${CONCURRENCY}, ${rounds} rounds of ${rows} rows\n` +
      `plain verify loop  ${Math.round(median(loopRates))} rows/s\n` +
      `charges.reconcile  ${Math.round(median(reconcileRates))} rows/s  ${ratio.toFixed(2)}x  ` +
      `(target >= ${TARGET[form]}x: ${holds ? 'holds' : 'MISSED'})`,
  );
  if (!holds) process.exitCode = 1;
  return { concurrency: CONCURRENCY, rounds, rows, loopRates, reconcileRates, ratio, holds };
}
