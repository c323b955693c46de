import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer table lives in eslint.config.js (`LAYERS`) and docs/ARCHITECTURE.md; these
 * fixtures prove the linter refuses every import the table does not allow (each forbidden
 * pair, generated from the rows, and each way of writing an import) and accepts the allowed
 * ones, and that the doc states the same rows, so neither can drift from the other.
 */
const eslint = new ESLint({ cwd: process.cwd() });

type LayerTable = Record<string, readonly string[]>;
const CONFIG_URL = pathToFileURL(resolve('eslint.config.js')).href;
const { LAYERS, LEAVES } = (await import(CONFIG_URL)) as { LAYERS: LayerTable; LEAVES: readonly string[] };
const ROWS = Object.keys(LAYERS);

/** The rules that enforce the layer table. */
const LAYER_RULE_IDS = new Set(['boundaries/dependencies', 'boundaries/no-unknown-files', 'boundaries/no-unknown-dependencies', 'layers/literal-imports']);

interface Finding {
  line: number;
  ruleId: string | null;
  message: string;
}

async function lintFindings(filePath: string, source: string, rules: (ruleId: string | null) => boolean): Promise<Finding[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result.messages.filter((message) => rules(message.ruleId)).map(({ line, ruleId, message }) => ({ line, ruleId, message }));
}

const layerErrors = async (filePath: string, source: string) =>
  (await lintFindings(filePath, source, (id) => LAYER_RULE_IDS.has(id ?? ''))).map((f) => f.message);
const environmentErrors = async (filePath: string, source: string) =>
  (await lintFindings(filePath, source, (id) => id === 'no-restricted-properties' || id === 'no-restricted-imports')).map((f) => f.message);
const tableAccessErrors = async (filePath: string, source: string) =>
  (await lintFindings(filePath, source, (id) => id === 'no-restricted-syntax')).map((f) => f.message);

/** Whether a table entry (a folder ending in `/`, or a file) covers `file`. */
const covers = (entry: string, file: string) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry);
const mayImport = (row: string, file: string) => covers(row, file) || LAYERS[row].some((entry) => covers(entry, file));

/** The code files of an entry, sorted: a folder's, recursively, or the file itself. */
function filesOf(entry: string): string[] {
  if (!entry.endsWith('/')) return [entry];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
      const path = posix.join(dir, item.name);
      if (item.isDirectory()) return item.name === 'generated' ? [] : walk(path);
      return /\.ts$/.test(item.name) && !item.name.endsWith('.d.ts') ? [path] : [];
    });
  return walk(entry.slice(0, -1)).sort();
}

/** Where a fixture of a row is linted: a new file in a folder, or the root file itself. */
const fixturePath = (row: string) => (row.endsWith('/') ? `${row}layer-fixture.ts` : row);

/** The relative specifier from `from` to `to`, written as the code writes it. */
function specifier(from: string, to: string): string {
  const path = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '');
  return path.startsWith('.') ? path : `./${path}`;
}

/** One line per import, each bound so no other rule complains. */
const importLines = (from: string, targets: string[]) =>
  targets.map((target, i) => `import * as m${i} from '${specifier(from, target)}';`).join('\n') +
  `\nexport const all = [${targets.map((_, i) => `m${i}`).join(', ')}];\n`;

/** For each row it may not import, a file of that row the importing row may not reach. */
function forbiddenTargets(row: string): Array<{ to: string; file: string }> {
  return ROWS.filter((other) => other !== row)
    .map((other) => ({ to: other, file: filesOf(other).find((file) => !mayImport(row, file)) }))
    .filter((pair): pair is { to: string; file: string } => pair.file !== undefined);
}

/** For each entry of the row, a file it names. */
const allowedTargets = (row: string) => LAYERS[row].map((entry) => ({ to: entry, file: filesOf(entry)[0] }));

