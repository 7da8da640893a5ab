/**
 * The schemas' guards, generated from the zod schemas by `scripts/emit-guards.mjs` (`npm run
 * guards`): each accepts a value exactly where its schema would and gives zod's output, or answers
 * {@link FAIL} at the first doubt, for zod to parse and word. They run without zod, so the first
 * call of a client loads no schema library; zod loads only to word a refusal.
 *
 * Kept in 0.4 (issue 26) because they pay: loading the schemas file (zod/mini) costs 6.1 ms of CPU
 * in CommonJS and 7.5 ms in ESM (median of 7 fresh processes, `dist/schemas.*`, an empty import
 * subtracted), 14 to 17% of a first call that now costs about 44 ms, which would take the first
 * call from 0.94x / 0.81x of a bare fetch (ESM / CommonJS) past the 1.0x limit in ESM.
 */
import { FAIL, type Guard } from './rules.js';
import { answerGuards } from './guards-answers.generated.js';
import { paramGuards } from './guards-params.generated.js';

export { FAIL, type Guard } from './rules.js';

/** The guard of each schema of `./index.ts`, by the schema's name. */
export const guards: Readonly<Record<keyof typeof paramGuards | keyof typeof answerGuards, Guard>> = {
  ...paramGuards,
  ...answerGuards,
};

/** A schema of `./index.ts` by name; each has a guard. */
export type SchemaName = keyof typeof guards;

/**
 * A guard's answer, or FAIL when there is no guard or it throws (a getter or Proxy in a value that
 * is not plain data): zod then parses, words and refuses it.
 */
export function runGuard(guard: Guard | undefined, value: unknown): unknown {
  if (guard === undefined) return FAIL;
  try {
    return guard(value);
  } catch {
    return FAIL;
  }
}
