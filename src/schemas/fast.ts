/**
 * The schemas' quick path: each zod/mini schema, read once, becomes a tree of small functions that
 * accept a value exactly as zod would and give the same output (the same checks run: refinements,
 * `int`, `positive` are zod's own check functions), or answer {@link FAIL} at the first doubt. zod
 * then parses the value itself, so every issue and message is still zod's. Per call this is the
 * difference between a payload object and an issue array per field (zod's interpreter) and one
 * function call per field.
 *
 * One difference, on purpose: a loose object (an answer's `data`, which keeps fields the service
 * adds later) that passes is given back as it came, checked in place rather than copied, so its
 * fields keep the order the service sent them in (zod would put the known ones first). Its fields
 * and values are zod's. Strict objects (parameters) are copied in the schema's order, as zod does:
 * the body sent, and the key memory's hash of it, depend on that order.
 *
 * Only the kinds of schema the SDK writes are taken (string, number, boolean, enum, unknown,
 * custom, optional, nullable, array, object: strict, loose or stripping); any other kind, a
 * coercion, a default, an async check or a check that throws sends the value to zod.
 */
import type { ZodMiniType } from 'zod/mini';

/** The answer that sends a value to zod. */
export const FAIL: unique symbol = Symbol('fail');

/** A schema's quick path: the parsed value, or FAIL. */
export type Quick = (value: unknown) => unknown;

// What this file reads of a schema: zod's internals, stable across zod 4.
interface Internals {
  def: {
    type: string;
    coerce?: boolean;
    checks?: readonly Check[];
    innerType?: Schema;
    element?: Schema;
    shape?: Record<string, Schema>;
    catchall?: Schema;
  };
  traits: Set<string>;
  values?: Set<unknown>;
  optin?: string;
  optout?: string;
}
interface Schema {
  _zod: Internals;
}
interface Payload {
  value: unknown;
  issues: unknown[];
}
interface Check {
  _zod: { def: { when?: (payload: Payload) => boolean }; check(payload: Payload): unknown };
}

const compiled = new WeakMap<object, Quick | null>();

/** The quick path of a schema, built on first use; undefined when zod must parse it itself. */
export function quick(schema: ZodMiniType): Quick | undefined {
  let found = compiled.get(schema);
  if (found === undefined) {
    found = build(schema as unknown as Schema) ?? null;
    compiled.set(schema, found);
  }
  return found ?? undefined;
}

function build(schema: Schema): Quick | undefined {
  const z = schema._zod;
  if (z.def.coerce === true) return undefined;
  const base = parser(schema);
  if (base === undefined) return undefined;
  // As zod's run: a schema that is itself a check (`int`, `custom`) runs first, then its checks.
  const checks = [
    ...(z.traits.has('$ZodCheck') ? [schema as unknown as Check] : []),
    ...(z.def.checks ?? []),
  ];
  if (checks.length === 0) return base;
  return (value) => {
    const parsed = base(value);
    if (parsed === FAIL) return FAIL;
    const payload: Payload = { value: parsed, issues: [] };
    for (const check of checks) {
      const when = check._zod.def.when;
      if (when !== undefined && !when(payload)) continue;
      if (check._zod.check(payload) instanceof Promise || payload.issues.length > 0) return FAIL;
    }
    return payload.value;
  };
}

function parser(schema: Schema): Quick | undefined {
  const { def, values } = schema._zod;
  switch (def.type) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : FAIL);
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : FAIL);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : FAIL);
    case 'enum':
      return values === undefined ? undefined : (v) => (values.has(v) ? v : FAIL);
    case 'unknown':
    case 'custom':
      return (v) => v;
    case 'optional': {
      const inner = def.innerType && build(def.innerType);
      if (inner === undefined || def.innerType!._zod.optin === 'defaulted') return undefined;
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case 'nullable': {
      const inner = def.innerType && build(def.innerType);
      return inner === undefined ? undefined : (v) => (v === null ? null : inner(v));
    }
    case 'array': {
      const element = def.element && build(def.element);
      // Size checks change how zod parses an array: those go to zod.
      if (element === undefined || (def.checks?.length ?? 0) > 0) return undefined;
      // As with loose objects, an array whose items all come out as they went in is its own output.
      return (v) => {
        if (!Array.isArray(v)) return FAIL;
        const input = v as unknown[];
        let out: unknown[] | undefined;
        for (let i = 0; i < input.length; i++) {
          const value = input[i];
          const item = element(value);
          if (item === FAIL) return FAIL;
          if (out === undefined && (item !== value || !(i in input))) out = input.slice(0, i);
          if (out !== undefined) out[i] = item;
        }
        return out ?? input;
      };
    }
    case 'object':
      return objectParser(def);
    default:
      return undefined;
  }
}

interface Field {
  key: string;
  parse: Quick;
  // zod's optin / optout: may the key be absent, and may it come out absent.
  optin: string | undefined;
  optional: boolean;
}

function objectParser(def: Internals['def']): Quick | undefined {
  const shape = def.shape;
  if (shape === undefined || Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const keys = Object.keys(shape);
  if (keys.includes('__proto__')) return undefined;
  const fields: Field[] = [];
  for (const key of keys) {
    const parse = build(shape[key]!);
    if (parse === undefined) return undefined;
    const { optin, optout } = shape[key]!._zod;
    fields.push({ key, parse, optin, optional: optout === 'optional' });
  }
  const rest = def.catchall?._zod.def.type;
  if (rest !== undefined && rest !== 'never' && rest !== 'unknown') return undefined;
  const known = new Set(keys);
  const copy = (input: Record<string, unknown>): unknown => {
    const out: Record<string, unknown> = {};
    // As zod's object parse: every field in the shape's order, then the keys it does not know.
    for (const { key, parse, optin, optional } of fields) {
      const result = parse(input[key]);
      const present = key in input;
      if (!present && optional && optin === 'optional') continue;
      if (result === FAIL) {
        if (optin !== undefined && optional && !present) continue;
        return FAIL;
      }
      if (!present && optin === undefined) return FAIL;
      if (result !== undefined || present || (optin === 'defaulted' && !optional)) out[key] = result;
    }
    if (rest === undefined) return out;
    for (const key in input) {
      if (known.has(key)) continue;
      if (rest === 'never') return FAIL;
      if (key !== '__proto__') out[key] = input[key];
    }
    return out;
  };
  if (rest !== 'unknown') {
    return (v) =>
      typeof v !== 'object' || v === null || Array.isArray(v) ? FAIL : copy(v as Record<string, unknown>);
  }
  // A loose object whose every field comes out as it went in is its own output; otherwise (a
  // field's schema gave something else, an own __proto__ key zod drops) it is copied as zod would.
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return FAIL;
    const input = v as Record<string, unknown>;
    for (const { key, parse, optin, optional } of fields) {
      const value = input[key];
      const result = parse(value);
      if (result === value && result !== FAIL && (value !== undefined || (optional && optin === 'optional')))
        continue;
      return copy(input);
    }
    return Object.hasOwn(input, '__proto__') ? copy(input) : input;
  };
}
