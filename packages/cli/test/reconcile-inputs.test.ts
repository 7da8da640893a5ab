/**
 * `wallet reconcile` on what finance systems really export, and on what a spreadsheet opens:
 * encodings, stray quotes, repeated columns and references, `--out` over the ledger, formula
 * cells, escape sequences and a closed pipe.
 */
import { linkSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { CLI_BIN, cleanEnv, wallet } from './helpers/processes.js';
import { seededSandbox } from './helpers/seed.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-inputs-'));
const HOSTILE = [
  '=HYPERLINK("http://evil.example","click")',
  '+1+1',
  '-2+3',
  '@SUM(A1)',
  'ord_\u001b[2Kerased',
  'ord_\u001b]8;;http://evil.example\u0007link',
];
const sandbox = seededSandbox([
  { reference: 'café_1', amount: 10_000, status: 'SUCCESS' },
  { reference: 'ord_1', amount: 10_000, status: 'SUCCESS' },
  { reference: 'ord_2', amount: 20_000, status: 'SUCCESS' },
  { reference: 'ord_3', amount: 30_000, status: 'FAILED' },
  ...HOSTILE.map((reference) => ({ reference, amount: 5_000, status: 'SUCCESS' as const })),
]);
const { env } = sandbox;

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const report = (path: string): string[][] => {
  const rows: unknown = parse(readFileSync(path, 'utf8'), { relax_column_count: true });
  return rows as string[][];
};

