import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function sourceFiles(dir: string): string[] {
  return readdirSync(resolve(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(resolve(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Each identifier exported by more than one of `files`, with the files that export it. */
function sharedExports(files: string[]): Record<string, string[]> {
  const exporters = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(resolve(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    // A module exports a name once, however many declarations it takes (overloads, a schema and its type).
    const exported = new Set<string>();
    for (const statement of source.statements) {
      if (!ts.canHaveModifiers(statement) || !ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const names = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((declaration) => declaration.name.getText(source))
        : [(statement as ts.DeclarationStatement).name?.getText(source)].filter((name): name is string => name !== undefined);
      for (const name of names) exported.add(name);
    }
    for (const name of exported) exporters.set(name, [...(exporters.get(name) ?? []), relative(ROOT, resolve(ROOT, file))]);
  }
  return Object.fromEntries([...exporters].filter(([, where]) => where.length > 1));
}

/** One name per concept (docs/ARCHITECTURE.md, "Layers"): what shared/ exports, it exports once, and it reads time from one clock. */
describe('names', () => {
  it('no identifier is exported by two modules of shared/', () => {
    // Act
    const collisions = sharedExports(sourceFiles('shared'));
    // Assess
    expect(collisions).toEqual({});
  });

  it('the collision check finds a name two modules export', () => {
    // Act
    const collisions = sharedExports(['shared/clock.ts', 'shared/clock.ts', 'shared/identity.ts']);
    // Assess
    expect(collisions).toEqual({ clock: ['shared/clock.ts', 'shared/clock.ts'] });
  });

  it('shared/ and functions/ read the time only through shared/clock.ts (no Date.now(), no new Date())', () => {
    // Act
    const offending = [...sourceFiles('shared'), ...sourceFiles('functions')].filter(
      (file) => file !== join('shared', 'clock.ts') && /Date\.now\b|new Date\(\)/.test(readFileSync(resolve(ROOT, file), 'utf8')),
    );
    // Assess
    expect(offending).toEqual([]);
  });
});
