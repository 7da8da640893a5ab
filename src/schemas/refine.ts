/**
 * A rule of `./rules.ts` as a zod refinement, remembered by name: the guards' generator
 * (`scripts/emit-guards.mjs`) reads a schema's checks and calls the same rule where zod would run
 * this refinement, so the rule is written once and both judge alike.
 */
import * as z from 'zod/mini';
import * as rules from './rules.js';

/** The name of a rule of `./rules.ts` that refines a value. */
export type RuleName = Exclude<keyof typeof rules, 'anything'>;

/** Which rule each refinement made here runs (read by the guards' generator). */
export const ruleOf: WeakMap<object, RuleName> = new WeakMap();

/** The refinement that runs `rules[name]` and gives zod its issues, worded by the rule. */
export function refine<T>(name: RuleName): z.core.$ZodCheck<T> {
  const rule = rules[name] as (value: T) => rules.RuleResult;
  const check = z.superRefine<T>((value, ctx) => {
    for (const { path, message } of rule(value) ?? [])
      ctx.addIssue({ code: 'custom', path: [...path], message });
  });
  ruleOf.set(check, name);
  return check;
}
