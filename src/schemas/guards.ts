/**
 * The schemas' guards, generated from the zod schemas by `scripts/emit-guards.mjs` (`npm run
 * guards`): each accepts a value exactly where its schema would and gives zod's output, or answers
 * {@link FAIL} at the first doubt, for zod to parse and word. They run without zod, so the first
 * call of a client loads no schema library; zod loads only to word a refusal.
 */
import type { Guard } from './guard.js';
import { answerGuards } from './guards-answers.generated.js';
import { paramGuards } from './guards-params.generated.js';

export { FAIL, type Guard } from './guard.js';

/** The guard of each schema of `./index.ts`, by the schema's name. */
export const guards: Readonly<Record<keyof typeof paramGuards | keyof typeof answerGuards, Guard>> = {
  ...paramGuards,
  ...answerGuards,
};
