/**
 * Fault injection, so merchants can prove their own retry paths: a seeded share of API requests is
 * answered with a 5xx, or the connection is reset before or after the sandbox acted, and every
 * request can be delayed. The same seed gives the same faults in the same order of requests.
 */
import type { Rule } from '../options.js';
import { list, object, range } from '../options.js';
import { wholeNumber } from '../../core/options.js';

/**
 * How a faulty request fails. `error`: a 5xx answer, and the sandbox did not act. `reset`: the
 * connection drops before the sandbox acts. `reset-after`: the sandbox acts (a charge is dispatched,
 * a refund made), then the connection drops: the outcome the merchant cannot see, which retrying
 * with the same idempotency key resolves.
 */
export type SandboxFaultKind = 'error' | 'reset' | 'reset-after';

/** Options of fault injection (`createSandbox({ faults })`). Control routes are never faulted. */
export interface SandboxFaults {
  /**
   * Share of API requests that fail, from 0 to 1.
   * @default 0
   */
  failRate?: number;
  /**
   * How failing requests fail; each picks one of these at random.
   * @default ['error', 'reset', 'reset-after']
   */
  kinds?: readonly SandboxFaultKind[];
  /**
   * Delay before every API answer, ms: a number, or `[min, max]` for a random delay in that range.
   * @default 0
   */
  latency?: number | readonly [number, number];
  /**
   * Seed of the random choices; the same seed gives the same faults for the same sequence of requests.
   * @default 1
   */
  seed?: number;
}

/** What happens to one request. @internal */
export interface Fault {
  delayMs: number;
  kind: SandboxFaultKind | null;
  /** The 5xx status of an `error` fault. */
  status: number;
}

const KINDS: readonly SandboxFaultKind[] = ['error', 'reset', 'reset-after'];
const STATUSES = [500, 502, 503] as const;
const MAX_LATENCY_MS = 120_000;

const kind: Rule = (value) =>
  KINDS.includes(value as SandboxFaultKind) ? undefined : `must be one of ${KINDS.join(', ')}`;

const latencyMs = range(0, MAX_LATENCY_MS);

const latency: Rule = (value, path) => {
  if (!Array.isArray(value)) return latencyMs(value, path);
  const [min, max] = value as unknown[];
  const bad = (bound: unknown): boolean => latencyMs(bound, path) !== undefined;
  if (value.length !== 2 || bad(min) || bad(max)) {
    return `must be ms from 0 to ${MAX_LATENCY_MS}, or [min, max] of them`;
  }
  return (min as number) <= (max as number) ? undefined : 'must be [min, max] with min <= max';
};

/** The rule for the `faults` option. @internal */
export const faultsRule: Rule = object({
  failRate: range(0, 1),
  kinds: list(kind, KINDS.length * 4),
  latency,
  seed: wholeNumber(0, 2 ** 32 - 1),
});

/**
 * mulberry32: small, fast, and the same sequence from the same seed on every runtime. Exported for
 * the tests' seeded forgeries and fault campaigns. @internal
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Draws each request's fault from the options; `undefined` options draw no faults. @internal */
export function faultSource(options: SandboxFaults | undefined): (() => Fault) | undefined {
  if (options === undefined) return undefined;
  const next = mulberry32(options.seed ?? 1);
  const rate = options.failRate ?? 0;
  const kinds = options.kinds !== undefined && options.kinds.length > 0 ? options.kinds : KINDS;
  const [min, max] =
    typeof options.latency === 'number' ? [options.latency, options.latency] : (options.latency ?? [0, 0]);
  return () => {
    // Always three draws, so a request's fault does not depend on what earlier requests drew.
    const [failDraw, kindDraw, delayDraw] = [next(), next(), next()];
    const failing = failDraw < rate;
    return {
      delayMs: Math.round(min + (max - min) * delayDraw),
      kind: failing ? (kinds[Math.floor(kindDraw * kinds.length)] ?? 'error') : null,
      status: STATUSES[Math.floor(kindDraw * 997) % STATUSES.length] ?? 500,
    };
  };
}
