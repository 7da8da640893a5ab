// Types for pack.mjs (plain JavaScript so node's test runner can use it too).
export declare const repo: string;
export declare function pack(workspace?: string): Promise<string>;
export interface FreshProjectOptions {
  name?: string;
  type?: 'module' | 'commonjs';
  workspaces?: string[];
  dependencies?: Record<string, string>;
  files?: Record<string, string>;
  manifest?: Record<string, unknown>;
}
export declare function freshProject(
  options?: FreshProjectOptions,
): Promise<{ dir: string; tarballs: Record<string, string>; remove: () => void }>;
export declare function removePacked(): void;
export declare function proofVersion(name: string): string;
export declare function proofBin(name: string): string;
