import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CREATE_TABLE_INPUT } from '../../scripts/local/store';

/**
 * The table as docs/ARCHITECTURE.md and docs/DEPLOYMENT.md describe it matches the one
 * schema the CDK stack and the local store both build from (shared/data/table-schema.ts;
 * the local store's CreateTable input, scripts/local/store.ts, is made from it).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the table in the docs', () => {
  const indexes = CREATE_TABLE_INPUT.GlobalSecondaryIndexes;

  for (const file of ['docs/ARCHITECTURE.md', 'docs/DEPLOYMENT.md']) {
    it(`${file} names each GSI with its keys and never says there is none`, () => {
      // Prepare
      const text = read(file).replace(/\s+/g, ' ');
      // Assess: the docs say "one"; a second index means rewriting them
      expect(indexes).toHaveLength(1);
      for (const index of indexes) {
        expect(text, index.IndexName).toContain(`one sparse GSI \`${index.IndexName}\``);
        for (const key of index.KeySchema) expect(text, `${index.IndexName} ${key.AttributeName}`).toContain(`\`${key.AttributeName}\``);
      }
      expect(text.match(/\bno GSI\b/gi) ?? []).toEqual([]);
    });
  }
});
