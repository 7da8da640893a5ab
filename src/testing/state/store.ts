/** What the sandbox remembers, bounded: plain data changed only synchronously, so requests never interleave. */
import type { SandboxCustomer } from './customers.js';
import {
  SandboxError,
  type SandboxCharge,
  type SandboxDebit,
  type SandboxDeliveryAttempt,
  type SandboxRefund,
  type SandboxRequestRecord,
} from './records.js';

/** A charge as the state changes it. @internal */
export type Charge = { -readonly [K in keyof SandboxCharge]: SandboxCharge[K] };

/** The last event sent for a charge, which redeliver sends again. @internal */
export type SentEvent = { event: string; data: unknown };

/** True while a charge waits for the customer: its prompt is out and has not run out. @internal */
export function isWaiting(charge: SandboxCharge, now: Date): boolean {
  const pending = charge.status === 'PENDING_AUTHORIZATION' || charge.status === 'PENDING_SCAN';
  return pending && (charge.expiresAt === null || Date.parse(charge.expiresAt) > now.getTime());
}

/** The newest `limit` items pushed, oldest first; older ones are dropped in batches, so a push stays cheap. @internal */
export class History<T> {
  #items: T[] = [];

  constructor(readonly limit: number) {}

  push(item: T): void {
    this.#items.push(item);
    if (this.#items.length >= 2 * this.limit) this.#items.splice(0, this.#items.length - this.limit);
  }

  toArray(): T[] {
    return this.#items.slice(-this.limit);
  }

  clear(): void {
    this.#items = [];
  }
}

/** The sandbox's memory. Everything a request can change lives here. @internal */
export class SandboxState {
  readonly customers: Map<string, SandboxCustomer> = new Map();
  /** In the order they were registered: the first is the oldest. */
  readonly charges: Map<string, Charge> = new Map();
  readonly refunds: History<SandboxRefund>;
  readonly debits: History<SandboxDebit>;
  readonly deliveries: History<SandboxDeliveryAttempt>;
  readonly requests: History<SandboxRequestRecord>;
  /** The id in a QR page's URL → the reference of the charge it pays. */
  readonly qrCodes: Map<string, string> = new Map();
  readonly sentEvents: Map<string, SentEvent> = new Map();
  /** Saved answers by hashed API key and idempotency key, oldest first: `limits.answers` of them. */
  readonly answers: Map<string, { fingerprint: string; response: { status: number; body: string } }> =
    new Map();
  allowedIps: ReadonlySet<string> | undefined;
  /** Told the references of charges forgotten to stay within `maxCharges`, oldest first. */
  onForget: ((references: readonly string[]) => void) | undefined;

  constructor(readonly limits: { history: number; maxCharges: number; answers: number }) {
    this.refunds = new History(limits.maxCharges);
    this.debits = new History(limits.maxCharges);
    this.deliveries = new History(limits.history);
    this.requests = new History(limits.history);
  }

  /** Keeps a new charge; when full, forgets a hundredth of `maxCharges` at once, or 503 if all wait. */
  admit(charge: Charge, now: Date): void {
    const { maxCharges } = this.limits;
    if (this.charges.size >= maxCharges)
      this.#forget(maxCharges - Math.max(1, Math.floor(maxCharges / 100)), now);
    if (this.charges.size >= maxCharges)
      throw new SandboxError(
        503,
        `The sandbox is full: it keeps ${maxCharges} charges (maxCharges) and every one is waiting for its customer. Authorize, decline or expire some, or raise maxCharges.`,
      );
    this.charges.set(charge.reference, charge);
  }

  /** Makes room for `count` new charges at once, or answers 503 forgetting nothing. */
  makeRoomFor(count: number, now: Date): void {
    const { maxCharges } = this.limits;
    const excess = this.charges.size + count - maxCharges;
    if (excess <= 0) return;
    let waiting = 0;
    for (const charge of this.charges.values()) if (isWaiting(charge, now)) waiting += 1;
    if (waiting + count > maxCharges)
      throw new SandboxError(
        503,
        `No room for ${count} charges: the sandbox keeps ${maxCharges} (maxCharges) and ${waiting} are waiting for their customer.`,
      );
    this.#forget(this.charges.size - excess, now);
  }

  // Forgets the oldest finished charges until `target` are left.
  #forget(target: number, now: Date): void {
    const forgotten: string[] = [];
    for (const [reference, charge] of this.charges) {
      if (this.charges.size <= target) break;
      if (isWaiting(charge, now)) continue;
      this.charges.delete(reference);
      this.sentEvents.delete(reference);
      if (charge.qrCodeUrl !== null) this.qrCodes.delete(charge.qrCodeUrl.slice(-32));
      forgotten.push(reference);
    }
    if (forgotten.length > 0) this.onForget?.(forgotten);
  }

  /** Forgets everything that happened; the caller sets customers and the allow list again. */
  clear(): void {
    for (const kept of [this.customers, this.charges, this.qrCodes, this.sentEvents, this.answers])
      kept.clear();
    for (const kept of [this.refunds, this.debits, this.deliveries, this.requests]) kept.clear();
  }
}

/** A deep, frozen copy: a test can keep it while the sandbox goes on changing. @internal */
export function snapshot<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  for (const item of Object.values(value)) deepFreeze(item);
  return Object.freeze(value);
}
