/** Who a report was made against (the key's mode and the service's address, never the key), kept beside it: `--resume` must not put two environments' answers in one report. */
import {
  existsSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';

import { stringify } from 'csv-stringify/sync';

import { createClient, type ClientFlags } from '../client.js';
import { UsageError } from '../output.js';
import { COLUMNS, type ReportFormat } from './report.js';

/** The mode of the key (`test` or `live`) and the service's address: nothing a key can be recovered from. */
export interface Origin {
  mode: 'live' | 'test';
  service: string;
}

/** The file beside the report that holds its {@link Origin}. */
export const originFile = (report: string): string => `${report}.origin`;

/** This run's origin, from the flags or the environment; the SDK's words when the key or address is missing. */
export function originOf(flags: ClientFlags): Origin {
  const wallet = createClient(flags);
  const origin: Origin = { mode: wallet.mode, service: wallet.baseUrl };
  void wallet.close(); // it sent nothing
  return origin;
}

const said = (o: Origin): string => `${o.mode} mode at ${o.service}`;

/** Whether a report holds anything past its header: one stopped before its first row (a refused key) mixes nothing. */
export function holdsRows(report: string, format: ReportFormat): boolean {
  const header = format === 'csv' ? stringify([[...COLUMNS]]) : '';
  if (statSync(report).size > Buffer.byteLength(header)) return true;
  const text = readFileSync(report, 'utf8');
  return text !== '' && text !== header;
}

/**
 * Refuses to carry on a report made against another mode or service. A report with no origin beside
 * it (written before this check existed) is carried on, with a note: refusing it would strand every
 * interrupted run of an earlier version.
 */
export function sameOrigin(report: string, now: Origin, note: (text: string) => void, rows: boolean): void {
  const file = originFile(report);
  if (!existsSync(file)) {
    note(`${file} is missing, so which mode and service ${report} was made against is unknown: resuming.`);
    return;
  }
  // No row yet (a refused key stopped it, and said to fix the key and resume): nothing to mix.
  if (!rows) return;
  let made: Partial<Origin> | undefined;
  try {
    made = JSON.parse(readFileSync(file, 'utf8')) as Partial<Origin>;
  } catch {
    made = undefined;
  }
  if (typeof made?.mode !== 'string' || typeof made.service !== 'string')
    throw new UsageError(
      `Not resumed: ${file} does not say which mode and service ${report} was made against. Nothing was written. Run without --resume to start over, or give --out another file.`,
    );
  if (made.mode === now.mode && made.service === now.service) return;
  throw new UsageError(
    `Not resumed: ${report} was made against ${said(made as Origin)}, this run is against ${said(now)}; its rows and this run's would mix two environments' answers in one report. Nothing was written. Resume with the key mode and WALLET_BASE_URL it was made with, run without --resume to start over, or give --out another file.`,
  );
}

// Where the shell's descriptors are (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`): stat sees the file
// a descriptor was redirected to (`> report.csv`), yet no file can be made beside it (or, as root, one
// is made in /dev).
const DESCRIPTORS = /^\/(?:dev|proc)(?:\/|$)/;

const cannot = (file: string, error: unknown): Error =>
  new Error(`cannot write ${file}: ${(error as Error).message}`, { cause: error });

/**
 * Records the origin of the report about to be written; none beside a device or descriptor
 * (`--out /dev/stdout`), which no run resumes. A run that starts the report over (`replacing`)
 * empties it first: one it cannot write (no permission, a spreadsheet holding it) keeps its rows,
 * and the origin they were made against with them.
 */
export function writeOrigin(report: string, origin: Origin, replacing: boolean): void {
  if (existsSync(report) && !statSync(report).isFile()) return;
  if (DESCRIPTORS.test(realpathSync(dirname(report)))) return;
  if (replacing && existsSync(report))
    try {
      truncateSync(report);
    } catch (error) {
      throw cannot(report, error);
    }
  // Beside it, then renamed over: a write that fails (a full disk) leaves the origin as it was, never
  // an empty one that strands the report (a resume refuses an origin that says nothing).
  const file = originFile(report);
  try {
    writeFileSync(`${file}.new`, `${JSON.stringify(origin)}\n`);
    renameSync(`${file}.new`, file);
  } catch (error) {
    rmSync(`${file}.new`, { force: true });
    throw cannot(file, error);
  }
}