describe('the layer table (eslint.config.js LAYERS)', () => {
  it('has a row for every folder and root file of shared/, and for functions/ and the tooling folders', () => {
    // Prepare
    const entries = readdirSync('shared', { withFileTypes: true }).map((item) => `shared/${item.name}${item.isDirectory() ? '/' : ''}`);

    // Assess
    expect(ROWS.filter((row) => row.startsWith('shared/')).sort()).toEqual(entries.sort());
    expect(ROWS.filter((row) => !row.startsWith('shared/')).sort()).toEqual(['bench/', 'client/', 'functions/', 'infra/', 'scripts/', 'test/']);
  });

  it('names only rows and files that exist in its entries', () => {
    // Act
    const missing = Object.values(LAYERS)
      .flat()
      .filter((entry) => filesOf(entry).length === 0 || !ROWS.some((row) => covers(row, filesOf(entry)[0])));

    // Assess
    expect(missing).toEqual([]);
  });

  it('puts the production rows first, each importing only rows below it, so no two rows import each other', () => {
    // Prepare
    const production = ROWS.filter((row) => row === 'functions/' || row.startsWith('shared/'));
    const rowOf = (entry: string) => ROWS.find((row) => covers(row, filesOf(entry)[0])) ?? entry;

    // Act
    const upward = production.flatMap((row, i) => LAYERS[row].filter((entry) => production.indexOf(rowOf(entry)) <= i).map((entry) => `${row} → ${entry}`));

    // Assess
    expect(ROWS.slice(0, production.length)).toEqual(production);
    expect(upward).toEqual([]);
  });

  it.each(ROWS)('%s: every row it may not import is refused', async (row) => {
    // Prepare: one import of each forbidden row's file, one a line
    const from = fixturePath(row);
    const targets = forbiddenTargets(row);
    const source = importLines(
      from,
      targets.map((target) => target.file),
    );

    // Act
    const refused = new Set((await lintFindings(from, source, (id) => LAYER_RULE_IDS.has(id ?? ''))).map((finding) => finding.line));

    // Assess
    expect(targets.filter((_, i) => !refused.has(i + 1)).map((target) => `${row} → ${target.file}`)).toEqual([]);
  });

  it.each(ROWS.filter((row) => LAYERS[row].length > 0))('%s: every entry of its row is accepted', async (row) => {
    // Prepare
    const from = fixturePath(row);
    const source = importLines(
      from,
      allowedTargets(row).map((target) => target.file),
    );

    // Act
    const errors = await layerErrors(from, source);

    // Assess
    expect(errors).toEqual([]);
  });
});

describe('layer rules (npm run lint): every way of writing an import', () => {
  it.each([
    ['into shared/events', 'shared/data/layer-fixture.ts', "import * as m from '../events/signing';\nexport const x = m;\n"],
    ['into shared/outbound', 'shared/data/layer-fixture.ts', "import * as m from '../outbound/http-exchange';\nexport const x = m;\n"],
    ['into functions/', 'shared/domain/layer-fixture.ts', "import * as m from '../../functions/contacts-manage';\nexport const x = m;\n"],
    ['from shared/clock.ts', 'shared/clock.ts', "import * as m from './data/client';\nexport const x = m;\n"],
    ['from shared/config.ts', 'shared/config.ts', "import * as m from './domain/contacts';\nexport const x = m;\n"],
    ['from shared/ids.ts', 'shared/ids.ts', "import * as m from './http/errors';\nexport const x = m;\n"],
    ['from shared/map-limit.ts', 'shared/map-limit.ts', "import * as m from './data/batch';\nexport const x = m;\n"],
    ['from shared/routes.ts', 'shared/routes.ts', "import * as m from './openapi/document';\nexport const x = m;\n"],
    ['dynamic import()', 'shared/data/layer-fixture.ts', "export const x = () => import('../domain/contacts');\n"],
    ['require', 'shared/data/layer-fixture.ts', "export const x = () => require('../domain/contacts');\n"],
    ['a path starting ./../', 'shared/data/layer-fixture.ts', "import * as m from './../domain/contacts';\nexport const x = m;\n"],
    ['a path through another folder', 'shared/data/layer-fixture.ts', "import * as m from '../data/../domain/contacts';\nexport const x = m;\n"],
    ['import type', 'shared/data/layer-fixture.ts', "import type { ContactView } from '../domain/contacts';\nexport type X = ContactView;\n"],
    ['export … from', 'shared/data/layer-fixture.ts', "export * from '../domain/contacts';\n"],
    ['import … = require()', 'shared/data/layer-fixture.ts', "import contacts = require('../domain/contacts');\nexport const x = contacts;\n"],
    ["a type written import('…')", 'shared/data/layer-fixture.ts', "export type X = import('../domain/contacts').ContactView;\n"],
    ['a computed import()', 'shared/data/layer-fixture.ts', 'export const x = (name: string) => import(`../domain/${name}`);\n'],
    ['a template import()', 'shared/data/layer-fixture.ts', 'export const x = () => import(`../domain/contacts`);\n'],
    ['a computed require', 'shared/data/layer-fixture.ts', "export const x = (name: string) => require('../domain/' + name);\n"],
    ['a root file of shared/ that has no row', 'shared/layer-fixture.ts', "import { clock } from './clock';\nexport const x = clock;\n"],
    ['production into tooling', 'shared/domain/layer-fixture.ts', "import * as m from '../../scripts/local/stack';\nexport const x = m;\n"],
  ])('refuses %s', async (_kind, filePath, source) => {
    // Act
    const errors = await layerErrors(filePath, source);

    // Assess
    expect(errors).toHaveLength(1);
  });

  it('names the rule and the row that refuses', async () => {
    // Act
    const errors = await layerErrors('shared/data/layer-fixture.ts', "import * as m from '../domain/contacts';\nexport const x = m;\n");

    // Assess
    expect(errors).toEqual([expect.stringMatching(/docs\/ARCHITECTURE\.md.*shared\/data\/ may import only/)]);
  });

  it.each([
    ['a package', 'shared/data/layer-fixture.ts', "import * as v from 'valibot';\nexport const x = v;\n"],
    ['a Node built-in', 'shared/data/layer-fixture.ts', "import { createHash } from 'node:crypto';\nexport const x = createHash;\n"],
    ['a package by dynamic import()', 'shared/queue/layer-fixture.ts', "export const x = () => import('@aws-sdk/client-sqs');\n"],
    ['its own folder', 'shared/data/layer-fixture.ts', "import * as m from './keys';\nexport const x = m;\n"],
    ['its own folder by dynamic import()', 'shared/domain/layer-fixture.ts', "export const x = () => import('./contacts');\n"],
  ])('accepts %s', async (_kind, filePath, source) => {
    // Act
    const errors = await layerErrors(filePath, source);

    // Assess
    expect(errors).toEqual([]);
  });
});

