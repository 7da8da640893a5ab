/**
 * The client's own dispatcher through a proxy: undici's `ProxyAgent`, a CONNECT tunnel to an
 * `https:` service (TLS 1.3 to the service inside it) or an HTTP proxy (absolute-form requests) for
 * an `http:` one. The classes come from the caller, which loads them only when a proxy is used.
 * A tunnel the proxy refuses (407, 403, 502 to CONNECT) fails with code `WALLET_PROXY_REFUSED`, and
 * a proxy that cannot be reached keeps its system code (`ECONNREFUSED`): both prove the request
 * never reached the service, and their messages name the proxy, never its credentials.
 */
import type { Dispatcher, Pool as UndiciPool, ProxyAgent as UndiciProxyAgent } from 'undici';
import { skipContinue, type Connector } from './interim.js';
import type { ProxyRoute } from './proxy.js';

type ConnectOptions = Parameters<UndiciPool['connect']>[0];

/** The parts of undici a proxy needs. */
export interface ProxyClasses {
  ProxyAgent: typeof UndiciProxyAgent;
  Pool: typeof UndiciPool;
  /**
   * undici's `connect` (a CONNECT request over a dispatcher), called with the pool as `this`:
   * undici's root module adds it to every dispatcher, and only the proxy's parts are loaded here.
   */
  connect: (this: UndiciPool, options: ConnectOptions) => Promise<Dispatcher.ConnectData>;
}

/** The client Agent's options that apply through a proxy too. */
export interface ProxiedAgentOptions {
  keepAliveTimeout: number;
  headersTimeout: number;
  bodyTimeout: number;
  connections: number;
}

/** Code of the error for a proxy that answered CONNECT with anything but 200. */
export const PROXY_REFUSED = 'WALLET_PROXY_REFUSED';

const REASONS: Readonly<Record<number, string>> = {
  403: 'Forbidden',
  407: 'Proxy Authentication Required',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function refused(route: ProxyRoute, status: number, target: string): Error {
  const hint =
    status === 407
      ? ` Check the proxy's credentials (user:password@ in ${route.source}).`
      : ' The proxy would not open a tunnel to the service: check its allow list.';
  const error = new Error(
    `The proxy ${route.uri} (${route.source}) answered ${status}${REASONS[status] ? ` ${REASONS[status]}` : ''} ` +
      `to ${route.mode === 'tunnel' ? 'CONNECT' : 'the request for'} ${target}; nothing was sent to the service.${hint}`,
  );
  return Object.assign(error, { code: PROXY_REFUSED, statusCode: status });
}

function unreachable(route: ProxyRoute, cause: unknown): Error {
  const code = (cause as { code?: unknown } | null)?.code;
  const error = new Error(
    `Could not connect to the proxy ${route.uri} (${route.source})${typeof code === 'string' ? `: ${code}` : ''}; nothing was sent to the service.`,
    { cause },
  );
  return typeof code === 'string' ? Object.assign(error, { code }) : error;
}

type Handler = Dispatcher.DispatchHandler;

/**
 * The SDK's handler, with a forward proxy's 407 (which undici reports as an invalid argument, as if
 * the request were refused before sending) told as the proxy's refusal it is.
 */
function forwardRefusals(handler: Handler, route: ProxyRoute, target: string): Handler {
  const translate = (error: Error): Error =>
    /Proxy Authentication Required \(407\)/.test(error.message) ? refused(route, 407, target) : error;
  // Every callback of both handler APIs, bound to the handler (it may keep private state); the two
  // error callbacks translated.
  const out: Record<string, unknown> = {};
  for (
    let proto: object | null = handler;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = (handler as unknown as Record<string, unknown>)[name];
      if (name.startsWith('on') && !(name in out) && typeof value === 'function')
        out[name] = value.bind(handler);
    }
  }
  const onError = out['onError'] as ((error: Error) => void) | undefined;
  const onResponseError = out['onResponseError'] as ((controller: unknown, error: Error) => void) | undefined;
  if (onError) out['onError'] = (error: Error) => onError(translate(error));
  if (onResponseError)
    out['onResponseError'] = (controller: unknown, error: Error) =>
      onResponseError(controller, translate(error));
  return out;
}

/** Builds the dispatcher that sends through `route`. */
export function proxyAgent(
  classes: ProxyClasses,
  route: ProxyRoute,
  options: ProxiedAgentOptions,
): Dispatcher {
  const tls = { minVersion: 'TLSv1.3' as const };
  const agent = new classes.ProxyAgent({
    ...options,
    uri: route.uri,
    ...(route.token === undefined ? {} : { token: route.token }),
    proxyTunnel: route.mode === 'tunnel',
    requestTls: tls,
    // The connections that carry the service's answers (the tunnels, or the forward proxy's): each
    // skips an unsolicited `100 Continue`, as the client's own Agent does.
    factory: (origin, poolOptions: UndiciPool.Options) => {
      const { connect } = poolOptions;
      return new classes.Pool(
        origin,
        typeof connect === 'function'
          ? { ...poolOptions, connect: skipContinue(connect as Connector) as typeof connect }
          : poolOptions,
      );
    },
    // The connection to the proxy itself: the refusals above are told apart here.
    clientFactory: (origin, clientOptions) => {
      const pool = new classes.Pool(origin, clientOptions);
      return Object.assign(Object.create(pool) as UndiciPool, {
        async connect(params: ConnectOptions) {
          let answer;
          try {
            answer = await classes.connect.call(pool, params);
          } catch (error) {
            throw unreachable(route, error);
          }
          if (answer.statusCode !== 200) {
            answer.socket.destroy();
            throw refused(route, answer.statusCode, String(params.path));
          }
          return answer;
        },
        close: () => pool.close(),
        destroy: (error?: Error | null) => pool.destroy(error ?? null),
      });
    },
  });
  if (route.mode === 'tunnel') return agent;
  return agent.compose(
    (dispatch) => (options, handler) =>
      dispatch(options, forwardRefusals(handler, route, String(options.origin ?? ''))),
  );
}
