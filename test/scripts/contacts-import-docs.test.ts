import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../../scripts/admin/contacts-import';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README, Importing contacts', () => {
  it('shows a CLI import of 100k contacts and documents every column the CLI maps', () => {
    // Prepare
    const section = /^### Importing contacts\n([\s\S]*?)\n#{2,3} /m.exec(readme)?.[1] ?? '';
    const documented = new Set([...section.matchAll(/^\| `(\w+)`(?: \(or `(\w+)`\))?/gm)].flatMap((row) => row.slice(1).filter(Boolean)));
    // Act
    const normalized = new Set([...documented].map((column) => column.toLowerCase()));
    // Assess
    expect(section).toMatch(/admin -- contacts import --channel \S+ --file contacts-100k\.csv/);
    expect(section).toMatch(/"rows":100000/);
    expect(Object.keys(COLUMNS).filter((column) => !normalized.has(column))).toEqual([]);
  });
});
