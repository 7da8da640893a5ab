/**
 * What is wrong with a secret key, said precisely, without ever repeating the key or any part of it:
 * not even a fragment ends up in an error, a log or a bug report.
 */

const PREFIX = /^sk_(live|test)_/;
/** The longest key the SDK accepts: the prefix and 500 characters. */
const MAX_KEY_LENGTH = 508;
// Characters that paste invisibly: zero-width spaces and joiners, the BOM, soft hyphens, bidi marks.
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/;

/** The place of the first match, counted from 1, for a message ("at character 17"). */
function at(key: string, pattern: RegExp): number {
  return key.search(pattern) + 1;
}

/**
 * The problem with a key, or undefined when it is well formed. `name` says where it came from, so
 * the fix names the right thing: the `apiKey` option or the `WALLET_SECRET_KEY` variable.
 */
export function keyProblem(key: unknown, name: string): string | undefined {
  if (typeof key !== 'string') return `must be a string, got ${key === null ? 'null' : typeof key}`;
  if (INVISIBLE.test(key)) {
    return (
      `contains an invisible character (a zero-width space or similar) at character ${at(key, INVISIBLE)}: ` +
      `copy the key again from the dashboard and set ${name} with it`
    );
  }
  // After the invisible characters: JavaScript counts a BOM as whitespace.
  if (/^\s|\s$/.test(key)) {
    return 'has leading or trailing whitespace (check how it is loaded from your env file)';
  }
  if (/\s/.test(key)) {
    return `contains whitespace at character ${at(key, /\s/)}: a key is one word, with no spaces or line breaks`;
  }
  if (key.length > MAX_KEY_LENGTH) {
    return (
      `is ${key.length} characters long, longer than any key (at most ${MAX_KEY_LENGTH}): check that ` +
      `${name} holds only the key`
    );
  }
  if (/[^\x21-\x7e]/.test(key)) {
    return `contains a character that is not printable ASCII at character ${at(key, /[^\x21-\x7e]/)}`;
  }
  if (/^[pr]k_/.test(key)) {
    return 'looks like a public or restricted key; the SDK needs a secret key starting with sk_live_ or sk_test_';
  }
  if (!PREFIX.test(key)) {
    return `must start with sk_live_ or sk_test_ (got ${key.length} characters that do not)`;
  }
  if (key.replace(PREFIX, '') === '') return 'has nothing after its sk_live_ or sk_test_ prefix';
  return undefined;
}
