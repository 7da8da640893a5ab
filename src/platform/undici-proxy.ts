/**
 * The client's dispatcher through a proxy, from only undici's `ProxyAgent`, `Pool` and `connect`:
 * bundled into `dist/undici-proxy.*`, loaded only when a proxy is used; never the whole of undici.
 */
import type { Dispatcher, Pool as UndiciPool, ProxyAgent as UndiciProxyAgent } from 'undici';
// @ts-expect-error undici ships no declarations for its internal files; the types come from its root.
import connect from 'undici/lib/api/api-connect.js';
// @ts-expect-error as above.
import PoolClass from 'undici/lib/dispatcher/pool.js';
// @ts-expect-error as above.
import ProxyAgentClass from 'undici/lib/dispatcher/proxy-agent.js';
import type { ProxyRoute } from './proxy.js';
import type { AgentOptions, DispatchHandler, OwnDispatcher } from './types.js';

const ProxyAgent = ProxyAgentClass as typeof UndiciProxyAgent;
const Pool = PoolClass as typeof UndiciPool;
type ConnectOptions = Parameters<UndiciPool['connect']>[0];
// undici's CONNECT, called with the pool as `this` (undici's root module, not bundled, would add it).
const connectThrough = connect as (
  this: UndiciPool,
  options: ConnectOptions,
) => Promise<Dispatcher.ConnectData>;

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
  return Object.assign(error, { code: 'WALLET_PROXY_REFUSED', statusCode: status });
}

function unreachable(route: ProxyRoute, cause: unknown): Error {
  const code = (cause as { code?: unknown } | null)?.code;
  const error = new Error(
    `Could not connect to the proxy ${route.uri} (${route.source})${typeof code === 'string' ? `: ${code}` : ''}; nothing was sent to the service.`,
    { cause },
  );
  return typeof code === 'string' ? Object.assign(error, { code }) : error;
}

/** The SDK's handler, with a forward proxy's 407 (undici words it as a refusal to send) told as the proxy's. */
function forwardRefusals(handler: DispatchHandler, route: ProxyRoute, target: string): DispatchHandler {
  return {
    onRequestStart: (controller, context) => handler.onRequestStart(controller, context),
    onResponseStart: (controller, status, headers, message) =>
      handler.onResponseStart(controller, status, headers, message),
    onResponseData: (controller, chunk) => handler.onResponseData(controller, chunk),
    onResponseEnd: (controller, trailers) => handler.onResponseEnd(controller, trailers),
    onResponseError: (controller, error) =>
      handler.onResponseError(
        controller,
        /Proxy Authentication Required \(407\)/.test(error.message) ? refused(route, 407, target) : error,
      ),
  };
}

/** A CONNECT tunnel to an `https:` service, or a forward proxy for `http:`; its refusals prove nothing was sent. */
export function createProxyAgent(
  route: ProxyRoute,
  options: Omit<AgentOptions, 'connect' | 'proxy'>,
): OwnDispatcher {
  const tls = { minVersion: 'TLSv1.3' as const };
  const agent = new ProxyAgent({
    ...options,
    uri: route.uri,
    ...(route.token === undefined ? {} : { token: route.token }),
    proxyTunnel: route.mode === 'tunnel',
    requestTls: tls,
    // The connection to the proxy itself: the refusals above are told apart here.
    clientFactory: (origin, clientOptions) => {
      const pool = new Pool(origin, clientOptions);
      return Object.assign(Object.create(pool) as UndiciPool, {
        async connect(params: ConnectOptions) {
          let answer;
          try {
            answer = await connectThrough.call(pool, params);
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
      dispatch(options, forwardRefusals(handler as DispatchHandler, route, String(options.origin ?? ''))),
  );
}
