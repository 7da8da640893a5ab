/**
 * `@wallet/node/testing` type-checks with `skipLibCheck: false` where msw is not installed. The
 * merchant's project is compiled in process and its own files and this package's declarations are
 * checked (other libraries' internals are theirs: the full `tsc` run is testing-types.stress.ts).
 */
import { rmSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';

import { projectWithoutMsw } from './consumer-project.js';

const project = projectWithoutMsw();
afterAll(() => rmSync(project, { recursive: true, force: true }));

it('@wallet/node/testing type-checks with skipLibCheck: false in a project without msw (ESM and CommonJS)', () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${project}/tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  expect(config.options.skipLibCheck).toBe(false);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const checked = program
    .getSourceFiles()
    .filter(
      (file) =>
        !file.fileName.includes('/node_modules/') || file.fileName.includes('/node_modules/@wallet/node/'),
    );
  const errors = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]
    .concat(
      checked.flatMap((file) => [
        ...program.getSyntacticDiagnostics(file),
        ...program.getSemanticDiagnostics(file),
      ]),
    )
    .map(
      (d) =>
        `${d.file?.fileName.slice(project.length) ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );

  expect(errors).toEqual([]);
  const names = checked.map((file) => file.fileName.slice(project.length));
  expect(names).toEqual(
    expect.arrayContaining([
      '/node_modules/@wallet/node/dist/testing.d.ts',
      '/node_modules/@wallet/node/dist/testing.d.cts',
      '/checkout.test.ts',
      '/legacy.test.cts',
    ]),
  );
  // Any msw major (`msw`, or this repository's `msw3` alias), wherever the checkout lives.
  expect(program.getSourceFiles().filter((file) => /\/node_modules\/msw/.test(file.fileName))).toEqual([]);
});
