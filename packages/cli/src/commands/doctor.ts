/** `wallet doctor`: each check in order with pass or fail and the fix; a check an earlier failure made meaningless is skipped. */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { connect } from 'node:tls';

import {
  isApiError,
  isConnectionError,
  isValidationError,
  RateLimitError,
  ValidationError,
  Wallet,
  type ApiError,
} from '@wallet/node';

import { createClient, type ClientFlags } from '../client.js';
import { OK, PROBLEM, terminalMessage, type Output } from '../output.js';

/** How one check ended (the name is added when it is shown). */
interface Check {
  readonly status: 'pass' | 'fail' | 'warn' | 'n/a' | 'skipped';
  readonly detail: string;
  readonly fix?: string;
}

const pass = (detail: string): Check => ({ status: 'pass', detail });
const fail = (detail: string, fix: string): Check => ({ status: 'fail', detail, fix });
const SKEW_LIMIT_S = 30;

/**
 * Builds a client with `options` and returns the SDK's words for what it refuses in `option` alone,
 * or undefined. Another setting it reads (a proxy variable with NODE_USE_ENV_PROXY=1) is not this
 * check's: the round trip reports it, never as a bad key or base URL.
 */
function refusal(options: ConstructorParameters<typeof Wallet>[0], option: string): string | undefined {
  try {
    new Wallet(options);
    return undefined;
  } catch (error) {
    if (!isValidationError(error)) return (error as Error).message.split('\n').slice(0, 3).join(' ');
    const own = error.issues.filter((issue) => issue.path === option);
    return own.length === 0 ? undefined : new ValidationError('Wallet options', own).message;
  }
}

function checkKey(key: string | undefined, source: string): Check {
  const fix =
    'Set WALLET_SECRET_KEY to the secret key from the dashboard: sk_test_… for the sandbox, sk_live_… in production.';
  if (key === undefined || key === '') return fail('WALLET_SECRET_KEY is not set', fix);
  // The SDK's own rules and words (whitespace, quotes, a public key, nothing after the prefix): a
  // key it refuses must fail here, not pass and then stop the round trip. Its words never repeat the key.
  const why = refusal({ apiKey: key, baseUrl: 'http://127.0.0.1', logLevel: 'off' }, 'apiKey');
  if (why !== undefined)
    return fail(
      why.replace(/^Invalid Wallet options: apiKey: /, 'the key ').replaceAll('apiKey', source),
      fix,
    );
  return pass(`${key.startsWith('sk_live_') ? 'live' : 'test'} mode (${key.slice(0, 8)}…)`);
}

function checkBaseUrl(raw: string | undefined, name: string): [Check, URL?] {
  const fix =
    'Set WALLET_BASE_URL to the service address from the dashboard (https://…), or http://127.0.0.1:PORT for the sandbox.';
  if (raw === undefined || raw === '') return [fail('WALLET_BASE_URL is not set', fix)];
  // The SDK's own rules (https only except loopback, no /v1 path): the same words a merchant sees.
  // logLevel given: a bad WALLET_LOG is the round trip's to report, not the base URL's.
  const why = refusal({ apiKey: 'sk_test_doctor_probe_key', baseUrl: raw, logLevel: 'off' }, 'baseUrl');
  // Its fix names where the value is set: the variable or the flag, not the option the doctor passed.
  if (why !== undefined) return [fail(why.replace(/\bbaseUrl\b/g, name), fix)];
  const url = new URL(raw);
  return [pass(url.href), url];
}

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

/** A proxy variable as shown: its password hidden. */
function hidden(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url !== undefined && (url.username || url.password)) {
    [url.username, url.password] = ['***', ''];
    return url.href;
  }
  // Without a scheme (curl takes user:pass@host:port), URL reads `user:` as the scheme: hidden by hand,
  // up to the last @ (a password may hold a #, ? or /, which URL cannot read as one).
  const byHand = value.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?\S*@/i, '$1***@');
  return byHand === value && url !== undefined ? url.href : byHand;
}

/** The proxy check, and whether API calls go through the proxy (so direct checks do not apply). */
function checkProxy(env: NodeJS.ProcessEnv): [Check, boolean] {
  const set = PROXY_VARS.filter((v) => env[v] !== undefined && env[v] !== '');
  if (set.length === 0) return [pass('no proxy variables set: direct connections'), false];
  const shown = set.map((v) => `${v}=${hidden(env[v]!)}`).join(', ');
  if (env.NODE_USE_ENV_PROXY === '1' && set.some((v) => !/no_proxy/i.test(v)))
    return [pass(`through the proxy (NODE_USE_ENV_PROXY=1): ${shown}`), true];
  return [
    {
      status: 'warn',
      detail: `${shown} set, but the SDK connects directly: it uses proxy variables only with NODE_USE_ENV_PROXY=1 or new Wallet({ proxy: 'env' })`,
      fix: "If this network needs the proxy, set NODE_USE_ENV_PROXY=1 (or pass proxy: 'env'); if not, unset the variables so no one is misled.",
    },
    false,
  ];
}

