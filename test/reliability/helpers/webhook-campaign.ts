/**
 * The webhook class of issue 15, as a sender that delivers at least once would exercise a
 * merchant's handler: genuine events, genuine events whose payload breaks the documented shape,
 * forgeries, concurrent duplicate deliveries, an `onEvent` that fails once, and an `onEvent` slower
 * than several dedupe leases, all against one `createWebhookHandler` on a `memoryDedupeStore`. The
 * sender retries anything but 2xx and 400 with backoff, and takes 400 as final (as many do).
 * Runs on the caller's clock (`advance`), so leases and backoffs cost no wall time.
 */
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { createWebhookHandler, memoryDedupeStore, type WebhookEvent } from '@wallet/node/webhooks';
import { rng } from './tools.js';

const SECRET = 'whsec_stress_7c1e9a0f3b5d2468';
const LEASE = 1_000;
const ATTEMPTS = 10;
const sign = (body: string, secret = SECRET) => createHmac('sha512', secret).update(body).digest('hex');

type Kind = 'genuine' | 'slow' | 'flaky' | 'unexpected' | 'forged';
interface Planned {
  kind: Kind;
  reference: string;
  body: string;
  signature: string;
}

const charge = (reference: string, data: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'charge.success',
    data: { reference, amount: 500_000, customer: { handle: '@ada' }, ...data },
  });

// Genuine, correctly signed bodies that do not fit the documented shape.
const UNEXPECTED: ((reference: string) => string)[] = [
  (r) => charge(r, { amount: '500000' }),
  (r) => charge(r, { customer: {} }),
  (r) => `\ufeff${charge(r)}`,
  (r) => charge(r, { amount: -500_000 }),
  (r) => charge(r).slice(0, -2), // cut short: not JSON
];

// Deliveries that did not come from the service.
const FORGERIES: ((reference: string) => { body: string; signature: string })[] = [
  (r) => ({ body: charge(r, { amount: 5 }), signature: sign(charge(r)) }), // body altered
  (r) => ({ body: charge(r), signature: sign(charge(r), 'whsec_guessed') }), // wrong secret
  (r) => ({ body: charge(r), signature: sign(charge(r)).slice(0, 64) }), // truncated
  (r) => ({ body: charge(r), signature: '' }), // unsigned
  (r) => ({ body: `${charge(r)} `, signature: sign(charge(r)) }), // one byte more
];

function plan(count: number, seed: number): Planned[] {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const reference = `wh_${seed}_${i}`;
    const roll = random();
    const kind: Kind =
      roll < 0.45
        ? 'genuine'
        : roll < 0.55
          ? 'slow'
          : roll < 0.62
            ? 'flaky'
            : roll < 0.77
              ? 'unexpected'
              : 'forged';
    if (kind === 'forged') return { kind, reference, ...pick(FORGERIES)(reference) };
    const body = kind === 'unexpected' ? pick(UNEXPECTED)(reference) : charge(reference);
    return { kind, reference, body, signature: sign(body) };
  });
}

/** The counts of one campaign. */
export interface WebhookFigures {
  events: number;
  deliveries: number;
  /** onEvent finished more than once for one event. */
  doubleExecutions: number;
  /** A forgery answered 2xx, or reaching onEvent / onInvalidEvent. */
  forgeriesAccepted: number;
  /** A genuine delivery answered 400, which the sender takes as final. */
  genuineAnswered400: number;
  /** A genuine event the merchant never got: not run, not handed to onInvalidEvent, not reported. */
  genuineLost: number;
  /** A redelivery answered while a slow onEvent held the lease (must be 503, never run). */
  heldByLease: number;
  /** The secret in an answer, an error or its inspect output. */
  leaks: number;
  /** The handler threw or rejected instead of answering. */
  crashes: number;
  firstProblem: string;
}

/**
 * `count` events from `seed`, at most `concurrency` being delivered at once; with `surfaceInvalid`,
 * the handler has an `onInvalidEvent` (else unexpected payloads are answered 500 and reported).
 */
