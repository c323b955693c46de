import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The layer table: every folder (a name ending in `/`) and root file of the code, and what
 * it MAY import besides itself and packages; docs/ARCHITECTURE.md ("Layers") states the same
 * rows and test/architecture/layers.test.ts checks that they agree. An entry may name one
 * file of a folder (`shared/outbound/deadline.ts`).
 */
export const LEAVES = [
  'shared/cache/',
  'shared/clock.ts',
  'shared/config.ts',
  'shared/routes.ts',
  'shared/errors/',
  'shared/phone/',
  'shared/ids.ts',
  'shared/identity.ts',
  'shared/map-limit.ts',
];
const SHARED = [
  'shared/http/',
  'shared/openapi/',
  'shared/domain/',
  'shared/auth/',
  'shared/chat/',
  'shared/events/',
  'shared/observability/',
  'shared/data/',
  'shared/queue/',
  'shared/media/',
  'shared/schema/',
  'shared/outbound/',
  ...LEAVES,
];
/** Production rows first, each importing only rows below it; then the tooling rows. */
export const LAYERS = {
  'functions/': [
    'shared/http/',
    'shared/openapi/docs-page.ts',
    'shared/domain/',
    'shared/auth/',
    'shared/observability/',
    'shared/schema/',
    'shared/outbound/deadline.ts',
    ...LEAVES,
  ],
  'shared/http/': ['shared/domain/', 'shared/auth/', 'shared/observability/', 'shared/schema/', 'shared/outbound/deadline.ts', ...LEAVES],
  'shared/openapi/': ['shared/domain/', 'shared/events/', 'shared/schema/', ...LEAVES],
  'shared/domain/': [
    'shared/auth/',
    'shared/chat/',
    'shared/events/',
    'shared/observability/',
    'shared/data/',
    'shared/queue/',
    'shared/media/',
    'shared/schema/',
    ...LEAVES,
  ],
  'shared/auth/': ['shared/observability/', 'shared/data/', 'shared/schema/', ...LEAVES],
  'shared/chat/': ['shared/observability/', 'shared/outbound/', ...LEAVES],
  'shared/events/': ['shared/observability/', 'shared/outbound/', 'shared/schema/', ...LEAVES],
  'shared/observability/': ['shared/data/client.ts', ...LEAVES],
  'shared/data/': LEAVES,
  'shared/queue/': LEAVES,
  'shared/media/': LEAVES,
  'shared/schema/': LEAVES,
  'shared/outbound/': LEAVES,
  'shared/cache/': ['shared/clock.ts'],
  'shared/clock.ts': ['shared/config.ts'],
  'shared/config.ts': ['shared/routes.ts'],
  'shared/routes.ts': [],
  'shared/errors/': [],
  'shared/phone/': [],
  'shared/ids.ts': [],
  'shared/identity.ts': [],
  'shared/map-limit.ts': [],
  'infra/': [
    'shared/observability/metrics.ts',
    'shared/data/keys.ts',
    'shared/data/table-schema.ts',
    'shared/config.ts',
    'shared/routes.ts',
    'shared/errors/',
    'shared/auth/key-placement.ts',
  ],
  'client/': [],
  'scripts/': ['functions/', ...SHARED, 'infra/', 'test/'],
  'bench/': ['functions/', ...SHARED, 'infra/', 'scripts/', 'test/'],
  'test/': ['functions/', ...SHARED, 'infra/', 'client/', 'scripts/', 'bench/'],
};

const ROWS = Object.keys(LAYERS);
const PRODUCTION = ['functions/**', 'shared/**'];
const LAYER_RULE = 'Layer rule (docs/ARCHITECTURE.md, LAYERS in eslint.config.js)';

/** A row or an entry as the plugin selects it: a folder is an element, a file is selected by its path. */
const selector = (entry) => (entry.endsWith('/') ? { element: { type: entry } } : { file: { path: entry } });
const listed = (entries) => (entries.length > 0 ? entries.join(', ') : 'nothing but itself and packages');

/**
 * Module specifiers the linter can resolve: in production code `import()` and `require`
 * take a string literal and nothing loads modules by `createRequire`, so every import
 * passes through the layer table below (which resolves each literal path to its file,
 * however it is spelled).
 */
const literalImports = {
  meta: { type: 'problem', docs: { description: 'Module specifiers are string literals, so the layer table can check them.' }, schema: [] },
  create(context) {
    const refuse = (node, what) => context.report({ node, message: `${LAYER_RULE}: ${what}, so the layer table can check what it loads.` });
    return {
      ImportExpression(node) {
        if (node.source.type !== 'Literal') refuse(node, 'import() takes a string literal');
      },
      "CallExpression[callee.name='require']"(node) {
        if (node.arguments[0]?.type !== 'Literal') refuse(node, 'require() takes a string literal');
      },
      "ImportDeclaration[source.value=/^(node:)?module$/] ImportSpecifier[imported.name='createRequire']"(node) {
        refuse(node, 'production code loads modules by import, not createRequire');
      },
    };
  },
};

