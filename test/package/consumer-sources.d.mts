// Types for consumer-sources.mjs (plain JavaScript so node's test runner can use it too).
/** A merchant project's tsconfig.json: compiler options and the files it checks. */
export interface ConsumerTsconfig {
  compilerOptions: Record<string, unknown>;
  files: string[];
}
export declare const consumerFiles: Record<string, string>;
export declare const WRONG_CALL: string;
export declare const TSCONFIGS: Record<
  'node16' | 'nodenext' | 'bundler' | 'node10',
  (repo: string) => ConsumerTsconfig
>;
