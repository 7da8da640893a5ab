/** Fault injection, so merchants can prove their retry paths: the same seed, the same faults. */
import type { SandboxFaultKind } from '../state/records.js';

/** Options of fault injection (`createSandbox({ faults })`). Control routes are never faulted. */
export interface SandboxFaults {
  /** Share of API requests that fail, from 0 to 1. @default 0 */
  failRate?: number;
  /**
   * How failing requests fail, one picked at random (list one twice: twice as likely); `'rate-limit'`
   * only when listed. @default ['error', 'reset', 'reset-after']
   */
  kinds?: readonly SandboxFaultKind[];
  /** The `Retry-After` of a `'rate-limit'` fault, whole seconds, or `[min, max]` for a random one. @default 1 */
  retryAfter?: number | readonly [number, number];
  /** Delay before every API answer, ms: a number, or `[min, max]` for a random one. @default 0 */
  latency?: number | readonly [number, number];
  /** Seed of the random choices: the same seed, the same faults for the same requests. @default 1 */
  seed?: number;
}

/** What happens to one request: its delay, and the 5xx of an `error`, the seconds of a `rate-limit`. @internal */
export type Fault = { delayMs: number; kind: SandboxFaultKind | null; status: number; retryAfter: number };

/** Every kind of fault, and the bounds of injected delays (ms) and `Retry-After` (s). @internal */
export const KINDS: readonly SandboxFaultKind[] = ['error', 'reset', 'reset-after', 'rate-limit'];
const DEFAULT_KINDS: readonly SandboxFaultKind[] = ['error', 'reset', 'reset-after'];
const STATUSES = [500, 502, 503] as const;
export const MAX_LATENCY_MS = 120_000;
export const MAX_RETRY_AFTER_S = 3600;

/** mulberry32: the same sequence from the same seed on every runtime (the tests use it too). @internal */
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
  const kinds = options.kinds !== undefined && options.kinds.length > 0 ? options.kinds : DEFAULT_KINDS;
  const [min = 0, max = min] = [options.latency ?? 0].flat();
  const [waitMin = 1, waitMax = waitMin] = [options.retryAfter ?? 1].flat();
  return () => {
    // Always three draws, so a request's fault does not depend on what earlier requests drew.
    const [failDraw, kindDraw, delayDraw] = [next(), next(), next()];
    return {
      delayMs: Math.round(min + (max - min) * delayDraw),
      kind: failDraw < rate ? (kinds[Math.floor(kindDraw * kinds.length)] ?? 'error') : null,
      status: STATUSES[Math.floor(kindDraw * 997) % STATUSES.length] ?? 500,
      // From the kind's draw too, so earlier seeds keep their sequences.
      retryAfter: waitMin + (Math.floor(kindDraw * 7919) % (waitMax - waitMin + 1)),
    };
  };
}
