/** Running `wallet doctor` and reading its report, for the doctor's tests. */
import { expect } from 'vitest';

import { TEST_KEY, wallet } from './processes.js';
import type { Loopback } from './servers.js';

/** `wallet doctor` with the test key and `env`. */
export const doctor = (env: Record<string, string>, ...args: string[]) =>
  wallet(['doctor', ...args], { env: { WALLET_SECRET_KEY: TEST_KEY, ...env } });

/** The doctor's line for one check: `STATUS  name  detail`, then its fix when it has one. */
export function check(stdout: string, name: string): string {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^\\S+\\s+${name}\\s`).test(l));
  expect(at, `no line for ${name} in:\n${stdout}`).toBeGreaterThanOrEqual(0);
  const fix = lines[at + 1]?.trim().startsWith('fix:') ? `\n${lines[at + 1]!.trim()}` : '';
  return lines[at]! + fix;
}

/** `wallet doctor` against `server`, closed afterwards. */
export async function against(server: Promise<Loopback>, env: Record<string, string> = {}) {
  const s = await server;
  try {
    return await doctor({ WALLET_BASE_URL: s.url, ...env });
  } finally {
    await s.close();
  }
}
