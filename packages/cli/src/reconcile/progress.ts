/**
 * Progress of a reconcile run. On a terminal: one bar redrawn in place at most ten times a second,
 * with rate, ETA and counts by verdict. Not on a terminal: a plain line at most every few seconds
 * (CI logs stay short), or nothing with `--quiet`.
 */
import type { ReconcileProgress, Verdict } from '@wallet/node';

import type { Output } from '../output.js';

const REDRAW_MS = 100;
const PLAIN_EVERY_MS = 5_000;
const BAR_WIDTH = 24;

/** Draws a run's progress on stderr. */
export interface Progress {
  update(progress: ReconcileProgress): void;
  /** Clears the bar (on a terminal), so the summary prints on a clean line. */
  stop(): void;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.round(seconds);
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return `${h > 0 ? `${h}:` : ''}${String(m).padStart(h > 0 ? 2 : 1, '0')}:${String(r).padStart(2, '0')}`;
}

/** The counts that are not zero, as `match 12 · error 1`. */
export function verdictCounts(verdicts: Readonly<Partial<Record<Verdict, number>>>): string {
  return Object.entries(verdicts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([v, n]) => `${v} ${(n ?? 0).toLocaleString('en')}`)
    .join(' · ');
}

/** One progress line: `[####----]  45%  4,500/10,000  1,234/s  ETA 0:04  match 4,400 · …`. */
export function progressLine(p: ReconcileProgress, elapsedMs: number, total: number | undefined): string {
  const rate = elapsedMs > 0 ? (p.done * 1000) / elapsedMs : 0;
  const counts = verdictCounts(p.verdicts);
  const rateText = `${Math.round(rate).toLocaleString('en')}/s`;
  if (total === undefined || total === 0)
    return `${p.done.toLocaleString('en')} rows  ${rateText}  ${counts}`;
  const share = Math.min(p.done / total, 1);
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const eta = rate > 0 ? (total - p.done) / rate : Number.POSITIVE_INFINITY;
  const pct = `${Math.floor(share * 100)}%`.padStart(4);
  return `${bar} ${pct}  ${p.done.toLocaleString('en')}/${total.toLocaleString('en')}  ${rateText}  ETA ${duration(eta)}  ${counts}`;
}

/** The progress display for this run's output and flags. */
export function createProgress(
  out: Output,
  quiet: boolean,
  total: number | undefined,
  offset: number,
): Progress {
  const started = performance.now();
  let latest: ReconcileProgress | undefined;
  const shifted = (p: ReconcileProgress): ReconcileProgress => ({ ...p, done: p.done + offset });
  const elapsed = (): number => performance.now() - started;
  if (quiet || out.json) return { update: () => undefined, stop: () => undefined };
  if (!out.stderrIsTty) {
    let lastPrinted = performance.now();
    return {
      update(p) {
        latest = p;
        if (performance.now() - lastPrinted < PLAIN_EVERY_MS) return;
        lastPrinted = performance.now();
        out.note(progressLine(shifted(p), elapsed(), total));
      },
      stop: () => undefined,
    };
  }
  let drawn: ReconcileProgress | undefined;
  const draw = (): void => {
    if (latest === undefined || latest === drawn) return;
    drawn = latest;
    const width = process.stderr.columns > 20 ? process.stderr.columns - 1 : 119;
    process.stderr.write(`\r\x1b[2K${progressLine(shifted(latest), elapsed(), total).slice(0, width)}`);
  };
  // Redrawn on a timer, never per row: at most ten frames a second whatever the row rate.
  const timer = setInterval(draw, REDRAW_MS);
  timer.unref();
  return {
    update(p) {
      latest = p;
    },
    stop() {
      clearInterval(timer);
      draw();
      process.stderr.write('\r\x1b[2K');
    },
  };
}
