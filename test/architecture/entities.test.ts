import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Stored entities are declared once (shared/data/entity.ts, docs/ARCHITECTURE.md "The
 * table"): each tag is written in its `entity('tag', …)` declaration and nowhere else in
 * the product, where writes take it from the schema (`tagged`, `X.tag`); and the data
 * layer reads no item by a cast (its reads take the entity's schema and parse).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const PRODUCTION = [...sourceFiles('shared'), ...sourceFiles('functions')];

/** Each `entity('tag', …)` declaration, as `tag` → the files declaring it. */
function declarations(files: string[]): Map<string, string[]> {
  const declared = new Map<string, string[]>();
  for (const file of files)
    for (const [, tag] of read(file).matchAll(/\bentity\('([^']+)'/g)) declared.set(tag, [...(declared.get(tag) ?? []), relative(ROOT, join(ROOT, file))]);
  return declared;
}

/** An entity tag written as a literal where an item is written or matched: `entity: 'x'`, `.set('entity', 'x')`, `entity = :x` with its value. */
const TAG_LITERAL = /\bentity:\s*'[^']*'|'entity',\s*'[^']*'|\bentity\s*=\s*:/;

describe('stored entities', () => {
  it('are each declared once, with a tag of their own', () => {
    // Act
    const declared = declarations(PRODUCTION);
    const twice = [...declared].filter(([, files]) => files.length > 1);
    // Assess
    expect(twice).toEqual([]);
    expect(declared.size).toBeGreaterThanOrEqual(28);
  });

  it('have their tag written only in their declaration: no tag literal elsewhere in shared/ or functions/', () => {
    // Act
    const literals = PRODUCTION.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (TAG_LITERAL.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    // Assess
    expect(literals).toEqual([]);
  });

  it('are read by their schema: no item of a read is taken by a cast in shared/data', () => {
    // Act
    const casts = sourceFiles('shared/data').flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (/\.(Items?|Attributes|Responses)\b[^;]*\bas\s+(?!const\b)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    // Assess
    expect(casts).toEqual([]);
  });

  it('the checks find what they look for', () => {
    // Assess: each kind of tag literal, and a cast read
    expect(
      ["{ ...key, entity: 'label', name }", ".set('entity', 'conversation')", "FilterExpression: 'entity = :channel'"].map((line) => TAG_LITERAL.test(line)),
    ).toEqual([true, true, true]);
    expect(/\.(Items?|Attributes|Responses)\b[^;]*\bas\s+(?!const\b)/.test('return (result.Items ?? []) as T[];')).toBe(true);
    expect(declarations(['shared/data/definitions.ts']).get('label')).toEqual(['shared/data/definitions.ts']);
  });
});
