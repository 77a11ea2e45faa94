/**
 * Type-checks a snippet as one module of the repository, under the project's own compiler options
 * (strict), `headway` mapped to `src/` as in tsconfig.json (as test/docs/readme-snippets.test.ts
 * does): its diagnostics, one line each.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** `code`'s diagnostics, checked as the module `<snippet>.snippet.ts` at the repository's root. */
export function typeCheck(code: string, snippet: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json not read');
  const file = `${root}${snippet}.snippet.ts`;
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? code : readFile.call(host, name));
  host.getSourceFile = (name, language, ...rest) =>
    name === file
      ? ts.createSourceFile(name, code, language, true)
      : getSourceFile.call(host, name, language, ...rest);
  const program = ts.createProgram([file], config.options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}
