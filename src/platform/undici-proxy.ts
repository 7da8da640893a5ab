/**
 * The client's dispatcher through a proxy, from only undici's `ProxyAgent`, the `Pool` it reaches
 * the proxy with and its `connect` (the CONNECT request): the build bundles this file, `proxy-agent.ts` and the undici files they reach
 * into `dist/undici-proxy.*` (HTTP/2 and FormData bodies left out, as in the Agent's bundle), which
 * the Node platform loads only when a proxy is used, instead of the Agent's file. Never the whole
 * of undici: no fetch, WebSocket, cache (with its `node:sqlite`) or mocks.
 */
import type { Pool as UndiciPool, ProxyAgent as UndiciProxyAgent } from 'undici';
// @ts-expect-error undici ships no declarations for its internal files; the types come from its root.
import connect from 'undici/lib/api/api-connect.js';
// @ts-expect-error as above.
import PoolClass from 'undici/lib/dispatcher/pool.js';
// @ts-expect-error as above.
import ProxyAgentClass from 'undici/lib/dispatcher/proxy-agent.js';
import { proxyAgent, type ProxiedAgentOptions, type ProxyClasses } from './proxy-agent.js';
import type { ProxyRoute } from './proxy.js';
import type { OwnDispatcher } from './types.js';

const classes: ProxyClasses = {
  ProxyAgent: ProxyAgentClass as typeof UndiciProxyAgent,
  Pool: PoolClass as typeof UndiciPool,
  connect: connect as ProxyClasses['connect'],
};

/** Builds the dispatcher that sends through `route` (see `proxy-agent.ts`). */
export function createProxyAgent(route: ProxyRoute, options: ProxiedAgentOptions): OwnDispatcher {
  return proxyAgent(classes, route, options);
}
