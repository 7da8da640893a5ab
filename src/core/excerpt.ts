/**
 * Text of a non-JSON error body for messages, in time linear in a bounded prefix: a hostile
 * proxy page (megabytes of `<`) costs the same as a short one. A hand-written scan rather than
 * regular expressions, so no pattern can backtrack.
 */

/** How much of a body is looked at, in characters. */
const EXCERPT_SOURCE_CHARS = 8_192;
/** How long an excerpt may be, in characters. */
const EXCERPT_LENGTH = 300;

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
}

/** The visible text of (the start of) an HTML or plain-text body, whitespace collapsed. */
export function excerptOf(text: string): string {
  const source = text.length > EXCERPT_SOURCE_CHARS ? text.slice(0, EXCERPT_SOURCE_CHARS) : text;
  const lower = source.toLowerCase();
  let out = '';
  let pendingSpace = false;
  let i = 0;
  while (i < source.length && out.length <= EXCERPT_LENGTH) {
    const c = source.charCodeAt(i);
    if (c === 60 /* < */) {
      const close = source.indexOf('>', i + 1);
      if (close === -1) break; // an unclosed tag: the rest is markup
      // Skip script and style elements whole: their text is code, not a message.
      const skip = lower.startsWith('<script', i)
        ? '</script'
        : lower.startsWith('<style', i)
          ? '</style'
          : '';
      let end = close + 1;
      if (skip) {
        const at = lower.indexOf(skip, close);
        end = at === -1 ? source.length : source.indexOf('>', at) + 1 || source.length;
      }
      pendingSpace = true;
      i = end;
      continue;
    }
    if (isSpace(c)) pendingSpace = true;
    else {
      if (pendingSpace && out !== '') out += ' ';
      pendingSpace = false;
      out += source[i];
    }
    i++;
  }
  return out.length > EXCERPT_LENGTH ? `${out.slice(0, EXCERPT_LENGTH)}…` : out;
}
