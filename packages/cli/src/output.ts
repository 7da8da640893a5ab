/**
 * How the command line speaks: colours only on a terminal and never with `NO_COLOR`, JSON with
 * `--json`, and the exit codes every command shares (0 all is well, 1 a problem found, 2 a usage
 * error).
 */
import pc from 'picocolors';
import { escapeControls } from '@wallet/node/workspace';

/** All is well. */
export const OK = 0;
/** The command ran and found a problem: a mismatch, a failed check, a refused request. */
export const PROBLEM = 1;
/** The command line itself was wrong: a missing argument, an unknown flag, a bad value. */
export const USAGE = 2;

/** A mistake in how the command was called: exits 2 with this message. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Where a command writes, and whether it writes for people or for programs. */
export interface Output {
  readonly json: boolean;
  readonly stdoutIsTty: boolean;
  readonly stderrIsTty: boolean;
  readonly colors: ReturnType<typeof pc.createColors>;
  /** A line for people on stdout (nothing with `--json`). */
  line(text?: string): void;
  /** A line on stderr: progress and warnings, so stdout stays the result. */
  note(text: string): void;
  /** The result as one JSON document on stdout (only with `--json`). */
  data(value: unknown): void;
}

function colorsWanted(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  // https://no-color.org: present and not empty disables colour; FORCE_COLOR wins for CI logs.
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The output of one run, from its `--json` flag and the process's streams and environment. */
export function createOutput(json: boolean, env: NodeJS.ProcessEnv = process.env): Output {
  const colors = pc.createColors(!json && colorsWanted(process.stdout, env));
  return {
    json,
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    colors,
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

/** Pads a table's columns to their widest cell: numbers right-aligned, words left-aligned. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(cell).length)));
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - visible(cell).length);
        // Counts line up on the right; words read from the left.
        return /^[\d,.]+$/.test(visible(cell)) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
/** Text as the terminal shows it (colour codes take no room). */
export function visible(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
 * first) gets a leading `'` (OWASP's CSV injection advice); any other text is returned as is.
 */
export function inertCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Text from the ledger or the service, fit for a terminal line: formula cells made inert and
 * every control character escaped (no escape sequence can erase, recolour or hide a line).
 */
export function terminalText(text: string): string {
  return escapeControls(inertCell(text));
}

/** A message (the SDK's or the service's) for a terminal: its own line breaks kept, controls escaped. */
export function terminalMessage(text: string): string {
  return text.split('\n').map(escapeControls).join('\n');
}
