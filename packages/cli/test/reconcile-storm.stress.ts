/**
 * A 429 whose Retry-After is longer than a single verify waits out (20 s): every worker pauses
 * for the time asked (within --max-wait) and no row becomes an error. Long by nature: the stress stage.
 */
import { describe, expect, it } from 'vitest';

import { charge, json, ROWS, run } from './helpers/lying-service.js';

describe('wallet reconcile in a storm', () => {
  it('waits out a Retry-After longer than the SDK waits (pausing every worker), within --max-wait', async () => {
    let stormed = false;
    const ran = await run(
      (r, n, res) => {
        if (!stormed && n === 3) {
          stormed = true;
          return json(res, 429, { status: 'error', message: 'slow down' }, { 'retry-after': '21' });
        }
        json(res, 200, charge(r));
      },
      '--concurrency',
      '4',
      '--max-wait',
      '30',
    );
    expect(ran.rows.map((r) => r.verdict)).toEqual(Array(ROWS).fill('match'));
    expect(ran.code).toBe(0);
  }, 60_000);
});