describe('docs/ARCHITECTURE.md states the layer table', () => {
  const doc = readFileSync(join('docs', 'ARCHITECTURE.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Layers'), doc.indexOf('\n## ', doc.indexOf('## Layers') + 1));
  const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  /** A cell's entries: `leaves` stands for the leaves line, `shared/` for every row under shared/. */
  const expand = (cell: string) => [
    ...(/\bleaves\b/.test(cell) ? LEAVES : []),
    ...ticked(cell).flatMap((entry) => (entry === 'shared/' ? ROWS.filter((row) => row.startsWith('shared/')) : [entry])),
  ];
  const docRows = Object.fromEntries(
    section
      .split('\n')
      .filter((line) => /^\| `/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map((cells) => [ticked(cells[1])[0], expand(cells[3]).sort()]),
  );

  it('with the same leaves', () => {
    // Act
    const line = section.split('\n').find((text) => text.startsWith('Leaves:')) ?? '';

    // Assess
    expect(ticked(line).sort()).toEqual([...LEAVES].sort());
  });

  it('with the same rows, each allowing the same imports', () => {
    // Act
    const configRows = Object.fromEntries(ROWS.map((row) => [row, [...LAYERS[row]].sort()]));

    // Assess
    expect(docRows).toEqual(configRows);
  });
});

describe('table access rule (npm run lint)', () => {
  const RAW_GET = [
    "import { GetCommand } from '@aws-sdk/lib-dynamodb';",
    "import { db } from './client';",
    "export const x = () => db.send(new GetCommand({ TableName: 'workspace-api', Key: { pk: 'a', sk: 'b' } }));",
    '',
  ].join('\n');

  const RAW_BATCH_WRITE = [
    "import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';",
    "import { db, tableName } from './client';",
    'export const x = () => db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: [] } }));',
    '',
  ].join('\n');

  it.each([
    ['shared/data/fixture.ts', 'TableName', RAW_GET],
    ['shared/domain/fixture.ts', 'TableName', RAW_GET],
    ['functions/fixture.ts', 'TableName', RAW_GET],
    ['shared/data/fixture.ts', 'tableName()', RAW_BATCH_WRITE],
  ])('refuses a raw command naming the table in %s (%s)', async (filePath, _how, source) => {
    // Prepare: a raw lib-dynamodb command naming the table itself, outside the primitives

    // Act
    const errors = await tableAccessErrors(filePath, source);

    // Assess
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/primitives of shared\/data\/client\.ts/);
  });

  it('accepts TableName in the primitives themselves (shared/data/client.ts)', async () => {
    // Act
    const errors = await tableAccessErrors('shared/data/client.ts', RAW_GET);

    // Assess
    expect(errors).toEqual([]);
  });

  it('accepts the same call through a primitive', async () => {
    // Act
    const errors = await tableAccessErrors(
      'shared/data/fixture.ts',
      "import { getItem } from './client';\nexport const x = () => getItem({ pk: 'a', sk: 'b' });\n",
    );

    // Assess
    expect(errors).toEqual([]);
  });
});

describe('configuration rule (npm run lint): the environment is read in shared/config.ts only', () => {
  it.each([
    ['shared/domain/fixture.ts', 'export const x = process.env.TABLE_NAME;\n'],
    ['shared/data/client.ts', "export const x = process.env['TABLE_NAME'];\n"],
    ['shared/clock.ts', 'const { env } = process;\nexport const x = env.CLOCK_OFFSET_MS;\n'],
    ['shared/observability/fixture.ts', 'export const x = globalThis.process.env.STAGE;\n'],
    ['shared/queue/fixture.ts', "import { env } from 'node:process';\nexport const x = env.EVENT_QUEUE_URL;\n"],
    ['functions/fixture.ts', 'export const x = process.env.STAGE;\n'],
  ])('refuses the environment read in %s', async (filePath, source) => {
    // Act
    const errors = await environmentErrors(filePath, source);

    // Assess
    expect(errors).toEqual([expect.stringMatching(/shared\/config\.ts/)]);
  });

  it('accepts it in shared/config.ts, and in tooling', async () => {
    // Act
    const errors = [
      ...(await environmentErrors('shared/config.ts', 'export const x = process.env.TABLE_NAME;\n')),
      ...(await environmentErrors('scripts/fixture.ts', 'export const x = process.env.TABLE_NAME;\n')),
    ];

    // Assess
    expect(errors).toEqual([]);
  });
});
