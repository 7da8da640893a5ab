/**
 * What a generated guard answers (`./guards-params.generated.ts`, `./guards-answers.generated.ts`):
 * the value as zod would give it, or {@link FAIL}, which hands the value to zod to parse and word.
 * Its own file so the generated files and `./guards.ts`, which joins them, import it without a
 * cycle.
 */

/** The answer that sends a value to zod. */
export const FAIL: unique symbol = Symbol('fail');

/** A schema's guard: its output for a value zod accepts, or {@link FAIL}. */
export type Guard = (value: unknown) => unknown;
