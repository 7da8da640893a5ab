import type http from 'node:http';
import { json, loopback } from './loopback.js';

/** A charge as the spec-faithful server holds it. */
export interface SpecCharge {
  reference: string;
  amount: number;
  status: 'PENDING_AUTHORIZATION' | 'PENDING_SCAN' | 'SUCCESS';
  channel: 'wallet_push' | 'wallet_qr';
  refunded: number;
}

/** A refund the server carried out: what a merchant's customer actually receives. */
export interface CarriedOut {
  refundReference: string;
  reference: string;
  amount: number;
  key: string | undefined;
}

interface Saved {
  status: number;
  body: unknown;
}

const envelope = (data: unknown, message = 'OK') => ({ status: 'success', message, data });
const refusal = (message: string) => ({ status: 'error', message });

/**
 * A loopback service that behaves as the interface spec says, where the sandbox may be kinder: a
 * POST repeated with the same `X-Idempotency-Key` gets the saved original response, whatever its
 * new parameters ("the service returns the saved original response"). It also counts what it
 * really did, so a test can tell a refund carried out from one merely reported.
 *
 * `loseAnswer(n)`: the service acts on request n, then the connection drops before the answer
 * (a crash of the merchant's process at that moment looks the same to the merchant).
 */
export async function specServer() {
  const charges = new Map<string, SpecCharge>();
  const saved = new Map<string, Saved>();
  const refunds: CarriedOut[] = [];
  const lost = new Set<number>();
  let dispatches = 0;

  function act(
    method: string,
    path: string,
    params: Record<string, unknown>,
    key: string | undefined,
  ): Saved {
    if (method === 'GET' && path.startsWith('/v1/charges/verify/')) {
      const charge = charges.get(decodeURIComponent(path.slice('/v1/charges/verify/'.length)));
      if (!charge) return { status: 404, body: refusal('Unknown reference') };
      const { reference, amount, status, channel } = charge;
      const tx = { reference, amount, currency: 'NGN', status, channel };
      return { status: 200, body: { status: 'success', data: { ...tx, customer: { handle: '@ada' } } } };
    }
    if (path === '/v1/charges/resolve-handle') {
      const reference = String(params.reference);
      charges.set(reference, {
        reference,
        amount: Number(params.amount),
        status: 'PENDING_AUTHORIZATION',
        channel: 'wallet_push',
        refunded: 0,
      });
      const customer = {
        handle: `@${String(params.handle).replace(/^@/, '')}`,
        name: 'Ada Obi',
        avatarUrl: 'https://cdn.test/a.png',
      };
      const bank = { bankId: 'bnk_01', bankName: 'Zenith Bank', bankCode: '057' };
      const linkedBanks = [{ ...bank, accountNumberMasked: '******1234', mandateStatus: 'ACTIVE' }];
      return { status: 200, body: envelope({ customer, availableAuthChannels: [], linkedBanks }) };
    }
    if (path === '/v1/charges/dispatch') {
      const charge = charges.get(String(params.reference));
      if (!charge) return { status: 404, body: refusal('Unknown reference') };
      dispatches++;
      charge.channel = params.authChannel === 'wallet_qr' ? 'wallet_qr' : 'wallet_push';
      charge.status = charge.channel === 'wallet_qr' ? 'PENDING_SCAN' : 'PENDING_AUTHORIZATION';
      const qr = charge.channel === 'wallet_qr' ? { qrCodeUrl: `https://qr.test/${charge.reference}` } : {};
      const data = { reference: charge.reference, status: charge.status, authChannel: charge.channel, ...qr };
      return { status: 200, body: envelope({ ...data, expiresAt: '2026-11-24T23:00:00.000Z' }) };
    }
    if (path === '/v1/refunds') {
      const charge = charges.get(String(params.reference));
      if (!charge || charge.status !== 'SUCCESS') return { status: 422, body: refusal('Not refundable') };
      const amount = params.amount === undefined ? charge.amount - charge.refunded : Number(params.amount);
      if (amount <= 0 || charge.refunded + amount > charge.amount)
        return { status: 422, body: refusal('Refund exceeds what is left') };
      charge.refunded += amount;
      const refundReference = `rfd_${refunds.length + 1}`;
      refunds.push({ refundReference, reference: charge.reference, amount, key });
      const data = {
        refundReference,
        amount,
        currency: 'NGN',
        status: 'PROCESSED',
        refundedAt: '2026-11-24T22:00:00.000Z',
      };
      return { status: 200, body: envelope(data, 'Refund processed') };
    }
    return { status: 404, body: refusal('No such endpoint') };
  }

  const server = await loopback(
    (req: http.IncomingMessage, res: http.ServerResponse, n: number, body: string) => {
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0]!;
      const key = req.headers['x-idempotency-key'] as string | undefined;
      let answer: Saved;
      const replay = method === 'POST' && key !== undefined ? saved.get(key) : undefined;
      if (replay) answer = replay;
      else {
        answer = act(
          method,
          path,
          method === 'POST' ? (JSON.parse(body) as Record<string, unknown>) : {},
          key,
        );
        if (method === 'POST' && key !== undefined) saved.set(key, answer);
      }
      if (lost.delete(n)) req.socket.destroy();
      else json(res, answer.status, answer.body);
    },
  );

  return {
    ...server,
    charges,
    refunds,
    get dispatches() {
      return dispatches;
    },
    /** A paid charge, ready to refund. */
    paid(reference: string, amount: number) {
      charges.set(reference, { reference, amount, status: 'SUCCESS', channel: 'wallet_push', refunded: 0 });
    },
    /** The service acts on request `n` (1-based, counting every request) but its answer is lost. */
    loseAnswer(n: number) {
      lost.add(n);
    },
  };
}
