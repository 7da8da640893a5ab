// Writes src/schemas/guards-params.generated.ts and guards-answers.generated.ts: each zod schema of src/schemas/ read once and written out
// as a plain function that accepts a value exactly where zod would, giving zod's output, and answers
// FAIL at the first doubt (zod then parses the value and words its issues). The first call loads
// these few functions, not zod. Run after changing a schema (test/schemas-guards.test.ts fails
// while the file is stale):
//   npm run guards          (node --import tsx scripts/emit-guards.mjs)
//
// What it reads of a schema is zod's internals (`_zod.def`, stable across zod 4), and only the kinds
// the SDK writes: string, number (int), boolean, enum, custom (any value), optional, nullable,
// array, and objects, strict (parameters: copied in the shape's order, as zod does) or loose
// (answers: checked in place, given back as they came). Checks: `int`, `positive`/`nonnegative`
// and the rules of src/schemas/rules.ts (their refinements, made by src/schemas/refine.ts). Any
// other kind or check makes that schema's guard answer FAIL always, so zod judges every value.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
// The schemas' own files, not ./index.ts: that one loads the guards this writes.
import * as requests from '../src/schemas/requests.js';
import * as responses from '../src/schemas/responses.js';
import { ruleOf } from '../src/schemas/refine.js';
import { anything } from '../src/schemas/rules.js';

/** The files this writes: each with its schemas, in the order they are written. */
export const FILES = [
  {
    target: fileURLToPath(new URL('../src/schemas/guards-params.generated.ts', import.meta.url)),
    what: 'parameters',
    exported: 'paramGuards',
    names: ['resolveHandleParams', 'dispatchParams', 'verifyParams', 'refundParams'],
  },
  {
    target: fileURLToPath(new URL('../src/schemas/guards-answers.generated.ts', import.meta.url)),
    what: 'answers',
    exported: 'answerGuards',
    names: ['resolvedCustomer', 'chargeDispatch', 'transaction', 'refund'],
  },
];

const schemas = { ...requests, ...responses };

class Unsupported extends Error {}

/** One guard's code: statements over `const` locals, ending in `return <output>`. */
class Writer {
  lines = [];
  rules = new Set();
  // A value's local of a narrower type (an object's `Record<string, unknown>`), for rule calls.
  typed = new Map();
  n = 0;
  local(prefix) {
    return `${prefix}${this.n++}`;
  }
  line(text) {
    this.lines.push(text);
  }
  rule(name, value) {
    this.rules.add(name);
    this.line(`if (${name}(${this.typed.get(value) ?? value}) !== undefined) return FAIL;`);
  }
}

const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);

// A check zod runs on the parsed value, as a condition that fails the guard (or a rule call).
function check(w, ch, value) {
  const def = ch._zod.def;
  if (def.check === 'number_format' && def.format === 'safeint')
    w.line(`if (!Number.isSafeInteger(${value})) return FAIL;`);
  else if ((def.check === 'greater_than' || def.check === 'less_than') && typeof def.value === 'number') {
    const op = `${def.check === 'greater_than' ? '>' : '<'}${def.inclusive ? '=' : ''}`;
    w.line(`if (!(${value} ${op} ${def.value})) return FAIL;`);
  } else if (def.check === 'custom' && def.type === 'custom' && def.fn === anything) {
    // z.custom(anything): every value passes its own check.
  } else if (def.check === 'custom' && ruleOf.has(ch)) w.rule(ruleOf.get(ch), value);
  else throw new Unsupported(`check ${def.check ?? def.type}`);
}

/**
 * Writes the statements that judge `value` (a local) by `schema`, and answers the expression of
 * zod's output for it: `value` itself when zod gives back what it was given.
 */
function judge(w, schema, value) {
  const z = schema._zod;
  const def = z.def;
  if (def.coerce) throw new Unsupported('coercion');
  const out = base(w, schema, value);
  // As zod runs them: a schema that is itself a check (`int`, `custom`) first, then its checks.
  if (z.traits.has('$ZodCheck')) check(w, schema, out);
  for (const ch of def.checks ?? []) check(w, ch, out);
  return out;
}

function same(w, schema, value) {
  if (judge(w, schema, value) !== value) throw new Unsupported('a copy inside a value checked in place');
}

function base(w, schema, value) {
  const { def, values } = schema._zod;
  switch (def.type) {
    case 'string':
    case 'boolean':
      w.line(`if (typeof ${value} !== '${def.type}') return FAIL;`);
      return value;
    case 'number':
      w.line(`if (typeof ${value} !== 'number' || !Number.isFinite(${value})) return FAIL;`);
      return value;
    case 'enum': {
      const list = [...(values ?? [])];
      if (list.length === 0 || list.some((v) => typeof v !== 'string')) throw new Unsupported('enum');
      w.line(`if (${list.map((v) => `${value} !== ${JSON.stringify(v)}`).join(' && ')}) return FAIL;`);
      return value;
    }
    case 'custom':
      return value;
    case 'optional':
    case 'nullable': {
      if (def.innerType._zod.optin === 'defaulted') throw new Unsupported('default');
      w.line(`if (${value} !== ${def.type === 'optional' ? 'undefined' : 'null'}) {`);
      same(w, def.innerType, value);
      w.line('}');
      return value;
    }
    case 'array': {
      // Size checks change how zod parses an array; holes zod would fill: both left to zod.
      if ((def.checks?.length ?? 0) > 0) throw new Unsupported('array checks');
      const list = w.local('list');
      const i = w.local('i');
      const item = w.local('item');
      w.line(`if (!Array.isArray(${value})) return FAIL;`);
      w.line(`const ${list}: unknown[] = ${value};`);
      w.line(`for (let ${i} = 0; ${i} < ${list}.length; ${i}++) {`);
      w.line(`if (!(${i} in ${list})) return FAIL;`);
      w.line(`const ${item} = ${list}[${i}];`);
      same(w, def.element, item);
      w.line('}');
      return value;
    }
    case 'object':
      return object(w, def, value);
    default:
      throw new Unsupported(def.type);
  }
}

