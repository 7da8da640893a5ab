/**
 * One `abort` listener per shared `AbortSignal`, however many calls wait on it. A merchant often
 * passes one signal (a request's, a shutdown's) to many calls at once; a listener each would pass
 * Node's limit of 10 and print `MaxListenersExceededWarning`. The calls register here instead, and
 * the signal's one listener is removed when the last of them is done.
 */
type Callback = () => void;

interface Fanout {
  callbacks: Set<Callback>;
  listener: () => void;
}

const bySignal = new WeakMap<AbortSignal, Fanout>();

/**
 * Calls `callback` once when `signal` fires (not if it has already fired: the caller checks
 * `aborted` first). Returns the function that unregisters it; call it when the wait is over.
 */
export function onAbort(signal: AbortSignal, callback: Callback): () => void {
  let fanout = bySignal.get(signal);
  if (fanout === undefined) {
    const callbacks = new Set<Callback>();
    const listener = (): void => {
      bySignal.delete(signal);
      for (const each of callbacks) each();
      callbacks.clear();
    };
    fanout = { callbacks, listener };
    bySignal.set(signal, fanout);
    signal.addEventListener('abort', listener, { once: true });
  }
  // A wrapper per registration: the same function registered twice must fire twice.
  const entry: Callback = () => callback();
  const { callbacks, listener } = fanout;
  callbacks.add(entry);
  return () => {
    if (!callbacks.delete(entry) || callbacks.size > 0) return;
    signal.removeEventListener('abort', listener);
    if (bySignal.get(signal)?.callbacks === callbacks) bySignal.delete(signal);
  };
}
