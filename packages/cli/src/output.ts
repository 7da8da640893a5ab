/** How the command line speaks: colours, `--json`, safe text, and the exit codes every command shares. */
import pc from 'picocolors';
import { escapeControls } from '@wallet/node/workspace';

/** The text with every secret key cut to its prefix (`sk_live_…`): what was typed may hold one. */
export const withoutKeys = (text: string): string => text.replace(/\b(sk_(?:live|test)_)[^\s'"]*/g, '$1…');

/** Exit codes: all is well; a problem found (a mismatch, a failed check, a refused request); the command line was wrong. */
export const OK = 0;
export const PROBLEM = 1;
export const USAGE = 2;

/** A mistake in how the command was called: exits 2 with this message. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Where a command writes: `line` for people and `data` with `--json` on stdout, `note` (progress, warnings) on stderr. */
export interface Output {
  readonly json: boolean;
  readonly colors: ReturnType<typeof pc.createColors>;
  line(text?: string): void;
  note(text: string): void;
  data(value: unknown): void;
}

/** The output of one run, from its `--json` flag and the process's streams and environment. */
export function createOutput(json: boolean): Output {
  const env = process.env;
  // https://no-color.org: present and not empty disables colour; FORCE_COLOR wins for CI logs.
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const tty = process.stdout.isTTY === true && env.TERM !== 'dumb';
  return {
    json,
    colors: pc.createColors(!json && (forced || (!noColor && tty))),
    line: (text = '') => {
      if (!json) process.stdout.write(`${text}\n`);
    },
    note: (text) => {
      process.stderr.write(`${text}\n`);
    },
    data: (value) => {
      if (json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
  };
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/** Pads a table's columns to their widest cell (colour codes take no room): numbers right-aligned, words left. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const visible = (text: string): string => text.replace(ANSI, '');
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(cell).length)));
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - visible(cell).length);
        return /^[\d,.]+$/.test(visible(cell)) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

/** A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'` (OWASP). */
export function inertCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Ledger or service text for a terminal line: formula cells inert, every control character escaped. */
export function terminalText(text: string): string {
  return escapeControls(inertCell(text));
}

/**
 * A message (the SDK's or the service's) for a terminal: one line, every control escaped. Neither
 * the SDK's messages nor this CLI's hold a line break; one in the text came from the service (or
 * a ledger) and would print a line of its own, such as a forged "Refunded …".
 */
export function terminalMessage(text: string): string {
  return escapeControls(text);
}
