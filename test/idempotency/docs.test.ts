import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { root } from '../helpers/loaded-modules.js';

const read = (path: string): string => readFileSync(`${root}/${path}`, 'utf8');

function region(file: string, name: string): string {
  const lines = read(file).split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const end = lines.findIndex((l) => l.trim() === `// #endregion ${name}`);
  return lines.slice(start + 1, end).join('\n') + '\n';
}

it('docs/errors.md shows the crash-safe pattern exactly as test/idempotency runs it', () => {
  const guide = read('docs/errors.md');
  const marker = '<!-- snippet: test/idempotency/crash-safe-refund.ts#crash-safe-refund -->\n\n```ts\n';
  const at = guide.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  const code = guide.slice(at + marker.length, guide.indexOf('```', at + marker.length));
  expect(code).toBe(region('test/idempotency/crash-safe-refund.ts', 'crash-safe-refund'));
});

it('no guide recommends a key per order', () => {
  for (const file of ['README.md', 'docs/errors.md', 'docs/getting-started.md']) {
    const text = read(file);
    expect(text, file).not.toMatch(/idempotencyKey: ['`](refund|dispatch)[:-]/);
    expect(text, file).not.toMatch(/const (idempotencyKey|key) = ['`](refund|dispatch)[:-]/);
  }
});
