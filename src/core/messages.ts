// The words a merchant reads when a call fails: which host, which error, what the call was, and
// what to do next, right for the call (a charge can be confirmed with verify; a refund only retried).
import { platform } from '../platform/index.js';
import { firstAlongCauses } from './retry.js';
import type { AttemptResult } from './types.js';

/** What a message says about the call. */
export interface CallWords {
  endpoint: string;
  /** Host of the service, for example `api.example.ng`. */
  host: string;
  /** What the call was, for example `refund of ₦4,500.00 (450000 Kobo) on order_1042`. */
  summary: string | undefined;
  /** How to confirm the outcome, for example `charges.verify('order_1042')`; none for a refund. */
  confirm: string | undefined;
  idempotencyKey: string | undefined;
  attempts: number;
  outcomeUnknown: boolean;
  /** True when any attempt of the call may have reached the service (answered, or cut off after sending). */
  anyReached: boolean;
}

const tries = (n: number): string => `${n} attempt${n === 1 ? '' : 's'}`;

function subjectOf(words: CallWords): string {
  return `${words.endpoint}${words.summary ? ` (${words.summary})` : ''}`;
}

/** The closing advice: confirm or retry with the key when unknown; say nothing happened when nothing was sent. */
export function advice(words: CallWords, lastReached: boolean): string {
  const key = words.idempotencyKey;
  if (key === undefined)
    return lastReached || words.anyReached ? '' : ' Nothing reached the service; it is safe to try again.';
  if (words.outcomeUnknown) {
    const retry = `retry with idempotencyKey '${key}' (the service never applies one key twice)`;
    return (
      ' The outcome is unknown: the service may have acted on it.' +
      (words.confirm
        ? ` Confirm with ${words.confirm}, or ${retry}.`
        : ` ${retry[0]!.toUpperCase()}${retry.slice(1)}.`)
    );
  }
  if (lastReached) return '';
  // The last attempt never left, but an earlier one was answered: a 408 or 429, which did nothing.
  return words.anyReached
    ? ` The service answered an earlier attempt without acting on it; retrying with idempotencyKey '${key}' is safe.`
    : ` Nothing reached the service, so nothing was done; retrying with idempotencyKey '${key}' is safe.`;
}

/** True when `cause` is undici failing on a `100 Continue` it will not read past (nodejs/undici#197). */
export function refusedContinue(cause: unknown): boolean {
  const refusal = (link: object): true | undefined => {
    const { code, message } = link as { code?: unknown; message?: unknown };
    return code === 'UND_ERR_SOCKET' && message === 'bad response' ? true : undefined;
  };
  return firstAlongCauses(cause, refusal) === true;
}

// The SDK never sends `Expect: 100-continue`, so a 100 is one it never asked for.
function continueHint(cause: unknown): string {
  if (!refusedContinue(cause)) return '';
  return (
    ' It answered with a `100 Continue` the SDK never asked for, which undici (the HTTP client under ' +
    "Node's fetch and the SDK) cannot read past: have the server or proxy stop sending it."
  );
}

// Under a test runner, a call that cannot connect is most often a mock the SDK's undici never met.
function mockHint(): string {
  const env = platform.env();
  if ((!env.VITEST && !env.JEST_WORKER_ID) || env.WALLET_TRANSPORT === 'fetch') return '';
  return (
    ' Under a test runner: if this test mocks the service with MSW or another fetch interceptor, set ' +
    'WALLET_TRANSPORT=fetch so it sees the SDK (its default transport is undici, which they do not intercept).'
  );
}

