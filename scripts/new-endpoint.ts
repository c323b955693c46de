import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { routeEntry, routeFunctionName, type RateLimitClass, type RouteRow } from '../shared/routes';

/**
 * `npm run new-endpoint -- PATH [--class api_read|api_write|api_automation_trigger|api_import]
 * [--tag TAG] [--domain shared/domain/FILE.ts]`: writes a new endpoint's stubs, the
 * parts docs/ARCHITECTURE.md ("Adding an endpoint") asks of every route row:
 *
 * 1. its row in shared/routes.ts,
 * 2. its function file (schema, response, handler calling the domain function),
 * 3. the domain function and its answer's view (appended to the domain module, or a new one),
 * 4. its budget row in docs/ARCHITECTURE.md ("DynamoDB calls per request"),
 * 5. its test file.
 *
 * Everything else is derived from those (the OpenAPI document, the client types, the
 * README's endpoint list and rate-limit table: `npm run openapi`; the warm-CPU case and
 * floor and the round-trip scenario: the bench). Each stub compiles and passes as written,
 * and marks what only its author can say with `TODO(new-endpoint)`; the recipe test
 * (test/architecture/endpoint-recipe.test.ts) names every marker left, so no stub ships.
 */

export const TODO = 'TODO(new-endpoint)';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const TAGS: Record<string, RouteRow['tag']> = {
  channels: 'Channels',
  contacts: 'Contacts',
  labels: 'Labels',
  'custom-fields': 'Custom fields',
  chat: 'Chat',
  automations: 'Automations',
  webhooks: 'Webhooks',
  events: 'Webhooks',
};

export interface NewEndpoint {
  path: string;
  rateLimitClass: RateLimitClass;
  tag: RouteRow['tag'];
  /** The domain module, relative to the root: `shared/domain/<first segment of the path>.ts` by default. */
  domain: string;
}

const pascal = (words: string[]) => words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');

/** `contacts/archive` → `archiveContacts`: the path's last segment (its verb), then the rest. */
export function domainFunctionName(path: string): string {
  const segments = path.split('/');
  const verb = segments[segments.length - 1].split('-');
  return verb[0] + pascal([...verb.slice(1), ...segments.slice(0, -1).flatMap((segment) => segment.split('-'))]);
}

/** Adds `names` to the import from `from` (a new import line after the last one when there is none). */
export function withImport(source: string, names: string[], from: string): string {
  const existing = new RegExp(`^import \\{([^}]*)\\} from '${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}';$`, 'm').exec(source);
  if (existing) {
    const present = existing[1]
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const bare = (name: string) => name.replace(/^type /, '');
    const merged = [...present, ...names.filter((name) => !present.some((other) => bare(other) === bare(name)))];
    return source.replace(existing[0], `import { ${merged.join(', ')} } from '${from}';`);
  }
  const imports = [...source.matchAll(/^import .*;$/gm)];
  const at = imports.length ? imports[imports.length - 1].index + imports[imports.length - 1][0].length + 1 : 0;
  return `${source.slice(0, at)}import { ${names.join(', ')} } from '${from}';\n${source.slice(at)}`;
}

function routeRow(endpoint: NewEndpoint): string {
  return [
    '  {',
    `    path: '${endpoint.path}',`,
    `    rateLimitClass: '${endpoint.rateLimitClass}',`,
    // A first guess: test/architecture/bundle-table-actions.test.ts names what the built code really calls.
    `    tableActions: ${endpoint.rateLimitClass === 'api_read' ? "['Query']" : "['GetItem', 'PutItem', 'UpdateItem']"},`,
    `    tag: '${endpoint.tag}',`,
    `    summary: '${TODO}: one line for the OpenAPI document and the README',`,
    '  },',
  ].join('\n');
}

function functionFile(endpoint: NewEndpoint, names: Names): string {
  const domain = `../${endpoint.domain.replace(/\.ts$/, '')}`;
  return `import * as v from 'valibot';
import { ${names.fn}, ${names.view} } from '${domain}';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId } from '../shared/schema/params';
import { endpointResponse } from '../shared/schema/responses';

/** ${endpoint.path}: ${TODO}: what it does, and for whom. */
export const schema = v.object({
  channelId: channelId(),
  // ${TODO}: each parameter as described(schema, 'what it means', example) (shared/schema/docs.ts).
});

export const response = endpointResponse({
  data: ${names.view},
  description: '${TODO}: what data holds.',
});

export const handler = apiEndpoint({
  path: '${endpoint.path}',
  schema,
  response,
  channelScoped: true,
  handle: async (_input, { channel }) => ({ data: await ${names.fn}(channel) }),
});
`;
}

function domainStub(endpoint: NewEndpoint, names: Names): string {
  return `
/** What ${endpoint.path} answers. */
export const ${names.view} = component(
  '${names.view}',
  v.strictObject({
    channelId: described(v.string(), '${TODO}: what each field of the answer means', 'ch_demoacmesupport'),
  }),
);

/** ${endpoint.path}: ${TODO}: the rule it applies (table access stays in shared/data). */
export async function ${names.fn}(channel: ChannelRef): Promise<v.InferOutput<typeof ${names.view}>> {
  return { channelId: channel.channelId };
}
`;
}

