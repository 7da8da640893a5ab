/**
 * The merchant's own event data for `wallet webhooks trigger`: `--data FILE` (a JSON object, the
 * event's `data`) and `--override path=value` (repeatable, applied in order): a dotted path into
 * `data` (`amount`, `customer.handle`, `metadata.orderId`) and a value read as JSON when it is
 * JSON (`250000`, `true`, `"17"`, `{"a":1}`), else as the text given (`order_1041`, `@bola`).
 */
import { readFile } from 'node:fs/promises';

import { UsageError } from '../output.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Path parts that would reach an object's prototype instead of its own fields. */
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** The `data` object of `--data FILE`. */
export async function readData(file: string): Promise<Json> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--data ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--data ${file} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value))
    throw new UsageError(`--data ${file} must hold a JSON object: the event's data ({"reference": …}).`);
  return value;
}

function valueOf(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** `data` with one `path=value` set (a copy: the input is not changed). */
export function applyOverride(data: Json, override: string): Json {
  const eq = override.indexOf('=');
  const path = eq < 0 ? [] : override.slice(0, eq).split('.');
  if (eq <= 0 || path.some((p) => p === ''))
    throw new UsageError(
      `--override '${override}' is not path=value (for example amount=250000 or customer.handle=@bola).`,
    );
  const bad = path.find((p) => FORBIDDEN.has(p));
  if (bad !== undefined) throw new UsageError(`--override '${override}': '${bad}' cannot be a field name.`);
  const copy = structuredClone(data);
  let at: Json = copy;
  for (const part of path.slice(0, -1)) {
    const next = Object.hasOwn(at, part) ? at[part] : undefined;
    if (next !== undefined && !isObject(next))
      throw new UsageError(`--override '${override}': '${part}' is not an object in the data.`);
    if (next === undefined) at[part] = {};
    at = at[part] as Json;
  }
  at[path.at(-1)!] = valueOf(override.slice(eq + 1));
  return copy;
}
