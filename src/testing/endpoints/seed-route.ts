/**
 * `POST /_sandbox/seed`: many charges in one request, as a JSON array or as JSON lines (one charge
 * per line), for tests in other languages and for the `wallet` command line's proofs. The body is
 * read through the SDK's one bounded reader, with a limit of its own: a seed is large by design.
 */
import { SandboxError } from '../state/errors.js';
import { readBody } from './body.js';

/** The largest seed body, bytes (64 MiB: about 400,000 charges as JSON lines). @internal */
export const MAX_SEED_BYTES: number = 64 * 1024 * 1024;

/**
 * The rows of a seed body: a JSON array, or JSON lines (blank lines skipped). A line that is not
 * JSON is a 400 naming its line number.
 * @internal
 */
export async function readSeed(request: Request): Promise<unknown[]> {
  const text = await readBody(request, MAX_SEED_BYTES);
  const start = /\S/.exec(text)?.index;
  if (start === undefined)
    throw new SandboxError(400, 'The seed is empty: send a JSON array of charges, or JSON lines.');
  if (text[start] === '[') {
    let rows: unknown;
    try {
      rows = JSON.parse(text);
    } catch {
      throw new SandboxError(400, 'The seed is not valid JSON.');
    }
    if (!Array.isArray(rows))
      throw new SandboxError(400, 'The seed must be a JSON array of charges, or JSON lines.');
    return rows as unknown[];
  }
  // One parse of the lines joined as an array is several times faster than a parse per line; only
  // a seed that fails it is parsed line by line, to name the bad line.
  const lines = text.split('\n');
  const filled = lines.filter((line) => line.trim() !== '');
  try {
    return JSON.parse(`[${filled.join(',')}]`) as unknown[];
  } catch {
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        JSON.parse(line);
      } catch {
        throw new SandboxError(400, `Line ${index + 1} of the seed is not valid JSON.`);
      }
    });
    throw new SandboxError(400, 'The seed is not valid JSON lines: one JSON object per line.');
  }
}
