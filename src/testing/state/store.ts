/**
 * What the sandbox remembers. The state is plain data changed only by synchronous functions, so no
 * two requests ever interleave inside one state change: that is what makes idempotent replay exact
 * without locks. Everything it keeps is bounded: charges by `maxCharges` (the oldest finished ones
 * are forgotten first, never one still waiting for the customer), the logs by `historyLimit`.
 */
import type { SandboxCustomer } from './customers.js';
import { SandboxError } from './errors.js';
import { History } from './history.js';
import type {
  SandboxCharge,
  SandboxDebit,
  SandboxDeliveryAttempt,
  SandboxRefund,
  SandboxRequestRecord,
} from './records.js';

/** A charge as the state changes it. @internal */
export type Charge = { -readonly [K in keyof SandboxCharge]: SandboxCharge[K] };

/** The last event sent for a charge, which the redeliver control sends again. @internal */
export interface SentEvent {
  event: string;
  data: unknown;
}

/** How much the sandbox keeps. @internal */
export interface StateLimits {
  /** Requests and delivery attempts kept, each. */
  history: number;
  /** Charges kept (and refunds and debits, each); past it the oldest finished charges go. */
  maxCharges: number;
}

/** True while a charge waits for the customer: its prompt is out and has not run out. @internal */
export function isWaiting(charge: SandboxCharge, now: Date): boolean {
  const pending = charge.status === 'PENDING_AUTHORIZATION' || charge.status === 'PENDING_SCAN';
  return pending && (charge.expiresAt === null || Date.parse(charge.expiresAt) > now.getTime());
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
  readonly limits: StateLimits;
  allowedIps: ReadonlySet<string> | undefined;
  /** Told the references of charges forgotten to stay within `maxCharges`, oldest first. */
  onForget: ((references: readonly string[]) => void) | undefined;

  constructor(limits: StateLimits) {
    this.limits = limits;
    this.refunds = new History(limits.maxCharges);
    this.debits = new History(limits.maxCharges);
    this.deliveries = new History(limits.history);
    this.requests = new History(limits.history);
  }

  /**
   * Keeps a new charge, first making room if the sandbox is full. Room is made a hundredth of
   * `maxCharges` at a time, so a full sandbox does not scan its oldest charges on every resolve.
   * Throws a 503 {@link SandboxError} (and keeps nothing) when every charge kept is still waiting
   * for its customer.
   */
  admit(charge: Charge, now: Date): void {
    const { maxCharges } = this.limits;
    if (this.charges.size >= maxCharges) {
      const forgotten = this.#makeRoom(maxCharges - Math.max(1, Math.floor(maxCharges / 100)), now);
      if (forgotten.length > 0) this.onForget?.(forgotten);
      if (this.charges.size >= maxCharges) {
        throw new SandboxError(
          503,
          `The sandbox is full: it keeps ${maxCharges} charges (maxCharges) and every one is waiting for its customer. Authorize, decline or expire some, or raise maxCharges.`,
        );
      }
    }
    this.charges.set(charge.reference, charge);
  }

  /**
   * Makes room for `count` new charges at once, forgetting exactly as many of the oldest finished
   * ones as needed; throws a 503 {@link SandboxError}, forgetting nothing, when the charges still
   * waiting for their customer leave too little room.
   */
  makeRoomFor(count: number, now: Date): void {
    const { maxCharges } = this.limits;
    const excess = this.charges.size + count - maxCharges;
    if (excess <= 0) return;
    let waiting = 0;
    for (const charge of this.charges.values()) if (isWaiting(charge, now)) waiting += 1;
    if (waiting + count > maxCharges) {
      throw new SandboxError(
        503,
        `No room for ${count} charges: the sandbox keeps ${maxCharges} (maxCharges) and ${waiting} are waiting for their customer.`,
      );
    }
    const forgotten = this.#makeRoom(this.charges.size - excess, now);
    if (forgotten.length > 0) this.onForget?.(forgotten);
  }

  #makeRoom(target: number, now: Date): string[] {
    const forgotten: string[] = [];
    for (const [reference, charge] of this.charges) {
      if (this.charges.size <= target) break;
      if (isWaiting(charge, now)) continue;
      this.charges.delete(reference);
      this.sentEvents.delete(reference);
      if (charge.qrCodeUrl !== null) this.qrCodes.delete(charge.qrCodeUrl.slice(-32));
      forgotten.push(reference);
    }
    return forgotten;
  }

  /** Forgets everything that happened; customers and the allow list are set again by the caller. */
  clear(): void {
    this.customers.clear();
    this.charges.clear();
    this.refunds.clear();
    this.debits.clear();
    this.deliveries.clear();
    this.requests.clear();
    this.qrCodes.clear();
    this.sentEvents.clear();
  }
}

/** A deep, frozen copy: a test can keep it and the sandbox can go on changing. @internal */
export function snapshot<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
