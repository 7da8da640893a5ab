/**
 * Which proxy the client's own connections use: the `proxy` option, or `NODE_USE_ENV_PROXY=1` with the
 * proxy variables read as Node reads them. Pure; credentials go to the scrubber, never to a log.
 */

/** A proxy to send through: its address without credentials, and the credentials apart. */
export interface ProxyRoute {
  /** `http://host:port` or `https://host:port`, never with credentials. */
  readonly uri: string;
  /** `Basic …` for the proxy's `Proxy-Authorization`, when the URL carried credentials. */
  readonly token: string | undefined;
  /** `'tunnel'` (CONNECT) for an `https:` service, `'forward'` (absolute-form request) for `http:`. */
  readonly mode: 'tunnel' | 'forward';
  /** Where it came from, for messages: `the proxy option` or `HTTPS_PROXY`. */
  readonly source: string;
}

/** The proxy setting, settled once at construction. */
export interface ProxySettings {
  /** The route for the client's base URL, when its requests go through a proxy. */
  readonly route: ProxyRoute | undefined;
  /** Credentials to scrub from every error, log line and inspect. */
  readonly secrets: readonly string[];
  /** Said once in the debug log when proxy variables are set but not used, and why. */
  readonly unused: string | undefined;
  /** A proxy variable given but malformed, in `'env'` mode: refused at construction like an option. */
  readonly problem?: { path: string; message: string };
}

type Vars = Readonly<Record<string, string | undefined>>;

/** The `proxy` option where the client sends through the runtime's fetch (Bun, Deno, Fetch runtimes). */
export const PROXY_UNUSABLE =
  'is set, but this runtime sends through its own fetch, which cannot use a proxy URL: calls would go out directly. Remove it; on Bun and Deno set HTTPS_PROXY or HTTP_PROXY instead, which their fetch reads itself';

const PROXY_VARS = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'] as const;

/** A variable the way Node reads it: the uppercase name, else the lowercase one. */
function variable(vars: Vars, name: (typeof PROXY_VARS)[number]): string | undefined {
  return vars[name] || vars[name.toLowerCase()] || undefined;
}

/** The problem with a proxy URL, or undefined. Never echoes it: it may carry credentials. */
function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid absolute URL (for example http://proxy.internal:3128)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `must be an http: or https: proxy URL, not ${url.protocol}`;
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return 'must be the proxy origin only (scheme, host, port and credentials), without a path or query';
  }
  return undefined;
}

/** The rule of the `proxy` option (for the one option checker). */
export function proxyProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return "must be a proxy URL (http://host:port) or 'env'";
  return value === 'env' ? undefined : urlProblem(value);
}

/** Both forms of a piece of the URL's userinfo: as written, and decoded. */
function forms(part: string): string[] {
  let decoded = part;
  try {
    decoded = decodeURIComponent(part);
  } catch {
    // Malformed escapes: the raw form is all there is.
  }
  return decoded === part ? [part] : [part, decoded];
}

function routeOf(value: string, mode: ProxyRoute['mode'], source: string): [ProxyRoute, string[]] {
  const url = new URL(value);
  const secrets: string[] = [];
  let token: string | undefined;
  if (url.username || url.password) {
    const user = forms(url.username).at(-1)!;
    const pass = forms(url.password).at(-1)!;
    token = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${pass}`)))}`;
    // Every pairing of the forms: a URL written with one part encoded and the other as typed (the
    // user name's @ as %40, a password's ^ raw) is printed in neither the parsed nor the decoded one.
    for (const u of forms(url.username)) for (const p of forms(url.password)) secrets.push(`${u}:${p}`);
    secrets.push(token.slice(6));
    // Alone, only as long as a key fragment: a short one ('2026', 'order') is found in answers by
    // chance, and scrubbing it there would rewrite their dates, amounts and references.
    // Without a password the user name is the credential (a provider's token), kept by the same rule.
    const credential = url.password ? url.password : url.username;
    secrets.push(...forms(credential).filter((form) => form.length >= 12));
  }
  const uri = `${url.protocol}//${url.host}`;
  return [{ uri, token, mode, source }, [...new Set(secrets)].filter((s) => s.length >= 4)];
}

/** A NO_PROXY list matches `url`: `*`, a host, a domain and its subdomains (`.x.com`, `*.x.com`), with or without a port. */
export function bypassed(noProxy: string, url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (withPort) [, entry, entryPort] = withPort as unknown as [string, string, string];
    entry = entry.replace(/^\[(.*)\]$/, '$1').replace(/^\*?\./, '');
    if (entryPort !== undefined && entryPort !== port) continue;
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/** The proxy for base URL `target` from the checked option or `vars`; a merchant's own sender (`own`) uses none. */
export function settleProxy(
  option: string | undefined,
  vars: Vars,
  target: URL | undefined,
  own: string | undefined,
): ProxySettings {
  const set = PROXY_VARS.filter((name) => variable(vars, name) !== undefined);
  const listed = set.join(', ');
  const mode = target?.protocol === 'https:' ? 'tunnel' : 'forward';
  const nothing: ProxySettings = { route: undefined, secrets: [], unused: undefined };
  if (option !== undefined && option !== 'env') {
    if (target === undefined) return nothing; // the option passed proxyProblem
    const [route, secrets] = routeOf(option, mode, 'the proxy option');
    return own
      ? { route: undefined, secrets, unused: `the proxy option is not used: ${own} sends as it is` }
      : { route, secrets, unused: undefined };
  }
  if (option === undefined && vars['NODE_USE_ENV_PROXY'] !== '1') {
    if (set.length === 0) return nothing;
    const unused = `${listed} set but not used: pass proxy: 'env' or set NODE_USE_ENV_PROXY=1 to send through it`;
    return { ...nothing, unused };
  }
  if (target === undefined) return nothing;
  const name = target.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  // Both variables' credentials are secrets, whichever one is used.
  const secrets = [name === 'HTTPS_PROXY' ? 'HTTP_PROXY' : 'HTTPS_PROXY', name].flatMap((n) => {
    const v = variable(vars, n as typeof name);
    return v !== undefined && urlProblem(v) === undefined ? routeOf(v, 'forward', n)[1] : [];
  });
  const unused = (why: string | undefined): ProxySettings => ({ route: undefined, secrets, unused: why });
  if (own) return unused(set.length > 0 ? `${listed} set but not used: ${own} sends as it is` : undefined);
  const value = variable(vars, name);
  if (value === undefined)
    return unused(
      set.length > 0
        ? `${listed} set but not used: a ${target.protocol} base URL uses ${name}, which is not set`
        : undefined,
    );
  const noProxy = variable(vars, 'NO_PROXY');
  if (noProxy !== undefined && bypassed(noProxy, target))
    return unused(`${name} set but not used for ${target.host}: NO_PROXY matches it`);
  const problem = urlProblem(value);
  if (problem !== undefined) return { ...unused(undefined), problem: { path: name, message: problem } };
  return { route: routeOf(value, mode, name)[0], secrets, unused: undefined };
}