/**
 * The layer table enforced (eslint-plugin-boundaries): each row is an element; an import is
 * allowed when it stays in its row, reaches a package or a Node built-in, or reaches an entry
 * of its row, and refused otherwise: static, type-only, `export … from`, dynamic `import()`
 * and `require`, `import('…')` types. Production files belong to a row, and import no file
 * outside every row.
 */
export const LAYER_RULES = [
  {
    files: ['**/*.{ts,js,mjs}'],
    plugins: { boundaries, layers: { rules: { 'literal-imports': literalImports } } },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.d.ts', '.js', '.mjs'] } },
      'boundaries/elements': ROWS.filter((row) => row.endsWith('/')).map((row) => ({ type: row, pattern: `${row}**`, partialMatch: false })),
      'boundaries/files': ROWS.filter((row) => !row.endsWith('/')).map((row) => ({ category: row, pattern: row })),
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
      'boundaries/additional-dependency-nodes': [
        // `type T = import('…').T`, and TypeScript's `import x = require('…')`.
        { selector: 'TSImportType > Literal', kind: 'type', name: 'import-type' },
        { selector: 'TSExternalModuleReference > Literal', kind: 'value', name: 'import-equals' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // The last policy that matches decides: a row refuses everything, then allows packages, itself and its entries.
          policies: [
            ...ROWS.map((row) => ({
              from: selector(row),
              disallow: { to: [{ element: { type: '**' } }, { file: { path: '**' } }] },
              message: `${LAYER_RULE}: ${row} may import only ${listed(LAYERS[row])}.`,
            })),
            { allow: { to: { module: { origin: ['external', 'core'] } } } },
            ...ROWS.map((row) => ({ from: selector(row), allow: { to: [selector(row), ...LAYERS[row].map(selector)] } })),
          ],
        },
      ],
    },
  },
  {
    files: PRODUCTION,
    rules: {
      'boundaries/no-unknown-files': 'error',
      'boundaries/no-unknown-dependencies': 'error',
      'layers/literal-imports': 'error',
    },
  },
];

/**
 * Configuration is read in one place: in production code only shared/config.ts reads the
 * environment (docs/ARCHITECTURE.md "Configuration").
 */
const ENVIRONMENT = 'Configuration rule (docs/ARCHITECTURE.md): only shared/config.ts reads the environment; take the setting from it.';
export const CONFIGURATION_RULE = {
  files: PRODUCTION,
  ignores: ['shared/config.ts'],
  rules: {
    'no-restricted-properties': [
      'error',
      { object: 'process', property: 'env', message: ENVIRONMENT },
      { object: 'globalThis', property: 'process', message: ENVIRONMENT },
    ],
    'no-restricted-imports': [
      'error',
      {
        paths: [
          { name: 'process', message: ENVIRONMENT },
          { name: 'node:process', message: ENVIRONMENT },
        ],
      },
    ],
  },
};

/**
 * Table access goes through the data-layer primitives (docs/ARCHITECTURE.md, shared/data):
 * only shared/data/client.ts (getItem, putItem, update…, queryPage) and shared/data/batch.ts
 * name the table (a `TableName` property, or `tableName()` for a batch's request map), so no call site builds a raw command with hand-written expressions.
 * Tooling (scripts/, test/, bench/) may still send raw commands.
 */
export const TABLE_ACCESS_RULE = {
  files: ['shared/**/*.ts', 'functions/**/*.ts'],
  ignores: ['shared/data/client.ts', 'shared/data/batch.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        // The property, and the name a batch request is keyed by (`RequestItems: { [tableName()]: … }`).
        selector: "Property[key.name='TableName'], Property[key.value='TableName'], CallExpression[callee.name='tableName']",
        message:
          'Table access rule (docs/ARCHITECTURE.md): build table calls with the primitives of shared/data/client.ts and shared/data/batch.ts (getItem, putItem, update(key)…, queryPage), never a raw command naming TableName.',
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'cdk.out/', 'cdk.out.sam/', 'coverage/', 'client/generated/', 'docs/', 'bench/tmp/', 'test/artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The portal page's own script (portal/portal.js): plain browser JavaScript, inlined into the page.
    files: ['portal/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { document: 'readonly', window: 'readonly', location: 'readonly', navigator: 'readonly', URLSearchParams: 'readonly', atob: 'readonly' },
    },
  },
  ...LAYER_RULES,
  TABLE_ACCESS_RULE,
  CONFIGURATION_RULE,
);
