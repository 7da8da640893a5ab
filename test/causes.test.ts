/**
 * The one walk along a cause chain (`firstAlongCauses` in core/attempt.ts), under the error code of a failed call and
 * the "100 Continue" hint: it finds what fetch wraps, stops after five links, and survives what a
 * merchant's fetch function may throw (a throwing getter, a revoked Proxy, a cycle).
 */
import { describe, expect, it } from 'vitest';
import { firstAlongCauses } from '../src/core/retry.js';
import { refusedContinue } from '../src/core/messages.js';

const codeOf = (link: object): string | undefined => {
  const { code } = link as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
};

describe('the walk along a cause chain', () => {
  it("finds what fetch's TypeError wraps, and says nothing when no link answers", () => {
    const socket = Object.assign(new Error('bad response'), { code: 'UND_ERR_SOCKET' });
    const fetchFailed = new TypeError('fetch failed', { cause: socket });
    expect(firstAlongCauses(fetchFailed, codeOf)).toBe('UND_ERR_SOCKET');
    expect(refusedContinue(fetchFailed)).toBe(true);
    expect(firstAlongCauses(new Error('plain'), codeOf)).toBeUndefined();
    expect(firstAlongCauses('not an object', codeOf)).toBeUndefined();
  });

  it('reads five links at the most, so a cycle ends', () => {
    const deep = [1, 2, 3, 4, 5].reduceRight<unknown>((cause, n) => new Error(`link ${n}`, { cause }), {
      code: 'ECONNRESET',
    });
    expect(firstAlongCauses(deep, codeOf)).toBeUndefined();
    const cycle = new Error('a');
    (cycle as { cause?: unknown }).cause = cycle;
    expect(firstAlongCauses(cycle, codeOf)).toBeUndefined();
  });

  it('ends quietly on a throwing getter or a revoked Proxy in what was thrown', () => {
    const hostile = Object.defineProperty(new Error('custom fetch'), 'cause', {
      get() {
        throw new Error('no');
      },
    });
    expect(firstAlongCauses(hostile, codeOf)).toBeUndefined();
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(refusedContinue(new TypeError('fetch failed', { cause: proxy }))).toBe(false);
  });
});