function object(w, def, value) {
  const rest = def.catchall?._zod.def.type;
  if (rest !== 'never' && rest !== 'unknown') throw new Unsupported(`object with catchall ${rest}`);
  const keys = Object.keys(def.shape);
  if (keys.includes('__proto__') || Object.getOwnPropertySymbols(def.shape).length > 0)
    throw new Unsupported('object keys');
  const obj = w.local('obj');
  w.line(`if (typeof ${value} !== 'object' || ${value} === null || Array.isArray(${value})) return FAIL;`);
  w.line(`const ${obj} = ${value} as Record<string, unknown>;`);
  w.typed.set(value, obj);
  const fields = keys.map((name) => {
    const field = def.shape[name];
    const { optin, optout } = field._zod;
    // Absent or undefined, an optional field is zod's `undefined`, kept only when its key is there.
    const optional = optin === 'optional' && optout === 'optional';
    const local = w.local('field');
    w.line(`const ${local} = ${obj}${key(name)};`);
    if (!optional) w.line(`if (${local} === undefined) return FAIL;`);
    if (rest === 'unknown') same(w, field, local);
    else if (judge(w, field, local) !== local) throw new Unsupported('a copied field');
    return { name, local, optional };
  });
  if (rest === 'unknown') {
    // An own __proto__ key (JSON.parse makes one) zod would drop from its copy: zod's to parse.
    w.line(`if (Object.hasOwn(${obj}, '__proto__')) return FAIL;`);
    return value;
  }
  // Strict: no key zod does not know; the output is a copy in the shape's order, as zod's.
  const k = w.local('key');
  w.line(`for (const ${k} in ${obj}) {`);
  w.line(`if (${keys.map((name) => `${k} !== ${JSON.stringify(name)}`).join(' && ')}) return FAIL;`);
  w.line('}');
  const out = w.local('out');
  const head = [];
  for (const field of fields) {
    if (field.optional) break;
    head.push(field);
  }
  w.line(
    `const ${out}: Record<string, unknown> = { ${head.map((f) => `${JSON.stringify(f.name)}: ${f.local}`).join(', ')} };`,
  );
  for (const field of fields.slice(head.length)) {
    const set = `${out}${key(field.name)} = ${field.local};`;
    w.line(field.optional ? `if (${JSON.stringify(field.name)} in ${obj}) ${set}` : set);
  }
  return out;
}

/** The source of one guard, or of a guard that always answers FAIL (and why). */
function guard(name) {
  const w = new Writer();
  try {
    const out = judge(w, schemas[name], 'value');
    w.line(`return ${out};`);
    return { name, body: w.lines.join('\n'), rules: w.rules };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    console.warn(`emit-guards: ${name} is left to zod (${error.message})`);
    return { name, body: `// Left to zod: ${error.message}.\nreturn FAIL;`, rules: new Set() };
  }
}

/** One generated file's source, formatted as the repository formats TypeScript. */
async function emitFile({ target, what, exported, names }) {
  const guards = names.map(guard);
  const rules = [...new Set(guards.flatMap((g) => [...g.rules]))].sort();
  const source = `// Generated by scripts/emit-guards.mjs from the zod schemas of this folder: do not edit.
// \`npm run guards\` writes it again; test/schemas-guards.test.ts fails while it is stale.
/**
 * The guards of the ${what}' schemas: each accepts a value exactly where its zod schema would and
 * gives zod's output (parameters copied in the shape's order; answers checked in place and given
 * back as they came), or answers {@link FAIL} at the first doubt, for zod to parse and word.
 */
import { ${['FAIL', 'type Guard', ...rules].join(', ')} } from './rules.js';

${guards.map((g) => `function ${g.name}(value: unknown): unknown {\n${g.body}\n}`).join('\n\n')}

/** The guard of each of these schemas of \`./index.ts\`, by the schema's name. */
export const ${exported}: { ${names.map((n) => `readonly ${n}: Guard`).join('; ')} } = {
  ${names.join(', ')},
};
`;
  const config = await prettier.resolveConfig(target);
  return prettier.format(source, { ...config, filepath: target });
}

/** Every generated file: its path and the source the schemas give today. */
export async function emitGuards() {
  return Promise.all(FILES.map(async (file) => ({ target: file.target, source: await emitFile(file) })));
}

/** Are the checked-in files what the schemas give today? */
export async function isCurrent() {
  const files = await emitGuards();
  for (const { target, source } of files) if ((await readFile(target, 'utf8')) !== source) return false;
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { target, source } of await emitGuards()) {
    await writeFile(target, source);
    console.log(`wrote ${target}`);
  }
}
