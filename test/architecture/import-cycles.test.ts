import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../../scripts/import-cycles';

/**
 * Imports point one way (docs/ARCHITECTURE.md, "Layers"), within a layer too: no module
 * of shared/ or functions/ reaches itself again through its imports, type-only and
 * dynamic ones included. The graph is the compiler's own resolution of every import
 * (scripts/import-cycles.ts; `npx tsx scripts/import-cycles.ts` prints the circles).
 */
describe('import circles', () => {
  it('none in shared/ and functions/', () => {
    // Act
    const cycles = importCycles(importGraph(['shared', 'functions']));
    // Assess
    expect(cycles).toEqual([]);
  });

  it('are found, a type-only import and a dynamic import() included, and a diamond is not one', () => {
    // Prepare: fixtures of a circle (first → second by a type, second → first by import()) and of a diamond
    const graph = importGraph(['test/architecture/fixtures/import-circle', 'test/architecture/fixtures/import-tree']);
    // Act
    const cycles = importCycles(graph);
    // Assess
    expect(graph.get('test/architecture/fixtures/import-tree/root.ts')).toHaveLength(2);
    expect(cycles).toEqual([
      [
        'test/architecture/fixtures/import-circle/first.ts',
        'test/architecture/fixtures/import-circle/second.ts',
        'test/architecture/fixtures/import-circle/first.ts',
      ],
    ]);
  });
});
