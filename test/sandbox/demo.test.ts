import { afterEach, describe, expect, it } from 'vitest';

import { startTs } from './child.js';
import type { Child } from './child.js';

let child: Child | undefined;
afterEach(async () => {
  child?.kill();
  await child?.exited;
  child = undefined;
});

describe('npm run demo', () => {
  it('runs the whole merchant flow against the sandbox and exits 0', async () => {
    child = startTs('examples/demo.ts');
    const { code } = await child.exited;
    expect(child.stderr()).not.toMatch(/error|warn/i);
    expect(code).toBe(0);
    const out = child.stdout();
    expect(out).toMatch(/resolve\s+@ada is Ada Lovelace; pays from GTBank \*{6}1234/);
    expect(out).toMatch(/dispatch\s+order_1042 for ₦5,000\.00 by push: PENDING_AUTHORIZATION/);
    expect(out).toMatch(
      /webhook\s+charge\.success for order_1042: ₦5,000\.00 from @ada \(signature verified\)/,
    );
    expect(out).toMatch(/verify\s+SUCCESS: paid ₦5,000\.00, fee ₦100\.00, net ₦4,900\.00, SETTLED/);
    expect(out).toMatch(/refund\s+₦1,000\.00 PROCESSED/);
    expect(out).toMatch(/refund\s+₦4,500\.00 refused: UnprocessableEntityError \(422\)/);
    expect(out).toMatch(/retry\s+.*original answer replayed.*Ada debited 1 time/);
    expect(out).toMatch(/Done: Ada debited 1 time \(₦5,000\.00\), refunded ₦1,000\.00\./);
    const log = out.slice(out.indexOf('Sandbox log'));
    const time = String.raw`\d\d:\d\d:\d\d\.\d{3}`;
    expect(log).toMatch(new RegExp(`${time} POST /v1/charges/resolve-handle 200 key=\\S+ \\d+ms`));
    expect(log).toMatch(new RegExp(`${time} customer authorize order_1042: SUCCESS`));
    expect(log).toMatch(
      new RegExp(`${time} webhook charge.success order_1042 -> \\S+ 200 attempt 1/5 \\d+ms, delivered`),
    );
    expect(log).toMatch(new RegExp(`${time} POST /v1/refunds 422 key=\\S+ \\d+ms`));
    expect(log).toMatch(
      new RegExp(`${time} POST /v1/charges/dispatch 200 key=[0-9a-f-]{36} replayed \\d+ms`),
    );
  });
});
