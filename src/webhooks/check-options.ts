/**
 * Checks for the options objects of this entry (handlers and dedupe stores): every problem is
 * collected and thrown once as a `ValidationError`, with "did you mean" for a misspelled name. Kept
 * here rather than on zod, which this entry must not load.
 */
import { ValidationError, type ValidationIssue } from '../errors/validation.js';
import { closest, describe } from '../schemas/describe.js';

/** The longest delay a timer can hold, in ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * The candidate that starts like `name` for at least half of it, for renamed words that edit
 * distance misses (`maxBodySize` for `maxBodyBytes`).
 */
function sharedStem(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestLength = Math.max(4, Math.ceil(name.length / 2)) - 1;
  for (const candidate of candidates) {
    let n = 0;
    while (n < name.length && name[n]?.toLowerCase() === candidate[n]?.toLowerCase()) n++;
    if (n > bestLength) [best, bestLength] = [candidate, n];
  }
  return best;
}

/** Collects the problems of one options object, then throws them all at once. */
export class OptionIssues {
  readonly #context: string;
  readonly #issues: ValidationIssue[] = [];

  /** @param context - what is being checked, for example `createWebhookHandler options`. */
  constructor(context: string) {
    this.#context = context;
  }

  /** Records a problem with `path`. */
  add(path: string, message: string): void {
    this.#issues.push({ path, message });
  }

  /** Throws the problems found, if any. */
  throwIfAny(): void {
    if (this.#issues.length > 0) throw new ValidationError(this.#context, this.#issues);
  }

  /**
   * The options as a plain record. `undefined` is allowed when `optional`; anything else that is not
   * an object is thrown at once, since nothing further can be checked.
   */
  object(value: unknown, optional: boolean): Record<string, unknown> {
    if (value === undefined && optional) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ValidationError(this.#context, [
        { path: '', message: `must be an object, got ${describe(value)}` },
      ]);
    }
    return value as Record<string, unknown>;
  }

  /** Records every own key of `options` that is not in `known`, naming the likely intended one. */
  knownKeys(options: Record<string, unknown>, known: readonly string[]): void {
    for (const key of Object.keys(options)) {
      if (known.includes(key)) continue;
      const guess = closest(key, known) ?? sharedStem(key, known);
      this.add(key, `is not an option${guess ? ` (did you mean '${guess}'?)` : ''}`);
    }
  }

  /** A whole number from 1 to `max`, or `fallback` when undefined; records a problem otherwise. */
  positiveInteger(options: Record<string, unknown>, name: string, fallback: number, max: number): number {
    const value = options[name] ?? fallback;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= max) return value;
    this.add(name, `must be a whole number from 1 to ${max}, got ${describe(value)}`);
    return fallback;
  }
}