describe('wallet reconcile: encodings', () => {
  const text = 'reference,amount,status\ncafé_1,10000,paid\n';

  it('refuses a Windows-1252 ledger with the line and the flag, and reads it with --encoding', async () => {
    const cp1252 = file('cp1252.csv', Buffer.from(text, 'latin1'));
    const refused = await wallet(['reconcile', cp1252], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not UTF-8: line 2 has bytes that are not valid UTF-8 \(byte 0xe9\)/);
    expect(refused.stderr).toContain('--encoding windows-1252');
    const read = await wallet(
      ['reconcile', cp1252, '--encoding', 'windows-1252', '--out', join(dir, 'cp.csv')],
      {
        env,
      },
    );
    expect(read.code).toBe(0);
    expect(report(join(dir, 'cp.csv'))[1]?.slice(1, 3)).toEqual(['café_1', 'match']);
  });

  it('reads UTF-16 with a BOM and UTF-8 with a BOM as they are', async () => {
    for (const [name, bytes] of [
      ['utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
      ['bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
    ] as const) {
      const out = join(dir, `${name}.report.csv`);
      const ran = await wallet(['reconcile', file(name, bytes), '--out', out], { env });
      expect(ran.code, ran.stderr).toBe(0);
      expect(report(out)[1]?.slice(1, 3)).toEqual(['café_1', 'match']);
    }
  });
});

describe('wallet reconcile: records', () => {
  it('reports a stray quote on the line it starts on and verifies every other row', async () => {
    const ledger = file(
      'quotes.csv',
      'reference,amount,status\nord_1,10000,paid\nor"d_x,1,paid\n"ord_y"z,1,paid\n"multi\nline",1,paid\nord_2,20000,paid\n"ord_open,1,paid\nord_3,30000,failed\n',
    );
    const out = join(dir, 'quotes.report.csv');
    const ran = await wallet(['reconcile', ledger, '--out', out], { env });
    const rows = report(out).slice(1);
    expect(rows.map((r) => [r[0], r[1], r[2]])).toEqual([
      ['2', 'ord_1', 'match'],
      ['3', '', 'error'],
      ['4', '', 'error'],
      ['5', 'multi\nline', 'unknown_reference'],
      ['7', 'ord_2', 'match'],
      ['8', '', 'error'],
      ['9', 'ord_3', 'match'],
    ]);
    expect(rows[1]?.[9]).toBe(
      'line 3: cannot be read as CSV: a quote inside a field that does not start with one',
    );
    expect(rows[2]?.[9]).toMatch(/^line 4: cannot be read as CSV: text after a closing quote/);
    expect(rows[5]?.[9]).toBe('line 8: cannot be read as CSV: a quote opened on this line is never closed');
    expect(ran.stderr).toContain('line 3: cannot be read as CSV');
  });

  it('refuses a needed column named twice, and reports other repeated columns and references', async () => {
    const twice = file('twice.csv', 'reference,amount,reference,status\nord_1,10000,x,paid\n');
    const refused = await wallet(['reconcile', twice], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("names the column 'reference' more than once");
    const ledger = file(
      'repeats.csv',
      'reference,amount,status,note,note\nord_1,10000,paid,a,b\nord_2,20000,paid,,\nord_1,10000,paid,,\n',
    );
    const out = join(dir, 'repeats.report.csv');
    const ran = await wallet(['reconcile', ledger, '--out', out], { env });
    expect(ran.stderr).toContain("The header names 'note' more than once");
    expect(ran.stderr).toContain('1 row(s) repeat a reference of an earlier row');
    const rows = report(out).slice(1);
    expect(rows[2]?.[9]).toBe('reference repeats line 2');
    expect(rows[0]?.[9]).toBe('');
  });
});

describe('wallet reconcile: files', () => {
  it('refuses --out naming the ledger by any path, before writing anything', async () => {
    const content = 'reference,amount,status\nord_1,10000,paid\n';
    const ledger = file('self.csv', content);
    linkSync(ledger, join(dir, 'hardlink.csv'));
    for (const out of [
      ledger,
      `${dir}/./self.csv`,
      join(dir, '..', dir.split('/').pop()!, 'self.csv'),
      join(dir, 'hardlink.csv'),
      // No file stats at these two; the ledger would still be opened, so they are the ledger too.
      `${ledger}/`,
      `${ledger}/.`,
    ]) {
      const ran = await wallet(['reconcile', ledger, '--out', out], { env });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain('is the ledger itself: nothing was written');
      expect(readFileSync(ledger, 'utf8')).toBe(content);
    }
  });

  it('refuses --out that is a directory or inside a missing one, with exit 2 and no crash', async () => {
    const ledger = file('dirs.csv', 'reference,amount,status\nord_1,10000,paid\n');
    for (const out of [dir, join(dir, 'no-such-dir', 'report.csv')]) {
      const ran = await wallet(['reconcile', ledger, '--out', out], { env });
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toContain(`--out ${out}`);
      expect(ran.stderr).not.toMatch(/Unhandled|node:events| {4}at /);
    }
  });

  it('refuses --out inside a path that is a file, not a directory, before any request (exit 2)', async () => {
    const ledger = file('in-a-file.csv', 'reference,amount,status\nord_1,10000,paid\n');
    const out = join(ledger, 'report.csv');
    const ran = await wallet(['reconcile', ledger, '--out', out], { env });
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain(`--out ${out}`);
  });

  it('refuses a ledger that is a directory as a usage error (exit 2)', async () => {
    const ran = await wallet(['reconcile', dir, '--out', join(dir, 'of-a-dir.csv')], { env });
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain(`${dir} is a directory`);
  });

  it('refuses a ledger from a pipe (it reads the ledger twice: the second read would find no rows)', async () => {
    const ledger = 'reference,amount,status\nord_1,10000,paid\nord_2,99,paid\n';
    const out = join(dir, 'piped.csv');
    // A shell pipe, as `export | wallet reconcile /dev/stdin` or `wallet reconcile <(export)` gives.
    const script = `printf '%s' "$LEDGER" | "${process.execPath}" "${CLI_BIN}" reconcile /dev/stdin --out "${out}"`;
    const ran = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', script], { env: cleanEnv({ ...env, LEDGER: ledger }) });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('/dev/stdin is not a file');
  });

  it('ends with the reason and exit 1 when the report cannot be written (a full disk), not a crash', async () => {
    const ledger = file('full.csv', 'reference,amount,status\nord_1,10000,paid\n');
    const ran = await wallet(['reconcile', ledger, '--out', '/dev/full'], { env });
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toMatch(/\/dev\/full.*ENOSPC/);
    expect(ran.stderr).not.toMatch(/Unhandled|node:events| {4}at /);
  });
});

describe('wallet reconcile: spreadsheets and terminals', () => {
  const ledger = () =>
    file(
      'hostile.csv',
      `reference,amount,status\n${HOSTILE.map((r) => `"${r.replace(/"/g, '""')}",5000,paid`).join('\n')}\n=1+1,-5,=cmd\n`,
    );

  it('writes no report cell a spreadsheet would run as a formula', async () => {
    const out = join(dir, 'hostile.report.csv');
    await wallet(['reconcile', ledger(), '--out', out], { env });
    const cells = report(out).flat();
    expect(cells.length).toBeGreaterThan(HOSTILE.length * 10);
    for (const cell of cells) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/);
    const rows = report(out).slice(1);
    expect(rows.map((r) => r[1])).toEqual([
      ...HOSTILE.map((r) => (/^[=+\-@\t\r]/.test(r) ? `'${r}` : r)),
      "'=1+1",
    ]);
    expect(rows.slice(0, HOSTILE.length).every((r) => r[2] === 'match')).toBe(true);
  });

  it('lets no escape sequence from the ledger reach a terminal (pseudo-terminal via script)', async () => {
    const out = join(dir, 'tty.report.csv');
    // A bad row whose text (printed in its note) carries an OSC hyperlink and a line erase.
    const tty = file(
      'tty.csv',
      `${readFileSync(ledger(), 'utf8')}ord_z,1\u001b]8;;http://evil.example\u0007,paid\u001b[2K\n`,
    );
    const text = await new Promise<string>((resolve) => {
      const child = spawn(
        'script',
        ['-qec', `${process.execPath} ${CLI_BIN} reconcile ${tty} --out ${out}`, '/dev/null'],
        {
          env: cleanEnv({ ...env, TERM: 'xterm', NO_COLOR: '1' }),
        },
      );
      let seen = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (seen += c));
      child.on('close', () => resolve(seen));
    });
    expect(text).toContain("line 8: amount '-5' is not a positive whole number of Kobo");
    expect(text).toContain("line 9: amount '1\\x1b]8;;http://evil.example\\x07'");
    expect(text).toContain("status 'paid\\x1b[2K'");
    // The bar redraws with \r ESC[2K, the program's own; nothing else may carry an ESC.
    const foreign = text.split('\r\u001b[2K').join('');
    expect(foreign).not.toContain('\u001b');
    expect(foreign).not.toContain('\u0007');
  });

  it('lets no line break from the ledger forge a line of its own on the terminal', async () => {
    const forged = 'All rows match: nothing to do.';
    const cell = file(
      'forged-cell.csv',
      `reference,amount,status\nord_1,10000,paid\nord_2,"1\n${forged}",paid\n`,
    );
    const ran = await wallet(['reconcile', cell, '--out', join(dir, 'forged.report.csv')], { env });
    expect(ran.stderr).toContain(`line 3: amount '1\\x0a${forged}'`);
    expect(ran.stderr).not.toContain(`\n${forged}`);
    const header = file('forged-header.csv', `reference,"amo\n${forged}",status\nord_1,10000,paid\n`);
    const refused = await wallet(['reconcile', header, '--out', join(dir, 'forged-h.report.csv')], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`amo\\x0a${forged}`);
    expect(refused.stderr).not.toContain(`\n${forged}`);
  });

  it('ends quietly when the reader of its output goes away (| head)', async () => {
    const ran = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [CLI_BIN, 'reconcile', ledger(), '--out', join(dir, 'pipe.csv')],
        {
          env: cleanEnv(env),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      // The reader is gone before the first line: every write to stdout is EPIPE.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(ran.stderr).not.toMatch(/EPIPE|Unhandled|node:internal/);
    expect(ran.code).toBe(1);
  });

  it('never exits 0 when a closed pipe cut the run short (2>&1 | head with bad rows ahead)', async () => {
    const bad = file(
      'cut.csv',
      `reference,amount,status\n${Array.from({ length: 50 }, (_, i) => `ord_${i},abc,paid`).join('\n')}\n`,
    );
    const ran = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [CLI_BIN, 'reconcile', bad, '--out', join(dir, 'cut.report.csv')],
        {
          env: cleanEnv(env),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      // The reader of the notes is gone: the first note is EPIPE, long before the run is over.
      child.stderr.destroy();
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(ran.stdout).not.toMatch(/EPIPE|Unhandled|node:internal/);
    expect(ran.code).toBe(1);
  });
});