async function checkDns(url: URL | undefined, proxied: boolean): Promise<Check> {
  const host = url?.hostname.replace(/^\[|\]$/g, '');
  if (host === undefined) return { status: 'skipped', detail: 'no valid base URL' };
  if (isIP(host) !== 0) return { status: 'n/a', detail: `${host} is an IP address` };
  if (proxied) return { status: 'n/a', detail: 'the proxy resolves the host' };
  try {
    return pass(`${host} -> ${(await lookup(host)).address}`);
  } catch (error) {
    return fail(
      `${host} does not resolve (${(error as { code?: string }).code ?? String(error)})`,
      "Check the host in WALLET_BASE_URL for a typo, and this machine's DNS (resolv.conf, VPN).",
    );
  }
}

async function checkTls(url: URL | undefined, proxied: boolean): Promise<Check> {
  if (url === undefined) return { status: 'skipped', detail: 'no valid base URL' };
  if (url.protocol === 'http:')
    return { status: 'n/a', detail: `http: on loopback (${url.host}): no TLS, as for the sandbox` };
  if (proxied) return { status: 'n/a', detail: "through the proxy's tunnel: the round trip checks it" };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const fix =
    "The service requires TLS 1.3 and the SDK refuses less. A TLS-inspecting proxy or firewall is the usual cause: exempt the service's host, or upgrade it.";
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port: Number(url.port || 443),
      servername: isIP(host) ? undefined : host,
      minVersion: 'TLSv1.2',
      ALPNProtocols: ['http/1.1'],
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('timed out after 10 s')));
    socket.once('secureConnect', () => {
      const protocol = socket.getProtocol();
      socket.end();
      resolve(
        protocol === 'TLSv1.3'
          ? pass(`${url.host} negotiated TLSv1.3`)
          : fail(`${url.host} negotiated ${protocol ?? 'no protocol'}, not TLSv1.3`, fix),
      );
    });
    socket.once('error', (error: Error & { code?: string }) => {
      const tooOld = /protocol version|wrong version|unsupported protocol/i.test(error.message);
      resolve(
        fail(
          `${url.host}: ${error.code ?? ''} ${error.message}`.trim(),
          tooOld
            ? fix
            : 'Check the certificate chain (NODE_EXTRA_CA_CERTS for a private CA) and that the port speaks TLS.',
        ),
      );
    });
  });
}

function apiFailure(error: ApiError, url: URL | undefined): Check {
  if (error.status === 401)
    return fail(
      `401: the service refused the key (${error.message.split('\n')[0]})`,
      'Use a key of this environment: a test key for the sandbox, a live key for production; check it was not revoked.',
    );
  if (error.status === 403)
    return fail(
      "403: the key is locked to an IP allow list, and this machine's address is not on it",
      "Add this server's outbound IP address to the key's allow list in the dashboard (behind NAT, the gateway's public address).",
    );
  if (error.code === 'endpoint_not_found')
    return fail(
      "404 from something that is not the Wallet service: no endpoint at this base URL's path",
      `Set WALLET_BASE_URL to the service's address plus any gateway prefix, without /v1 (now ${url?.href ?? 'unset'}); behind a proxy, check it forwards the path unchanged.`,
    );
  // An outage or a rate limit says nothing of the setup: advice to change a good base URL would mislead.
  const said = `${error.status}: ${error.message.split('\n')[0]}`;
  if (error.status >= 500)
    return fail(
      said,
      `The service answered ${error.status}: a failure on its side (or a gateway's on the way), not in your key or address. Run wallet doctor again in a few minutes.`,
    );
  const wait =
    error instanceof RateLimitError && error.retryAfter !== undefined
      ? ` ${Math.ceil(error.retryAfter)} s`
      : '';
  if (error.status === 429)
    return fail(
      said,
      `The service is limiting this key's requests (other processes with it are sending many): wait${wait} and run wallet doctor again.`,
    );
  return fail(said, 'Check WALLET_BASE_URL points at the service itself, not a gateway that rewrites paths.');
}