function domainModule(source: string, endpoint: NewEndpoint, names: Names): string {
  const up = relative(dirname(join(ROOT, endpoint.domain)), join(ROOT, 'shared')).replaceAll('\\', '/') || '.';
  let module = source;
  if (!/^import \* as v from 'valibot';$/m.test(module)) module = `import * as v from 'valibot';\n${module}`;
  module = withImport(module, ['type ChannelRef'], `${up}/identity`);
  module = withImport(module, ['described'], `${up}/schema/docs`);
  module = withImport(module, ['component'], `${up}/schema/responses`);
  return `${module.trimEnd()}\n${domainStub(endpoint, names)}`;
}

function testFile(endpoint: NewEndpoint): string {
  const name = routeEntry(endpoint.path)
    .replace(/^functions\//, '')
    .replace(/\.ts$/, '');
  return `import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { handler, response } from '../../functions/${name}';
import { callApi } from '../support/api';
import { createTenant } from '../support/tenants';

describe('${endpoint.path}', () => {
  it('answers what its response declares (${TODO}: what it does, and what it refuses)', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const answer = await callApi(handler, { apiKey: tenant.adminKey, params: {} });
    // Assess
    expect(answer.status).toBe(200);
    expect(v.is(response.data, answer.body.data)).toBe(true);
  });
});
`;
}

const BUDGET_TABLE = '### DynamoDB calls per request (warm authorizer)';

/** The budget row, as the last row of the "DynamoDB calls per request" table. */
function withBudgetRow(doc: string, endpoint: NewEndpoint): string {
  const start = doc.indexOf(BUDGET_TABLE);
  if (start < 0) throw new Error(`docs/ARCHITECTURE.md has no "${BUDGET_TABLE}" table`);
  const lines = doc.slice(start).split('\n');
  const firstRow = lines.findIndex((line) => line.startsWith('|'));
  let last = firstRow;
  while (lines[last + 1]?.startsWith('|')) last++;
  lines.splice(
    last + 1,
    0,
    `| ${endpoint.path} | 1 | ${TODO}: the limiter; then each call, in order (a route without a scenario in bench/scenarios.ts is counted with its documented request, so this is a plain count) |`,
  );
  return doc.slice(0, start) + lines.join('\n');
}

interface Names {
  fn: string;
  view: string;
}

/** Writes the stubs of a new endpoint under `root`; returns the files written, relative to it. */
export function writeEndpointStubs(endpoint: NewEndpoint, root = ROOT): string[] {
  const entry = routeEntry(endpoint.path);
  if (!/^[a-z][a-z0-9-]*(\/[a-z][a-z0-9-]*)+$/.test(endpoint.path))
    throw new Error(`${endpoint.path}: a path is lower-case words joined by / (e.g. contacts/archive)`);
  if (existsSync(join(root, entry))) throw new Error(`${entry} exists already`);
  const names = { fn: domainFunctionName(endpoint.path), view: `${routeFunctionName(endpoint.path)}Result` };
  const test = `test/functions/${entry.replace(/^functions\//, '')}`.replace(/\.ts$/, '.test.ts');
  const file = (path: string) => join(root, path);
  const routes = readFileSync(file('shared/routes.ts'), 'utf8');
  const rowsEnd = routes.indexOf('];\n\nexport const API_ROUTES');
  if (rowsEnd < 0) throw new Error('shared/routes.ts: the end of ROUTE_ROWS was not found');
  if (routes.includes(`path: '${endpoint.path}',`)) throw new Error(`shared/routes.ts has a row for ${endpoint.path} already`);
  const domain = existsSync(file(endpoint.domain)) ? readFileSync(file(endpoint.domain), 'utf8') : '';

  writeFileSync(file('shared/routes.ts'), `${routes.slice(0, rowsEnd)}${routeRow(endpoint)}\n${routes.slice(rowsEnd)}`);
  writeFileSync(file(entry), functionFile(endpoint, names));
  writeFileSync(file(endpoint.domain), domainModule(domain, endpoint, names));
  writeFileSync(file('docs/ARCHITECTURE.md'), withBudgetRow(readFileSync(file('docs/ARCHITECTURE.md'), 'utf8'), endpoint));
  writeFileSync(file(test), testFile(endpoint));
  return ['shared/routes.ts', entry, endpoint.domain, 'docs/ARCHITECTURE.md', test];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { class: { type: 'string', default: 'api_write' }, tag: { type: 'string' }, domain: { type: 'string' } },
  });
  const path = positionals[0];
  if (!path) {
    console.error(
      'Usage: npm run new-endpoint -- PATH [--class api_read|api_write|api_automation_trigger|api_import] [--tag TAG] [--domain shared/domain/FILE.ts]',
    );
    process.exit(2);
  }
  const first = path.split('/')[0];
  const tag = (values.tag ?? TAGS[first]) as RouteRow['tag'] | undefined;
  if (!tag) throw new Error(`No tag for ${first}: pass --tag (one of ${[...new Set(Object.values(TAGS))].join(', ')})`);
  const written = writeEndpointStubs({
    path,
    rateLimitClass: values.class as RateLimitClass,
    tag,
    domain: values.domain ?? `shared/domain/${first}.ts`,
  });
  console.log(`Wrote the stubs of ${path}:\n${written.map((file) => `  ${file}`).join('\n')}`);
  console.log(`Next: replace every ${TODO} in them, then npm run openapi (docs/openapi.json, client types, README) and npx vitest run ${written[4]}.`);
}
