/**
 * Confirmation tokens: bound by an HMAC to the tool and its exact arguments, expiring, good once
 * (the ledger remembers). The token is its call's idempotency key, so a repeat moves money once.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Sorted keys, no undefined: the same arguments always give the same bytes. @internal */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Why a token was refused, in words a model can act on. */
export type TokenProblem = 'malformed' | 'mismatch' | 'expired';

/** Issues and checks tokens with one secret. @internal */
export interface Confirmer {
  issue(tool: string, args: Record<string, unknown>): { token: string; expiresAt: number };
  check(tool: string, args: Record<string, unknown>, token: string): TokenProblem | undefined;
  readonly ttlMs: number;
}

const TOKEN = /^wct_([0-9a-z]{1,11})_([0-9A-Za-z_-]{16})_([0-9A-Za-z_-]{32})$/;

/** A confirmer with `secret` (by default random: only this process confirms its previews). @internal */
export function createConfirmer(options: {
  secret: string | Uint8Array | undefined;
  ttlMs: number | undefined;
  now: () => number;
}): Confirmer {
  const secret = options.secret ?? randomBytes(32);
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const mac = (tool: string, args: Record<string, unknown>, expires: string, nonce: string): string =>
    createHmac('sha256', secret)
      .update(`wallet-agent-toolkit/confirm\n${tool}\n${expires}\n${nonce}\n${canonical(args)}`)
      .digest('base64url')
      .slice(0, 32);
  return {
    ttlMs,
    issue(tool, args) {
      const expiresAt = options.now() + ttlMs;
      const expires = expiresAt.toString(36);
      const nonce = randomBytes(12).toString('base64url');
      return { token: `wct_${expires}_${nonce}_${mac(tool, args, expires, nonce)}`, expiresAt };
    },
    check(tool, args, token) {
      const match = TOKEN.exec(token);
      if (match === null) return 'malformed';
      const [, expires = '', nonce = '', given = ''] = match;
      const expected = mac(tool, args, expires, nonce);
      if (!timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return 'mismatch';
      return parseInt(expires, 36) <= options.now() ? 'expired' : undefined;
    },
  };
}

/** The message a refused token gets. @internal */
export function tokenProblemText(problem: TokenProblem | 'used' | 'repeated', tool: string): string {
  const again = `Call ${tool} without confirmationToken for a new preview, and confirm with the user again.`;
  const why = {
    malformed: `is not one this tool issued. ${again}`,
    mismatch: `was issued for other arguments (or by another server): a token confirms exactly the call it previewed. ${again}`,
    expired: `has expired. ${again}`,
    repeated: `confirmed a repeat of an earlier call whose outcome was unknown, and that outcome is known now (get_charge shows it): sending it would be a new operation, not the repeat the user approved. Only if the user wants another, separate operation: ${again.toLowerCase()}`,
    used: `was already used: it confirmed one operation already, and each token works once, so a repeated call cannot move money twice. Check the result with get_charge (it lists the refunds this toolkit journaled). Only if the user wants another, separate operation: ${again.toLowerCase()}`,
  };
  return `Refused: nothing was sent. The confirmationToken ${why[problem]}`;
}
