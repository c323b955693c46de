import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layer rules of docs/ARCHITECTURE.md ("Layers"), enforced here: each layer lists the
 * folders it must not import. Imports are relative, so a folder is recognised by its name
 * after the `../` steps. Leaves (shared/errors, shared/phone, shared/clock.ts, shared/ids.ts, shared/identity.ts,
 * shared/config.ts, shared/routes.ts) may be imported by every layer.
 */
const TOOLING = ['scripts', 'test', 'bench', 'infra', 'client'];
const forbid = (folders, why) => ({
  regex: `^(\\.\\./)+(shared/)?(${folders.join('|')})(/|$)`,
  message: `Layer rule (docs/ARCHITECTURE.md): ${why}`,
});
const layer = (files, folders, why) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [forbid(folders, why), forbid(TOOLING, 'production code never imports tooling (scripts, test, bench, infra, client).')] },
    ],
  },
});

export const LAYER_RULES = [
  layer(
    ['functions/**/*.ts'],
    ['data', 'chat', 'queue'],
    'functions/ are thin entry points: they call shared/domain (and shared/http, shared/schema), never data/ or chat/ directly.',
  ),
  layer(
    ['shared/http/**/*.ts'],
    ['data', 'chat', 'queue', 'openapi'],
    'shared/http is the middleware stack: it calls shared/domain and shared/auth, never data/ or chat/.',
  ),
  layer(
    ['shared/domain/**/*.ts', 'shared/auth/**/*.ts'],
    ['http', 'openapi'],
    'domain code never imports shared/http: errors are shared/errors, parameters shared/schema, logs shared/observability.',
  ),
  layer(
    ['shared/schema/**/*.ts'],
    ['http', 'domain', 'auth', 'data', 'chat', 'queue', 'openapi', 'observability'],
    'shared/schema holds parameter schemas only; it may import leaves (errors, phone).',
  ),
  layer(
    ['shared/chat/**/*.ts'],
    ['http', 'domain', 'auth', 'data', 'queue', 'openapi', 'schema'],
    'shared/chat is the chat-network adapter: it knows its wire formats, errors and observability, not the table or the domain.',
  ),
  layer(
    ['shared/events/**/*.ts'],
    ['http', 'domain', 'auth', 'data', 'chat', 'queue', 'openapi', 'schema'],
    'shared/events is the outbound-webhook adapter (signing, URL policy, delivery): it knows no table and no domain.',
  ),
  layer(
    ['shared/data/**/*.ts'],
    ['http', 'domain', 'auth', 'chat', 'queue', 'openapi', 'schema', 'observability'],
    'shared/data knows only its client, keys and errors (and the leaves).',
  ),
  layer(
    ['shared/observability/**/*.ts', 'shared/errors/**/*.ts', 'shared/phone/**/*.ts', 'shared/cache/**/*.ts'],
    ['http', 'domain', 'auth', 'data', 'chat', 'queue', 'outbound', 'openapi', 'schema'],
    'leaves and observability import no layer.',
  ),
  layer(
    ['shared/outbound/**/*.ts', 'shared/queue/**/*.ts'],
    ['http', 'domain', 'auth', 'data', 'chat', 'openapi', 'schema'],
    'shared/outbound (generic outbound HTTP, deadlines) and shared/queue (the step queue port) know no table, domain or http.',
  ),
  layer(['shared/openapi/**/*.ts'], ['http', 'data', 'chat', 'queue'], 'the OpenAPI generator reads the route table, schemas and domain types only.'),
];

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
  ...LAYER_RULES,
  TABLE_ACCESS_RULE,
);
