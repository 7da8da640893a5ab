import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { extractMarkdownExamples } from '../docs/extract-examples.js';
import { root } from '../helpers/loaded-modules.js';
import { json, loopback } from '../helpers/loopback.js';

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

/** Every guide, README and example a merchant may copy from. */
function copyable(): string[] {
  const under = (dir: string, ext: RegExp): string[] =>
    readdirSync(`${root}${dir}`, { recursive: true, encoding: 'utf8' })
      .filter((f) => ext.test(f) && !f.includes('node_modules'))
      .map((f) => `${dir}/${f}`);
  const packages = readdirSync(`${root}packages`).map((p) => `packages/${p}/README.md`);
  return ['README.md', ...under('docs', /\.md$/), ...under('examples', /\.(ts|tsx|js|mjs)$/), ...packages];
}

it('no guide, README or example uses a key per order', () => {
  const files = copyable();
  expect(files).toEqual(expect.arrayContaining(['docs/testing.md', 'examples/demo.ts', 'README.md']));
  for (const file of files) {
    const text = read(file);
    expect(text, file).not.toMatch(/idempotencyKey: ['`](refund|dispatch)[:-]/);
    expect(text, file).not.toMatch(/const (idempotencyKey|key) = ['`](refund|dispatch)[:-]/);
    // A key built from the order or its reference, in code, a header or a log line.
    expect(text, file).not.toMatch(/idempotencyKey: *['"`][^'"`]*(order|reference)/i);
    // (`idempotencyKey`, `dispatchKey`; a webhook's dedupe `key` is rightly the event and reference)
    expect(text, file).not.toMatch(/Key = *['"`][^'"`]*(order|\$\{[^}]*reference)/);
    expect(text, file).not.toMatch(/x-idempotency-key: *[^\s'"]*order/i);
    expect(text, file).not.toMatch(/ key=\S*order/i);
  }
});

it("docs/errors.md's recovery of a dispatch with no answer sends it again under its key when it never arrived", async () => {
  const [example] = extractMarkdownExamples(root, ['docs/errors.md']).filter((e) =>
    e.code.includes('error.outcomeUnknown'),
  );
  // The first dispatch's answer is lost; verify then gets the service's own 404: it never arrived.
  const server = await loopback((req, res, n) => {
    if (n === 1) return void res.socket?.destroy();
    if (req.method === 'GET') return json(res, 404, { status: 'error', message: 'No such charge' });
    const data = { reference: 'order_1042', status: 'PENDING_AUTHORIZATION', authChannel: 'wallet_push' };
    json(res, 200, {
      status: 'success',
      message: 'sent',
      data: { ...data, expiresAt: '2026-03-02T10:10:00Z' },
    });
  });
  // Run as written, `wallet` given as the guide takes it (its imports resolve as a merchant's would).
  const file = `${root}test/idempotency/errors-guide-example-${process.pid}.ts`;
  (globalThis as { wallet?: unknown }).wallet = server.wallet({ maxRetries: 0, logLevel: 'off' });
  writeFileSync(file, `const wallet = (globalThis as any).wallet;\n${example!.code}`);
  try {
    await import(file);
    const posts = server.received.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]!.headers['x-idempotency-key']).toBe(posts[0]!.headers['x-idempotency-key']);
  } finally {
    rmSync(file, { force: true });
    delete (globalThis as { wallet?: unknown }).wallet;
    await server.close();
  }
});
