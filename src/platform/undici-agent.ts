/**
 * Only undici's `Agent` (its pools, HTTP/1.1 client and `dispatch()`): the build bundles this file
 * with the undici files it reaches into `dist/undici-agent.*`, without fetch, WebSocket, the cache,
 * mocks or HTTP/2 (the client never offers h2, so its module is left out), which is what makes the
 * first call cheap. undici is MIT licensed; its notice is kept at the top of the bundle.
 */
import type { Agent as UndiciAgent, buildConnector as BuildConnector } from 'undici';
// @ts-expect-error undici ships no declarations for its internal files; the type comes from its root.
import AgentClass from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error as above; already in the bundle (every pool builds its connector with it).
import connectorOf from 'undici/lib/core/connect.js';
import { skipContinue, type Connector } from './interim.js';

const Agent = AgentClass as typeof UndiciAgent;

/**
 * The client's own Agent: undici's, with connections that skip an unsolicited `100 Continue`
 * (`interim.ts`) instead of failing the call.
 */
export function createAgent(
  options: UndiciAgent.Options & { connect: BuildConnector.BuildOptions },
): UndiciAgent {
  const connect = skipContinue((connectorOf as typeof BuildConnector)(options.connect) as Connector);
  return new Agent({ ...options, connect: connect as BuildConnector.connector });
}
