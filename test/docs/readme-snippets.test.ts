/**
 * What a new user copies: every TypeScript block of the README that imports Headway
 * (`headway`, `headway/server`, `headway/undici`, `headway/redis`, `headway/metrics`) type-checks
 * under the project's own compiler options (strict), with `headway` mapped to `src/` as in
 * tsconfig.json. The few names a block leaves to its reader (`log`, `auth`, a `store` made in the
 * block before) are declared for it; nothing else is added.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Snippet {
  line: number;
  code: string;
}

/** The README's ```ts blocks that import the package, with the line each starts on. */
function readmeSnippets(): Snippet[] {
  const lines = readFileSync(`${root}README.md`, 'utf8').split('\n');
  const snippets: Snippet[] = [];
  let start = -1;
  let lang = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('```')) continue;
    if (start < 0) {
      start = i + 1;
      lang = line.slice(3).trim();
    } else {
      const code = lines.slice(start, i).join('\n');
      if (lang === 'ts' && /from 'headway(\/[a-z]+)?'/.test(code)) snippets.push({ line: start + 1, code });
      start = -1;
    }
  }
  return snippets;
}

/** Declarations of what a block leaves to its reader. */
function prelude(code: string): string {
  const lines = [
    'export {};',
    'declare const log: { info(...args: unknown[]): void; warn(...args: unknown[]): void };',
    'declare const auth: string;',
  ];
  if (/\bstore\b/.test(code) && !/const store\b/.test(code))
    lines.push("declare const store: import('headway').RateLimitStore;");
  return `${lines.join(' ')}\n`;
}

function typeCheck(snippets: Snippet[]): string[] {
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
  const files = new Map<string, string>(
    snippets.map((s) => [`${root}README.snippet-line-${s.line}.ts`, prelude(s.code) + s.code] as const),
  );
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram([...files.keys()], config.options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && files.has(d.file.fileName))
    .map((d) => {
      const file = d.file!;
      const { line } = file.getLineAndCharacterOfPosition(d.start ?? 0);
      // The prelude is one line: line 1 of the block is line 2 of the file.
      const readmeLine = Number(file.fileName.match(/line-(\d+)/)![1]) + line - 1;
      return `README.md:${readmeLine}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
}

describe('README snippets', () => {
  it('finds the blocks that import Headway', () => {
    const imports = readmeSnippets().flatMap((s) =>
      [...s.code.matchAll(/from '(headway[^']*)'/g)].map((m) => m[1]),
    );
    expect(new Set(imports)).toEqual(
      new Set(['headway', 'headway/server', 'headway/undici', 'headway/redis', 'headway/metrics']),
    );
  });

  it('every block that imports Headway type-checks as written (strict)', () => {
    expect(typeCheck(readmeSnippets())).toEqual([]);
  }, 60_000);
});
