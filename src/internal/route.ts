/**
 * Routes declared once, with a `path` tag in the manner of openai-node's: the one template gives
 * both the path a call is sent to (each parameter one percent-encoded segment) and the template
 * that tracing and messages show, such as `/v1/charges/verify/{reference}`.
 */

/** A route: its template, and the path built from checked parameters. @internal */
export interface Route {
  /** For example `/v1/charges/verify/{reference}`: for tracing, never personal data. */
  readonly template: string;
  /** The path with each parameter percent-encoded as one segment. */
  build(params: Readonly<Record<string, unknown>>): string;
}

/**
 * Declares a route from a template whose placeholders are parameter names:
 * `` path`/v1/charges/verify/${'reference'}` ``. Each value is encoded with
 * `encodeURIComponent`, so `/`, `?`, `#`, `%` and spaces cannot reach another endpoint.
 * @internal
 */
export function path(strings: TemplateStringsArray, ...names: readonly string[]): Route {
  const parts = [...strings];
  const template = parts.reduce((out, part, i) => out + (i > 0 ? `{${names[i - 1]}}` : '') + part, '');
  if (names.length === 0) return { template, build: () => template };
  return {
    template,
    build(params) {
      let out = parts[0]!;
      for (let i = 0; i < names.length; i++) {
        out += encodeURIComponent(String(params[names[i]!])) + parts[i + 1]!;
      }
      return out;
    },
  };
}