export async function webhookCampaign(
  count: number,
  seed: number,
  surfaceInvalid: boolean,
  advance: (ms: number) => Promise<void>,
): Promise<WebhookFigures> {
  const events = plan(count, seed);
  const byRef = new Map(events.map((e) => [e.reference, e]));
  const figures: WebhookFigures = {
    events: count,
    deliveries: 0,
    doubleExecutions: 0,
    forgeriesAccepted: 0,
    genuineAnswered400: 0,
    genuineLost: 0,
    heldByLease: 0,
    leaks: 0,
    crashes: 0,
    firstProblem: '',
  };
  const problem = (what: string) => void (figures.firstProblem ||= what);
  const finished = new Map<string, number>();
  const started = new Map<string, number>();
  const surfaced = new Set<string>();
  // Without onInvalidEvent: each unexpected delivery that got as far as its payload must be
  // answered 500 and reported to onError (one the body deadline cut short is answered 408 instead).
  let invalidReports = 0;
  let unexpectedAnswered500 = 0;
  // Deliveries the sender stopped waiting for still run on; they are counted once they end.
  const inFlight = new Set<Promise<number>>();
  const refOf = (body: string) => /"reference":"([^"]+)"/.exec(body)?.[1] ?? '';
  const answeredOk = new Set<string>();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const leaked = (text: string) => text.includes(SECRET);

  const handler = createWebhookHandler({
    secret: SECRET,
    dedupe: memoryDedupeStore({ claimTtl: LEASE }),
    async onEvent(event: WebhookEvent) {
      const reference = (event.data as { reference: string }).reference;
      const planned = byRef.get(reference);
      if (planned?.kind === 'forged') problem(`forgery ${reference} reached onEvent`);
      const runs = (started.get(reference) ?? 0) + 1;
      started.set(reference, runs);
      if (planned?.kind === 'slow') await sleep(LEASE * (2.5 + (runs % 3)));
      if (planned?.kind === 'flaky' && runs === 1) throw new Error('database briefly unavailable');
      finished.set(reference, (finished.get(reference) ?? 0) + 1);
    },
    ...(surfaceInvalid
      ? {
          onInvalidEvent(payload: unknown) {
            surfaced.add(refOf(typeof payload === 'string' ? payload : (JSON.stringify(payload) ?? '')));
          },
        }
      : {}),
    onError(error) {
      const text = `${String(error)}\n${inspect(error, { depth: 8 })}`;
      if (leaked(text)) {
        figures.leaks++;
        problem(`secret in an onError error: ${text.slice(0, 120)}`);
      }
      if ((error as { reason?: unknown }).reason === 'invalid_payload') invalidReports++;
    },
  });

  const deliver = (event: Planned): Promise<number> => {
    const delivery = deliverOnce(event);
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
    return delivery;
  };
  const deliverOnce = async (event: Planned): Promise<number> => {
    figures.deliveries++;
    try {
      const request = new Request('https://merchant.example/hooks', {
        method: 'POST',
        body: event.body,
        headers: { 'x-wallet-signature': event.signature },
      });
      const response = await handler(request);
      const text = await response.text();
      if (event.kind === 'unexpected' && response.status === 500) unexpectedAnswered500++;
      if (response.status >= 200 && response.status < 300) answeredOk.add(event.reference);
      if (leaked(text)) {
        figures.leaks++;
        problem(`secret in an answer to ${event.reference}`);
      }
      return response.status;
    } catch (crash) {
      figures.crashes++;
      problem(`handler threw for ${event.reference}: ${String(crash)}`);
      return 0;
    }
  };

  const random = rng(seed ^ 0x5eed);
  const sender = async (event: Planned): Promise<void> => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // At least once: now and then the same delivery arrives twice at the same moment; and the
      // sender stops waiting after 1.5 leases (a slow onEvent goes on) and delivers again later.
      const once = () => Promise.race([deliver(event), sleep(LEASE * 1.5).then(() => 504)]);
      const copies = random() < 0.25 ? [once(), once()] : [once()];
      const statuses = await Promise.all(copies);
      if (event.kind === 'slow') figures.heldByLease += statuses.filter((s) => s === 503).length;
      for (const status of statuses) {
        const accepted = status >= 200 && status < 300;
        if (event.kind === 'forged' && accepted) {
          figures.forgeriesAccepted++;
          problem(`forgery ${event.reference} answered ${status}`);
        }
        if (event.kind !== 'forged' && status === 400) {
          figures.genuineAnswered400++;
          problem(`genuine ${event.kind} ${event.reference} answered 400`);
        }
      }
      if (statuses.some((s) => (s >= 200 && s < 300) || s === 400)) return;
      await sleep(Math.min(500 * 2 ** attempt, 8_000));
    }
  };

  let next = 0;
  const workers = Array.from({ length: 64 }, async () => {
    while (next < events.length) await sender(events[next++]!);
  });
  let done = false;
  const all = Promise.all(workers).then(() => (done = true));
  while (!done) await advance(100);
  await all;
  // Let the deliveries and onEvent runs the sender stopped waiting for finish: some wait on real
  // work (WebCrypto), so the fake clock moves on until none is left.
  while (inFlight.size > 0) await advance(100);
  await advance(LEASE * 10);

  for (const event of events) {
    const runs = finished.get(event.reference) ?? 0;
    if (runs > 1) {
      figures.doubleExecutions++;
      problem(`${event.kind} ${event.reference} ran ${runs} times`);
    }
    if (event.kind === 'forged') {
      if (surfaced.has(event.reference) || runs > 0) figures.forgeriesAccepted++;
      continue;
    }
    const got =
      event.kind !== 'unexpected'
        ? runs >= 1
        : surfaceInvalid
          ? surfaced.has(event.reference)
          : !answeredOk.has(event.reference); // answered 5xx each time: it comes again
    if (!got) {
      figures.genuineLost++;
      problem(`${event.kind} ${event.reference} never reached the merchant`);
    }
  }
  if (!surfaceInvalid && invalidReports !== unexpectedAnswered500) {
    figures.genuineLost += Math.abs(unexpectedAnswered500 - invalidReports);
    problem(
      `${unexpectedAnswered500} unexpected deliveries answered 500, ${invalidReports} reported to onError`,
    );
  }
  return figures;
}
