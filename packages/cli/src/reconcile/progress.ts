/** A run's progress on stderr: a bar redrawn ten times a second on a terminal, else a plain line every few seconds; none with `--quiet`. */
import { VERDICTS, type ReconcileProgress, type Verdict } from '@wallet/node';

import type { Output } from '../output.js';

const REDRAW_MS = 100;
const PLAIN_EVERY_MS = 5_000;
const BAR_WIDTH = 24;

/** Draws a run's progress on stderr; `stop` clears the bar so the summary prints on a clean line. */
export interface Progress {
  update(progress: ReconcileProgress): void;
  stop(): void;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.round(seconds);
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return `${h > 0 ? `${h}:` : ''}${String(m).padStart(h > 0 ? 2 : 1, '0')}:${String(r).padStart(2, '0')}`;
}

export type Counts = Record<Verdict, number>;

export function noCounts(): Counts {
  return Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Counts;
}

/** The counts that are not zero, as `match 12 · error 1`. */
export function verdictCounts(verdicts: Readonly<Partial<Record<Verdict, number>>>): string {
  return Object.entries(verdicts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([v, n]) => `${v} ${(n ?? 0).toLocaleString('en')}`)
    .join(' · ');
}

/** The rows already in the report before this run (a resume), and their verdicts. */
export interface Before {
  done: number;
  verdicts: Readonly<Partial<Record<Verdict, number>>>;
}

/** `[####----]  45%  4,500/10,000  1,234/s  ETA 0:04  match 4,400 · …` (counts include a resume's rows). */
export function progressLine(p: ReconcileProgress, elapsedMs: number, total: number, before: Before): string {
  const rate = elapsedMs > 0 ? (p.done * 1000) / elapsedMs : 0;
  const done = before.done + p.done;
  const all: Partial<Record<Verdict, number>> = { ...before.verdicts };
  for (const [v, n] of Object.entries(p.verdicts) as [Verdict, number][]) all[v] = (all[v] ?? 0) + n;
  const counts = verdictCounts(all);
  const rateText = `${Math.round(rate).toLocaleString('en')}/s`;
  if (total === 0) return `${done.toLocaleString('en')} rows  ${rateText}  ${counts}`;
  const share = Math.min(done / total, 1);
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const eta = rate > 0 ? Math.max(total - done, 0) / rate : Number.POSITIVE_INFINITY;
  const pct = `${Math.floor(share * 100)}%`.padStart(4);
  return `${bar} ${pct}  ${done.toLocaleString('en')}/${total.toLocaleString('en')}  ${rateText}  ETA ${duration(eta)}  ${counts}`;
}

export function createProgress(out: Output, quiet: boolean, total: number, before: Before): Progress {
  const started = performance.now();
  const line = (p: ReconcileProgress): string => progressLine(p, performance.now() - started, total, before);
  if (quiet || out.json) return { update: () => undefined, stop: () => undefined };
  if (process.stderr.isTTY !== true) {
    let printed = started;
    return {
      update(p) {
        if (performance.now() - printed < PLAIN_EVERY_MS) return;
        printed = performance.now();
        out.note(line(p));
      },
      stop: () => undefined,
    };
  }
  let latest: ReconcileProgress | undefined;
  let drawn: ReconcileProgress | undefined;
  const draw = (): void => {
    if (latest === undefined || latest === drawn) return;
    drawn = latest;
    const width = process.stderr.columns > 20 ? process.stderr.columns - 1 : 119;
    process.stderr.write(`\r\x1b[2K${line(latest).slice(0, width)}`);
  };
  // Redrawn on a timer, never per row: at most ten frames a second whatever the row rate.
  let timer: NodeJS.Timeout | undefined = setInterval(draw, REDRAW_MS).unref();
  return {
    update(p) {
      latest = p;
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      draw();
      process.stderr.write('\r\x1b[2K');
    },
  };
}
