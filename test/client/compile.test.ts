import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = join(ROOT, 'test', 'client', 'fixtures', 'readme-calls.ts');

/** The compiler's errors for one file, with the repository's own compiler options. */
function compileErrors(file: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram([file], { ...config.options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (diagnostic) =>
        `${diagnostic.file ? `${diagnostic.file.fileName.slice(ROOT.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    );
}

describe('the typed client (client/, types from npm run openapi)', () => {
  it('compiles every README-shaped call, and refuses what the API refuses', () => {
    // Act
    const errors = compileErrors(FIXTURE);
    // Assess
    expect(errors).toEqual([]);
  }, 120_000);
});
