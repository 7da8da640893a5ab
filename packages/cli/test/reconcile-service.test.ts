/**
 * `wallet reconcile` against services that lie (another reference, statuses the spec does not
 * list, another currency), storm (429 with a long Retry-After), refuse the key (401) or drop the
 * connection: a verdict only on a true answer, a pause instead of error rows, one stop instead of
 * one error per row.
 */
import { describe, expect, it } from 'vitest';

import { charge, json, ROWS, run } from './helpers/lying-service.js';

describe('wallet reconcile against a service that lies', () => {
  it.each([
    ['another reference', () => charge('ord_0'), /answer is about "ord_0"/],
    ['a lower-case status', (r: string) => charge(r, { status: 'success' }), /status "success" is not one/],
    ['REFUNDED', (r: string) => charge(r, { status: 'REFUNDED' }), /status "REFUNDED" is not one/],
    ['another currency', (r: string) => charge(r, { currency: 'USD' }), /"USD", not NGN/],
    ['a status that is a formula', (r: string) => charge(r, { status: '\tSUCCESS' }), /status "\\tSUCCESS"/],
  ])('%s: error rows with the reason, never a verdict', async (_, body, reason) => {
    const ran = await run((r, _n, res) => json(res, 200, body(r)));
    expect(ran.code).toBe(1);
    const lied = ran.rows.filter((row) => row.reference !== 'ord_0' || row.verdict === 'error');
    expect(lied.length).toBeGreaterThanOrEqual(ROWS - 1);
    for (const row of lied) {
      expect(row.verdict).toBe('error');
      expect(row.detail).toMatch(reason);
    }
    for (const row of ran.rows) expect(row.actual_status).not.toMatch(/^\t/);
  });
});

describe('wallet reconcile against a service that pushes back', () => {
  it('stops at the first 401 with its cause, not one error row per reference', async () => {
    const ran = await run((_r, _n, res) => json(res, 401, { status: 'error', message: 'Invalid API key' }));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('Stopped: 401: the service refused the key (Invalid API key)');
    expect(ran.rows).toEqual([]);
    // At most the rows already in flight were sent: never one request per row.
    expect(ran.requests).toBeLessThanOrEqual(8);
  });

  it('stops at a 403 naming the allow list', async () => {
    const ran = await run((_r, _n, res) => json(res, 403, { status: 'error', message: 'IP not allowed' }));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain("403: the key's IP allow list does not include this machine");
  });

  it('turns rows into error only past --max-wait, with the reason', async () => {
    const ran = await run(
      (_r, _n, res) => json(res, 429, { status: 'error', message: 'slow down' }, { 'retry-after': '3600' }),
      '--max-wait',
      '1',
    );
    expect(ran.rows.every((r) => r.verdict === 'error' && /slow down/.test(r.detail!))).toBe(true);
  });

  it('says how many attempts a dropped connection really got', async () => {
    const ran = await run((_r, _n, res) => res.socket!.destroy(), '--retries', '1');
    expect(ran.rows.length).toBe(ROWS);
    for (const row of ran.rows) {
      expect(row.verdict).toBe('error');
      expect(row.detail).toMatch(/ after 2 attempts of GET /);
    }
  });
});
