import { afterEach, describe, it, vi } from 'vitest';
import { createSandbox } from '@wallet/node/testing';
import { resolveAndDispatch } from './http-helpers.js';
import { deliveringTo, startReceiver } from './receiver.js';

afterEach(() => void vi.useRealTimers());

describe('probe', () => {
  it('fake timers + webhook with a retry', async () => {
    vi.useFakeTimers();
    const receiver = await startReceiver({ failFirst: 1 });
    const sandbox = createSandbox(deliveringTo(receiver.url, { attempts: 3, delayMs: 50, timeoutMs: 1000 }));
    await resolveAndDispatch(sandbox, 'o1', 1000);
    const t0 = Date.now();
    const { webhook } = await sandbox.authorize('o1');
    console.log('first', webhook?.delivered, webhook?.retrying);
    const r = await Promise.race([webhook!.settled.then((s) => s.delivered), new Promise((r) => setTimeout(r, 10)).then(() => 'not yet')]);
    console.log('after', r);
    await vi.advanceTimersByTimeAsync(100);
    const r2 = await Promise.race([webhook!.settled.then((s) => s.delivered), new Promise((r) => setTimeout(r, 10)).then(() => 'not yet')]);
    console.log('after advance', r2, sandbox.deliveries.map((d) => [d.attempt, d.ok, d.at, d.nextRetryAt]));
    vi.useRealTimers();
    await sandbox.close();
    await receiver.close();
  });
});
