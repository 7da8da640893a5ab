/**
 * Proofs that wait for a piece another branch is building. Each runs as `it.fails` with the
 * missing piece in its title, so CI stays green while the piece is missing, and turns red the
 * moment the piece lands (then its line here is deleted). Empty once everything has landed.
 */
import { it } from 'vitest';

/** Proof title → the piece it waits for. */
const PENDING: Record<string, string> = {};

/** `it`, or `it.fails` naming the missing piece while the proof waits for one. */
export function proof(title: string, body: () => Promise<void> | void): void {
  const missing = PENDING[title];
  if (missing) it.fails(`${title} [expected to fail until ${missing} lands]`, body);
  else it(title, body);
}
