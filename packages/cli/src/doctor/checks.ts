/**
 * The checks of `wallet doctor`, each a function from what earlier checks learnt to a result with
 * its fix. They run in order; a check whose input an earlier failure made meaningless is skipped.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { connect } from 'node:tls';

import { isApiError, isConnectionError, Wallet, type ApiError } from '@wallet/node';

/** How a check ended. */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'n/a' | 'skipped';

/** One line of the doctor's report. */
export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
  readonly fix?: string;
}

/** What the checks share as they go. */
export interface DoctorState {
  key: string | undefined;
  baseUrl: URL | undefined;
  /** The `Date` header of the round trip, when one came back. */
  serverDate?: string | undefined;
  /** Proxy in use for API calls (NODE_USE_ENV_PROXY=1 and a variable set), so direct checks do not apply. */
  proxied: boolean;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const SKEW_LIMIT_S = 30;

export function checkKey(state: DoctorState): CheckResult {
  const key = state.key;
  const fix =
    'Set WALLET_SECRET_KEY to the secret key from the dashboard: sk_test_… for the sandbox, sk_live_… in production.';
  if (key === undefined || key === '')
    return { name: 'key', status: 'fail', detail: 'WALLET_SECRET_KEY is not set', fix };
  if (key !== key.trim())
    return {
      name: 'key',
      status: 'fail',
      detail: 'the key has spaces or a newline around it',
      fix: 'Remove the whitespace (a copied key, or an .env file with quotes).',
    };
  const mode = key.startsWith('sk_live_') ? 'live' : key.startsWith('sk_test_') ? 'test' : undefined;
  if (mode === undefined)
    return {
      name: 'key',
      status: 'fail',
      detail: `the key does not start with sk_live_ or sk_test_ (it starts '${key.slice(0, 3)}…')`,
      fix,
    };
  return { name: 'key', status: 'pass', detail: `${mode} mode (${key.slice(0, 8)}…)` };
}

export function checkBaseUrl(state: DoctorState, raw: string | undefined): CheckResult {
  const fix =
    'Set WALLET_BASE_URL to the service address from the dashboard (https://…), or http://127.0.0.1:PORT for the sandbox.';
  if (raw === undefined || raw === '')
    return { name: 'base URL', status: 'fail', detail: 'WALLET_BASE_URL is not set', fix };
  try {
    // The SDK's own rules (https only except loopback, no /v1 path): the same words a merchant sees.
    new Wallet({ apiKey: 'sk_test_doctor_probe_key', baseUrl: raw });
    state.baseUrl = new URL(raw);
    return { name: 'base URL', status: 'pass', detail: state.baseUrl.href };
  } catch (error) {
    return {
      name: 'base URL',
      status: 'fail',
      detail: (error as Error).message.split('\n').slice(0, 3).join(' '),
      fix,
    };
  }
}

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

function hidden(value: string): string {
  try {
    const url = new URL(value);
    if (url.username || url.password) [url.username, url.password] = ['***', ''];
    return url.href;
  } catch {
    return value;
  }
}

export function checkProxy(state: DoctorState, env: NodeJS.ProcessEnv): CheckResult {
  const set = PROXY_VARS.filter((v) => env[v] !== undefined && env[v] !== '');
  if (set.length === 0)
    return { name: 'proxy', status: 'pass', detail: 'no proxy variables set: direct connections' };
  const shown = set.map((v) => `${v}=${hidden(env[v]!)}`).join(', ');
  const proxyVar = set.find((v) => !/no_proxy/i.test(v));
  if (env.NODE_USE_ENV_PROXY === '1' && proxyVar !== undefined) {
    state.proxied = true;
    return { name: 'proxy', status: 'pass', detail: `through the proxy (NODE_USE_ENV_PROXY=1): ${shown}` };
  }
  return {
    name: 'proxy',
    status: 'warn',
    detail: `${shown} set, but the SDK connects directly: it uses proxy variables only with NODE_USE_ENV_PROXY=1 or new Wallet({ proxy: 'env' })`,
    fix: "If this network needs the proxy, set NODE_USE_ENV_PROXY=1 (or pass proxy: 'env'); if not, unset the variables so no one is misled.",
  };
}

export async function checkDns(state: DoctorState): Promise<CheckResult> {
  const host = state.baseUrl?.hostname.replace(/^\[|\]$/g, '');
  if (host === undefined) return { name: 'DNS', status: 'skipped', detail: 'no valid base URL' };
  if (isIP(host) !== 0) return { name: 'DNS', status: 'n/a', detail: `${host} is an IP address` };
  if (state.proxied) return { name: 'DNS', status: 'n/a', detail: 'the proxy resolves the host' };
  try {
    const { address } = await lookup(host);
    return { name: 'DNS', status: 'pass', detail: `${host} -> ${address}` };
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    return {
      name: 'DNS',
      status: 'fail',
      detail: `${host} does not resolve (${code})`,
      fix: "Check the host in WALLET_BASE_URL for a typo, and this machine's DNS (resolv.conf, VPN).",
    };
  }
}

export async function checkTls(state: DoctorState): Promise<CheckResult> {
  const url = state.baseUrl;
  if (url === undefined) return { name: 'TLS 1.3', status: 'skipped', detail: 'no valid base URL' };
  if (url.protocol === 'http:') {
    return {
      name: 'TLS 1.3',
      status: 'n/a',
      detail: `http: on loopback (${url.host}): no TLS, as for the sandbox`,
    };
  }
  if (state.proxied)
    return { name: 'TLS 1.3', status: 'n/a', detail: "through the proxy's tunnel: the round trip checks it" };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  const fix =
    "The service requires TLS 1.3 and the SDK refuses less. A TLS-inspecting proxy or firewall is the usual cause: exempt the service's host, or upgrade it.";
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port,
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
          ? { name: 'TLS 1.3', status: 'pass', detail: `${url.host} negotiated TLSv1.3` }
          : {
              name: 'TLS 1.3',
              status: 'fail',
              detail: `${url.host} negotiated ${protocol ?? 'no protocol'}, not TLSv1.3`,
              fix,
            },
      );
    });
    socket.once('error', (error: Error & { code?: string }) => {
      const detail = `${url.host}: ${error.code ?? ''} ${error.message}`.trim();
      const tooOld = /protocol version|wrong version|unsupported protocol/i.test(error.message);
      resolve({
        name: 'TLS 1.3',
        status: 'fail',
        detail,
        fix: tooOld
          ? fix
          : 'Check the certificate chain (NODE_EXTRA_CA_CERTS for a private CA) and that the port speaks TLS.',
      });
    });
  });
}

