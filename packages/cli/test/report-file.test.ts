/**
 * The report file: a write that fails (a full disk) ends the run with the disk's own reason, however
 * soon after the failure the run finishes and closes the file.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { FileWriter } from '../src/reconcile/report.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe.skipIf(!existsSync('/dev/full'))('the report file on a full disk', () => {
  it('names ENOSPC at close whenever close comes after the failed write, never a vague "closed"', async () => {
    const reasons = new Set<string>();
    // Closed 0 to 39 event-loop turns after the write: some land while the stream is destroyed but
    // its error not yet emitted (the file descriptor still closing).
    for (let turns = 0; turns < 40; turns++) {
      for (let k = 0; k < 3; k++) {
        const writer = new FileWriter('/dev/full', 'reference,verdict\n');
        await writer.write('ord_1,match\n').catch(() => undefined);
        for (let i = 0; i < turns; i++) await turn();
        const reason = await writer.close().then(
          () => 'closed without an error',
          (error: Error) => error.message,
        );
        reasons.add(reason.replace(/^cannot write \/dev\/full: ENOSPC.*$/, 'ENOSPC'));
      }
    }
    expect([...reasons]).toEqual(['ENOSPC']);
  });
});
