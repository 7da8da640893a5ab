/**
 * `wallet doctor`: what a merchant gets wrong first, each check with a pass or fail line and the
 * fix. Exit 0 when nothing failed (warnings allowed), 1 otherwise.
 */
import type { Wallet } from '@wallet/node';

import { createClient, keyOf, type ClientFlags } from '../client.js';
import {
  checkBaseUrl,
  checkClock,
  checkDns,
  checkKey,
  checkProxy,
  checkRoundTrip,
  checkTls,
  type CheckResult,
  type DoctorState,
} from '../doctor/checks.js';
import { OK, PROBLEM, type Output } from '../output.js';

/** Runs every check in order; resolves to the exit code. */
export async function doctorCommand(
  flags: ClientFlags,
  out: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const state: DoctorState = { key: keyOf(flags, env), baseUrl: undefined, proxied: false };
  const results: CheckResult[] = [];
  const { green, red, yellow, dim } = out.colors;
  const show = (r: CheckResult): void => {
    results.push(r);
    const word = {
      pass: green('pass'),
      fail: red('FAIL'),
      warn: yellow('warn'),
      'n/a': dim('n/a '),
      skipped: dim('skip'),
    }[r.status];
    out.line(`${word}  ${r.name.padEnd(10)} ${r.detail}`);
    if (r.fix !== undefined) out.line(`      ${' '.repeat(10)} fix: ${r.fix}`);
  };
  const key = checkKey(state);
  show(key);
  const url = checkBaseUrl(state, flags.baseUrl ?? env.WALLET_BASE_URL);
  show(url);
  show(checkProxy(state, env));
  show(await checkDns(state));
  show(await checkTls(state));
  let wallet: Wallet | undefined;
  if (key.status === 'pass' && url.status === 'pass')
    wallet = createClient(flags, { maxRetries: 0, timeout: 10_000 });
  try {
    show(await checkRoundTrip(state, wallet));
  } finally {
    await wallet?.close();
  }
  show(checkClock(state));
  const failed = results.filter((r) => r.status === 'fail').length;
  out.data({ ok: failed === 0, checks: results });
  out.line();
  out.line(
    failed === 0 ? green('All checks passed.') : red(`${failed} check(s) failed: see the fix under each.`),
  );
  return failed === 0 ? OK : PROBLEM;
}
