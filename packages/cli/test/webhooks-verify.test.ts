/**
 * `wallet webhooks verify`: given the bytes a merchant's endpoint captured, it says whether they
 * verify, and when not, which common alteration (re-serialized, re-indented, a newline, CRLF,
 * re-encoded) or which secret explains it, never repeating the secret.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { signWebhook } from '@wallet/node/webhooks';

import { wallet } from './helpers/processes.js';

const SECRET = 'whsec_cli_test_secret';
const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-verify-'));

describe('wallet webhooks verify, diagnosing', () => {
  const event = {
    event: 'charge.success',
    data: { reference: 'ord_Ìyá', amount: 450_000, customer: { handle: '@ada' } },
  };
  const compact = JSON.stringify(event);
  const indented = `${JSON.stringify(event, null, 2)}\n`;

  async function diagnose(
    sent: string,
    captured: Buffer | string,
    secrets: string[] = [SECRET],
    signedWith = SECRET,
  ) {
    const { signature } = signWebhook(sent, signedWith);
    const file = join(dir, `body-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, captured);
    const ran = await wallet([
      'webhooks',
      'verify',
      file,
      '--signature',
      signature,
      '--json',
      ...secrets.flatMap((s) => ['--secret', s]),
    ]);
    return {
      ...ran,
      result: JSON.parse(ran.stdout) as {
        verifies: boolean;
        alteration: string | null;
        secretIndex: number | null;
        cause: string;
      },
    };
  }

  it.each([
    ['an indented body re-serialized compact', indented, compact, 'reserialized_compact'],
    [
      'a compact body re-serialized indented',
      compact,
      JSON.stringify(event, null, 2),
      'reserialized_indented',
    ],
    ['a trimmed final newline', indented, indented.trimEnd(), 'final_newline_trimmed'],
    [
      'an indented body re-indented (4 spaces)',
      indented,
      `${JSON.stringify(event, null, 4)}\n`,
      'reindented',
    ],
    ['an added final newline', compact, `${compact}\n`, 'final_newline_added'],
    ['CRLF line endings', indented, indented.replace(/\n/g, '\r\n'), 'crlf'],
    [
      'UTF-8 read as Latin-1',
      compact,
      Buffer.from(Buffer.from(compact).toString('latin1'), 'utf8'),
      're_encoded',
    ],
  ])('names %s as the cause', async (_name, sent, captured, alteration) => {
    const ran = await diagnose(sent, captured);
    expect(ran.code).toBe(1);
    expect(ran.result).toMatchObject({ verifies: false, alteration });
  });

  it('exits 2 for an empty --secret (an unset variable), as trigger does, instead of a verdict', async () => {
    const { signature } = signWebhook(compact, SECRET);
    const ran = await wallet(['webhooks', 'verify', '--secret', '', '--signature', signature], {
      input: compact,
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--secret');
  });

  it('exits 2 for the same --secret given twice (the second was meant to be another), never repeating it', async () => {
    const { signature } = signWebhook(compact, 'whsec_old');
    const ran = await wallet(
      ['webhooks', 'verify', '--secret', SECRET, '--secret', SECRET, '--signature', signature],
      { input: compact },
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('2nd --secret is the same as the 1st');
    expect(ran.stderr).not.toContain(SECRET);
  });

  it('names the other secret when the delivery was signed with the second --secret', async () => {
    const ran = await diagnose(compact, compact, [SECRET, 'whsec_old'], 'whsec_old');
    expect(ran.code).toBe(1);
    expect(ran.result).toMatchObject({ verifies: false, secretIndex: 1, alteration: null });
    expect(ran.result.cause).toContain('2nd --secret');
  });

  // WALLET_WEBHOOK_SECRET as Docker's --env-file or a secrets file leaves it: the SDK's own mismatch names it, the verdict must too.
  it.each([
    ['a line break at its end', `${SECRET}\n`],
    ['quotes around it', `"${SECRET}"`],
  ])('names a --secret with %s, never blaming a wrong secret', async (_, secret) => {
    const ran = await diagnose(compact, compact, [secret]);
    expect(ran.code).toBe(1);
    expect(ran.result).toMatchObject({ verifies: false, alteration: null });
    expect(ran.result.cause).toMatch(/whitespace or quotes at its ends/);
    expect(ran.result.cause).toMatch(/verifies with it once they are removed/);
    expect(ran.result.cause).not.toContain('most likely wrong');
    expect(ran.stdout).not.toContain(SECRET);
  });

  // One value sent twice ("SIG, SIG": a header repeated) is what the SDK's verifier takes: the real
  // cause is the body or the secret, never "the SDK refuses that form".
  it('blames the body or the secret, not the header, for a signature sent twice', async () => {
    const { signature } = signWebhook(compact, SECRET);
    const run = async (captured: string, secret: string) => {
      const ran = await wallet(
        ['webhooks', 'verify', '--secret', secret, '--signature', `${signature}, ${signature}`, '--json'],
        { input: captured },
      );
      return JSON.parse(ran.stdout) as { verifies: boolean; alteration: string | null; cause: string };
    };
    expect(await run(compact, SECRET)).toMatchObject({ verifies: true });
    const reindented = await run(indented, SECRET);
    expect(reindented).toMatchObject({ verifies: false, alteration: 'reserialized_indented' });
    const wrongSecret = await run(compact, 'whsec_someone_else');
    expect(wrongSecret.cause).toContain('the secret is most likely wrong');
    expect([reindented.cause, wrongSecret.cause].join(' ')).not.toContain('refuses that form');
  });

  it('says when no common alteration explains it, and verifies an untouched body', async () => {
    const tampered = await diagnose(compact, compact.replace('450000', '45000'));
    expect(tampered.result).toMatchObject({ verifies: false, alteration: null });
    expect(tampered.result.cause).toContain('the secret is most likely wrong');
    const otherSecret = await diagnose(compact, compact, [SECRET], 'whsec_someone_else');
    expect(otherSecret.result.cause).toContain('The signature is well formed');
    const malformed = await wallet(
      ['webhooks', 'verify', '--secret', SECRET, '--signature', 'sha512=xyz', '--json'],
      {
        input: compact,
      },
    );
    expect(JSON.parse(malformed.stdout)).toMatchObject({ verifies: false, alteration: null });
    expect((JSON.parse(malformed.stdout) as { cause: string }).cause).toMatch(
      /^The signature is malformed: the service sends 128 hex digits \(HMAC-SHA512\), this is 3 character\(s\) with some that are not hex/,
    );
    const untouched = await diagnose(indented, indented);
    expect(untouched.code).toBe(0);
    expect(untouched.result.verifies).toBe(true);
  });
});
