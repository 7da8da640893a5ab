/**
 * Polls held on the manual clock. `waitForOutcome` asks with `Prefer: wait=N` (RFC 7240) to be
 * answered within N seconds; on a clock that stands still nothing can change a waiting charge but
 * the test, so the sandbox holds such a verify until the charge leaves its waiting state (the
 * clock passes `expiresAt`, or a control authorizes, declines or expires it), N seconds pass, or
 * the caller gives up. The answer then comes the moment the test acts, with no real waiting. A
 * verify without the preference, and any verify on the real clock, is answered at once.
 */
import { isWaiting } from '../state/store.js';
import type { SandboxState } from '../state/store.js';
import type { Clock } from '../state/clock.js';

/** The longest hold, whatever the preference asks: below the SDK's default attempt timeout. */
const MAX_HOLD_S = 25;

function preferredWait(prefer: string | null): number | undefined {
  const match = prefer === null ? null : /(?:^|[,;\s])wait=(\d{1,6})(?:$|[,;\s])/i.exec(prefer);
  return match?.[1] === undefined ? undefined : Math.min(Number(match[1]), MAX_HOLD_S);
}

/** Holds a verify of a waiting charge on the manual clock, as above. @internal */
export async function holdPoll(
  state: SandboxState,
  clock: Clock,
  request: Request,
  path: string,
): Promise<void> {
  if (!clock.manual || request.method !== 'GET') return;
  const seconds = preferredWait(request.headers.get('prefer'));
  const raw = /^\/v1\/charges\/verify\/([^/]+)$/.exec(path)?.[1];
  if (seconds === undefined || raw === undefined) return;
  let reference: string;
  try {
    reference = decodeURIComponent(raw);
  } catch {
    return; // verify answers the 400
  }
  const until = performance.now() + seconds * 1000;
  const closing = clock.closing;
  for (;;) {
    const charge = state.charges.get(reference);
    const left = until - performance.now();
    if (charge === undefined || !isWaiting(charge, clock.now())) return;
    if (left <= 0 || request.signal.aborted || closing.aborted) return;
    await clock.nextChange(request.signal, left);
  }
}