function apiFailure(error: ApiError, state: DoctorState): CheckResult {
  if (error.status === 401) {
    return {
      name: 'round trip',
      status: 'fail',
      detail: `401: the service refused the key (${error.message.split('\n')[0]})`,
      fix: 'Use a key of this environment: a test key for the sandbox, a live key for production; check it was not revoked.',
    };
  }
  if (error.status === 403) {
    return {
      name: 'round trip',
      status: 'fail',
      detail: "403: the key is locked to an IP allow list, and this machine's address is not on it",
      fix: "Add this server's outbound IP address to the key's allow list in the dashboard (behind NAT, the gateway's public address).",
    };
  }
  if (error.code === 'endpoint_not_found') {
    return {
      name: 'round trip',
      status: 'fail',
      detail: "404 from something that is not the Wallet service: no endpoint at this base URL's path",
      fix: `Set WALLET_BASE_URL to the service's address plus any gateway prefix, without /v1 (now ${state.baseUrl?.href ?? 'unset'}); behind a proxy, check it forwards the path unchanged.`,
    };
  }
  return {
    name: 'round trip',
    status: 'fail',
    detail: `${error.status}: ${error.message.split('\n')[0]}`,
    fix: 'Check WALLET_BASE_URL points at the service itself, not a gateway that rewrites paths.',
  };
}

export async function checkRoundTrip(state: DoctorState, wallet: Wallet | undefined): Promise<CheckResult> {
  if (wallet === undefined)
    return { name: 'round trip', status: 'skipped', detail: 'needs a valid key and base URL' };
  // A reference nobody uses: an authenticated 404 proves key, route and network all work.
  const probe = `wallet_doctor_${Date.now().toString(36)}`;
  try {
    const { response } = await wallet.charges.verify(probe).withResponse();
    state.serverDate = response.headers.date;
    return {
      name: 'round trip',
      status: 'pass',
      detail: `authenticated GET /v1/charges/verify answered ${response.status}`,
    };
  } catch (error) {
    if (isApiError(error)) state.serverDate = error.headers.date;
    if (isApiError(error) && error.status === 404 && error.code === 'not_found') {
      return {
        name: 'round trip',
        status: 'pass',
        detail: 'authenticated: the service answered 404 for a probe reference, as it should',
      };
    }
    if (isApiError(error)) return apiFailure(error, state);
    const code = (error as { cause?: { code?: string } }).cause?.code;
    const detail = (error as Error).message.split('\n')[0] ?? String(error);
    const fix =
      isConnectionError(error) && code === 'ECONNREFUSED'
        ? `Nothing is listening at ${state.baseUrl?.host ?? 'the base URL'}: start the sandbox (npx wallet-sandbox --port N) or fix WALLET_BASE_URL.`
        : 'Check the network path to the service (firewall, proxy, VPN) and the earlier checks.';
    return { name: 'round trip', status: 'fail', detail, fix };
  }
}

export function checkClock(state: DoctorState, now: number = Date.now()): CheckResult {
  if (state.serverDate === undefined)
    return { name: 'clock', status: 'skipped', detail: 'no Date header came back' };
  const server = Date.parse(state.serverDate);
  if (Number.isNaN(server))
    return { name: 'clock', status: 'warn', detail: `the Date header '${state.serverDate}' is not a date` };
  const skew = Math.round((now - server) / 1000);
  if (Math.abs(skew) <= SKEW_LIMIT_S)
    return {
      name: 'clock',
      status: 'pass',
      detail: `within ${Math.max(Math.abs(skew), 1)} s of the service`,
    };
  return {
    name: 'clock',
    status: 'fail',
    detail: `this machine's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the service's`,
    fix: "Sync the clock (NTP: `timedatectl set-ntp true`, or your platform's time service): prompt expiries and waits are judged by it.",
  };
}

/** True for a loopback host, where plain http: is allowed (the sandbox). */
export const isLoopback = (host: string): boolean => LOOPBACK.test(host);