/** The round trip (skipped without `flags`), and the `Date` header of its answer when one came back. */
async function checkRoundTrip(
  flags: ClientFlags | undefined,
  url: URL | undefined,
): Promise<[Check, (string | undefined)?]> {
  if (flags === undefined) return [{ status: 'skipped', detail: 'needs a valid key and base URL' }];
  // A reference nobody uses: an authenticated 404 proves key, route and network all work.
  const probe = `wallet_doctor_${Date.now().toString(36)}`;
  let wallet: Wallet;
  try {
    wallet = createClient(flags, { maxRetries: 0, timeout: 10_000 });
  } catch (error) {
    // The rest of the setup (WALLET_LOG, WALLET_TRANSPORT, a proxy option): a failed check, not a crash.
    const why = (error as Error).message.split('\n').slice(0, 3).join(' ');
    return [fail(why, 'Fix the setting named above: the SDK refuses to start with it.')];
  }
  try {
    const { response } = await wallet.charges.verify(probe).withResponse();
    return [pass(`authenticated GET /v1/charges/verify answered ${response.status}`), response.headers.date];
  } catch (error) {
    if (isApiError(error)) {
      const answer =
        error.status === 404 && error.code === 'not_found'
          ? pass('authenticated: the service answered 404 for a probe reference, as it should')
          : apiFailure(error, url);
      return [answer, error.headers.date];
    }
    const code = (error as { cause?: { code?: string } }).cause?.code;
    const fix =
      isConnectionError(error) && code === 'ECONNREFUSED'
        ? `Nothing is listening at ${url?.host ?? 'the base URL'}: start the sandbox (npx wallet-sandbox --port N) or fix WALLET_BASE_URL.`
        : 'Check the network path to the service (firewall, proxy, VPN) and the earlier checks.';
    return [fail((error as Error).message.split('\n')[0] ?? String(error), fix)];
  } finally {
    await wallet.close();
  }
}

function checkClock(serverDate: string | undefined): Check {
  if (serverDate === undefined) return { status: 'skipped', detail: 'no Date header came back' };
  const server = Date.parse(serverDate);
  if (Number.isNaN(server))
    return { status: 'warn', detail: `the Date header '${serverDate}' is not a date` };
  const skew = Math.round((Date.now() - server) / 1000);
  if (Math.abs(skew) <= SKEW_LIMIT_S) return pass(`within ${Math.max(Math.abs(skew), 1)} s of the service`);
  return fail(
    `this machine's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the service's`,
    "Sync the clock (NTP: `timedatectl set-ntp true`, or your platform's time service): prompt expiries and waits are judged by it.",
  );
}

export async function doctorCommand(flags: ClientFlags, out: Output): Promise<number> {
  const env = process.env;
  const results: ({ name: string } & Check)[] = [];
  const { green, red, yellow, dim } = out.colors;
  const WORD = {
    pass: green('pass'),
    fail: red('FAIL'),
    warn: yellow('warn'),
    'n/a': dim('n/a '),
    skipped: dim('skip'),
  };
  const show = (name: string, check: Check): Check => {
    results.push({ name, ...check });
    // A detail can carry the service's words (its message, its Date header): controls escaped.
    out.line(`${WORD[check.status]}  ${name.padEnd(10)} ${terminalMessage(check.detail)}`);
    if (check.fix !== undefined) out.line(`      ${' '.repeat(10)} fix: ${terminalMessage(check.fix)}`);
    return check;
  };
  const key = show(
    'key',
    checkKey(
      flags.apiKey ?? env.WALLET_SECRET_KEY,
      flags.apiKey === undefined ? 'WALLET_SECRET_KEY' : '--api-key',
    ),
  );
  const [urlCheck, url] = checkBaseUrl(
    flags.baseUrl ?? env.WALLET_BASE_URL,
    flags.baseUrl === undefined ? 'WALLET_BASE_URL' : '--base-url',
  );
  show('base URL', urlCheck);
  const [proxy, proxied] = checkProxy(env);
  show('proxy', proxy);
  show('DNS', await checkDns(url, proxied));
  show('TLS 1.3', await checkTls(url, proxied));
  const ready = key.status === 'pass' && urlCheck.status === 'pass';
  const [roundTrip, serverDate] = await checkRoundTrip(ready ? flags : undefined, url);
  show('round trip', roundTrip);
  show('clock', checkClock(serverDate));
  const failed = results.filter((r) => r.status === 'fail').length;
  out.data({ ok: failed === 0, checks: results });
  out.line();
  out.line(
    failed === 0 ? green('All checks passed.') : red(`${failed} check(s) failed: see the fix under each.`),
  );
  return failed === 0 ? OK : PROBLEM;
}
