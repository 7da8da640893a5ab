/** Names a value for an error message without printing more of it than helps. */
export function describe(value: unknown): string {
  try {
    return describeValue(value);
  } catch {
    return 'an unreadable value';
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') {
    const shown = value.length > 24 ? `${value.slice(0, 24)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'bigint') return `the bigint ${value}n`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor
      ?.name;
    return name && name !== 'Object' ? `an instance of ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

/**
 * The closest of `candidates` to a misspelled `name`, when it is close enough to be the intent: by
 * edit distance, else the candidate that starts like `name` for at least half of it (a renamed word,
 * such as `maxBodySize` for `maxBodyBytes`, is too far by edit distance).
 */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best ?? sharedStem(name.toLowerCase(), candidates);
}

function sharedStem(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestLength = Math.max(4, Math.ceil(name.length / 2)) - 1;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    let n = 0;
    while (n < name.length && name[n] === lower[n]) n++;
    if (n > bestLength) [best, bestLength] = [candidate, n];
  }
  return best;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