/** The message of a call that got no answer: connection failure, timeout or abort. */
export function failureMessage(
  result: Extract<AttemptResult, { kind: 'failure' }>,
  words: CallWords,
  timeout: number,
  totalTimeout?: number,
): string {
  const code = result.code ? ` (${result.code})` : '';
  const after = `after ${tries(words.attempts)} of ${subjectOf(words)}.`;
  let head: string;
  if (result.reason === 'timeout' && totalTimeout !== undefined)
    head = `No complete answer from ${words.host} within the call's totalTimeout of ${totalTimeout} ms ${after}`;
  else if (result.reason === 'timeout')
    head = `No complete answer from ${words.host} within ${timeout} ms per attempt ${after}`;
  else if (result.reason === 'aborted')
    head = `${subjectOf(words)} was aborted by its signal after ${tries(words.attempts)}.`;
  else if (result.reason === 'refused' && result.code === 'UND_ERR_CLOSED')
    // The service is not in question: every call through that dispatcher is refused the same way.
    // After an earlier attempt (answered, or cut off), only the last one was not sent.
    head =
      `${words.attempts > 1 || words.outcomeUnknown ? `The last attempt of ${subjectOf(words)}` : subjectOf(words)} was not ` +
      'sent: the dispatcher it was given is closed (UND_ERR_CLOSED). Give new Wallet() a dispatcher ' +
      'that is open (a closed one refuses every request).';
  else if (!result.reached && (words.outcomeUnknown || words.anyReached))
    // The last attempt never left, but an earlier one did: "could not reach" alone would be a lie.
    head = `The last attempt could not reach ${words.host}${code}, but an earlier one may have, ${after}`;
  else if (!result.reached) head = `Could not reach ${words.host}${code} ${after}${mockHint()}`;
  else if (result.code === 'WALLET_REDIRECT_FOLLOWED')
    // A fetch wrapper that drops `init.redirect`: the request went on to the redirect's Location.
    head =
      `The fetch function followed a redirect from ${words.host}${code} ${after} The request went on to ` +
      "another address, whose answer was not read: pass `init` through to fetch whole (its redirect: 'manual').";
  else head = `The connection to ${words.host} failed${code} ${after}${continueHint(result.cause)}`;
  return head + advice(words, result.reached);
}

/** The message of a call whose answer was over the body limit. */
export function tooLargeMessage(status: number, limit: number, words: CallWords): string {
  return (
    `The answer to ${subjectOf(words)} (HTTP ${status}) is larger than ${limit} bytes and was not read.` +
    advice(words, true)
  );
}

// Where a redirect pointed, without its query or fragment (tokens travel there) and cut short.
function target(location: string | undefined): string {
  if (location === undefined || location.trim() === '') return 'nowhere (no Location header)';
  const bare = location.trim().split(/[?#]/, 1)[0]!;
  return bare.length > 200 ? `${bare.slice(0, 200)}…` : bare;
}

/** The message of a 3xx, never followed (the key stays with its host); a 303 to a POST says it acted. */
export function redirectMessage(status: number, location: string | undefined, words: CallWords): string {
  const head = `The service answered HTTP ${status} to ${subjectOf(words)}, pointing to ${target(location)}.`;
  if (status === 303 && words.idempotencyKey !== undefined) {
    return (
      `${head} A 303 means the action was carried out, but the SDK follows no redirect, so its result ` +
      `was not read: verify before acting on it.${advice(words, true)}`
    );
  }
  return (
    `${head} The SDK refused the redirect: it never follows one, so your key and request stay with ` +
    `the base URL you configured (check baseUrl or your proxy).${advice(words, true)}`
  );
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `HTTP 404 Not Found`: what an error answer says when its body says nothing. */
export function statusLine(status: number): string {
  return `HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}`;
}

/** A 404 from something other than the service: whatever answered, the path does not exist there. */
export function endpointNotFoundMessage(endpoint: string, received: string): string {
  return (
    `No Wallet endpoint at ${endpoint}: the 404 is not the service's error envelope (${received}), ` +
    'so something other than the Wallet service answered. Check baseUrl: it is the host plus any ' +
    'gateway prefix, without /v1 (the SDK adds it); behind a proxy or gateway, check that it forwards ' +
    'the path unchanged. This is not an unknown reference.'
  );
}

/** Why the HTTP layer refused to send a request. */
export function refusedMessage(code: string | undefined): string {
  return code === 'NotCapable'
    ? 'refused by Deno, which was not given network access: run with --allow-env --allow-net'
    : `refused by the HTTP layer before sending${code ? ` (${code})` : ''}`;
}

// Characters of a body looked at, and of the excerpt made from them.
const EXCERPT_SOURCE_CHARS = 8_192;
const EXCERPT_LENGTH = 300;

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
}

/** The visible text of a body's start, whitespace collapsed: a linear scan of a bounded prefix, no regex. */
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

/** An attempt's result in a few words, for log lines. */
export function describeResult(result: AttemptResult): string {
  if (result.kind === 'response') return `HTTP ${result.status}`;
  if (result.kind === 'too_large') return `HTTP ${result.status}, body over ${result.limit} bytes`;
  if (result.reason === 'network') return `connection failed${result.code ? ` (${result.code})` : ''}`;
  return { timeout: 'timed out', refused: 'refused locally', aborted: 'aborted' }[result.reason];
}
