/**
 * Figures a proof measures (bundle sizes), printed and appended to
 * test/artifacts/proofs-figures.txt for the notes; the per-proof times come from the reporter in
 * vitest.proofs.config.ts.
 */
import { appendFileSync, mkdirSync } from 'node:fs';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);

export function recordFigure(name: string, value: string): void {
  const line = `figure: ${name}: ${value}`;
  console.log(line);
  mkdirSync(ARTIFACTS, { recursive: true });
  appendFileSync(new URL('proofs-figures.txt', ARTIFACTS), `${new Date().toISOString()} ${line}\n`);
}
