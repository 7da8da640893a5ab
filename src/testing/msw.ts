/**
 * MSW handlers over the sandbox. msw is an optional peer dependency, so it is loaded only when a
 * test asks for `sandbox.handlers`; the dispatcher, `listen()` and the bin work without it.
 */
import { createRequire } from 'node:module';

import type * as MswModule from 'msw';
import type { HttpHandler } from 'msw';

type Msw = typeof MswModule;

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
      'sandbox.handlers needs msw 2, an optional peer dependency of @wallet/node: npm install --save-dev msw. ' +
        'Without msw, use sandbox.dispatcher or sandbox.listen().',
      { cause },
    );
  }
}

/** One catch-all handler for every method under `baseUrl`. @internal */
export function mswHandlers(baseUrl: string, handle: (request: Request) => Promise<Response>): HttpHandler[] {
  const { http } = loadMsw();
  return [http.all(`${baseUrl}/*`, ({ request }) => handle(request))];
}
