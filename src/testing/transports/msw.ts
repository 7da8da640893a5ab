/**
 * MSW handlers over the sandbox. msw is an optional peer dependency, so it is loaded only when a
 * test asks for `sandbox.handlers`; the dispatcher, `listen()` and the bin work without it. Nothing
 * exported from here names an msw type: the declarations of `@wallet/node/testing` must
 * type-check in a project where msw is not installed.
 */
import { createRequire } from 'node:module';

import type * as MswModule from 'msw';

type Msw = typeof MswModule;

/**
 * One MSW request handler, as `setupServer()` and `worker.use()` take it (msw's `HttpHandler`).
 *
 * Why `any` and not a shape: msw's handler classes have private members, so TypeScript accepts
 * no structural type where msw expects its handlers; and naming msw's own class here would make
 * these declarations fail to type-check in projects without msw (it is an optional peer). Spread
 * `sandbox.handlers` into `setupServer()` as they are.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: no other type is both msw-free and accepted by msw.
export type SandboxMswHandler = any;

let loaded: Msw | undefined;

function loadMsw(): Msw {
  if (loaded) return loaded;
  try {
    // require, not import(): `sandbox.handlers` is a plain property, and tsup's shims give the CJS
    // build an import.meta.url too.
    loaded = createRequire(import.meta.url)('msw') as Msw;
    return loaded;
  } catch (cause) {
    if ((cause as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw cause;
    throw new Error(
      'sandbox.handlers needs msw (2 or 3), an optional peer dependency of @wallet/node: npm install --save-dev msw. ' +
        'Without msw, use sandbox.dispatcher or sandbox.listen().',
      { cause },
    );
  }
}

/** One catch-all handler for every method under `baseUrl`, typed without msw. @internal */
export function mswHandlers(
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
): readonly unknown[] {
  const { http } = loadMsw();
  return [http.all(`${baseUrl}/*`, ({ request }) => handle(request))];
}
