import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDocBudgets } from '../../bench/budgets';
import { SCENARIOS } from '../../bench/scenarios';
import { TODO } from '../../scripts/new-endpoint';
import { loadRouteContracts, OPENAPI_FILE } from '../../scripts/openapi';
import { buildOpenApiDocument } from '../../shared/openapi/document';
import { API_ROUTES, withDerivedNames, type ApiRoute } from '../../shared/routes';

/**
 * The endpoint recipe of docs/ARCHITECTURE.md ("Adding an endpoint"): for every row of
 * the route table, each part an endpoint takes is there, no stub of `npm run new-endpoint`
 * is left unfinished, and a missing part is named. The parts a route does not write by
 * hand are derived, so nothing here lists endpoints: the OpenAPI document, the client
 * types and the README's endpoint list and rate-limit table (npm run openapi), the
 * warm-CPU case and floor (bench/floors.ts) and the round-trip scenario of a route
 * without one (bench/round-trips.ts). Values and freshness are other tests' work
 * (test/openapi/document.test.ts: every parameter's limits and the committed files;
 * test/bench/round-trips.test.ts: the counts and the budget cells).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Every test file, relative to the root. */
function testFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'artifacts' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

interface Evidence {
  readme: string;
  openapi: { paths: Record<string, unknown> };
  budgets: ReturnType<typeof readDocBudgets>;
  /** Each test file's text, by path. */
  tests: Map<string, string>;
}

/** The shared/domain modules a function file imports, relative to the root. */
const domainModulesOf = (source: string) => [...source.matchAll(/from '\.\.\/(shared\/domain\/[^']+)'/g)].map((match) => `${match[1]}.ts`);

/** The parts of the recipe the route lacks, each named as the doc's checklist names it. */
async function missingParts(route: ApiRoute, evidence: Evidence): Promise<string[]> {
  const missing: string[] = [];
  const unfinished = (file: string, text: string) => text.includes(TODO) && missing.push(`${TODO} left in ${file} (${route.path})`);

  // 1. Route row: written, not the stub's.
  unfinished('shared/routes.ts', route.summary);

  // 2. Function file: its schema (each parameter described), its response, its handler.
  const source = existsSync(join(ROOT, route.entry)) ? read(route.entry) : undefined;
  if (!source) missing.push(`function file ${route.entry}`);
  else {
    for (const name of ['schema', 'response', 'handler']) {
      if (!new RegExp(`^export const ${name}\\b`, 'm').test(source)) missing.push(`\`export const ${name}\` in ${route.entry}`);
    }
    unfinished(route.entry, source);
    if (/^export const (schema|response)\b/m.test(source)) {
      try {
        buildOpenApiDocument(await loadRouteContracts([route]), [route]);
      } catch (error) {
        missing.push(`OpenAPI docs of ${route.entry}: ${(error as Error).message}`);
      }
    }
  }

  // 3. Domain function.
  const domain = source ? domainModulesOf(source) : [];
  if (source && domain.length === 0) missing.push(`domain function: ${route.entry} imports nothing from shared/domain/`);
  for (const module of domain) if (existsSync(join(ROOT, module))) unfinished(module, read(module));

  // 4. Docs: the budget row (the generated files name the route once regenerated).
  const scenarios = SCENARIOS.filter((scenario) => scenario.path === route.path);
  for (const scenario of scenarios) {
    if (!evidence.budgets.has(scenario.doc.row)) missing.push(`budget row "${scenario.doc.row}" in docs/ARCHITECTURE.md (scenario "${scenario.name}")`);
  }
  const row = evidence.budgets.get(route.path);
  if (scenarios.length === 0 && !/^\d+$/.test(row?.budget ?? ''))
    missing.push(`budget row "${route.path}" in docs/ARCHITECTURE.md with a plain count (it is counted with its documented request)`);
  if (row) unfinished('docs/ARCHITECTURE.md', `${row.budget} ${row.why}`);
  if (!evidence.openapi.paths[`/${route.path}`]) missing.push(`/${route.path} in docs/openapi.json (npm run openapi)`);
  if (!evidence.readme.includes(`| \`${route.path}\` |`)) missing.push(`${route.path} in the README's endpoint list (npm run openapi)`);

  // 5. Its tests.
  const importing = [...evidence.tests].filter(([, text]) => text.includes(`/${route.entry.replace(/\.ts$/, '')}'`));
  if (importing.length === 0) missing.push(`a test that imports ${route.entry}`);
  for (const [file, text] of importing) unfinished(file, text);

  return missing;
}

describe('the endpoint recipe (docs/ARCHITECTURE.md, "Adding an endpoint")', () => {
  let evidence: Evidence;

  beforeAll(() => {
    evidence = {
      readme: read('README.md'),
      openapi: JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Evidence['openapi'],
      budgets: readDocBudgets(),
      tests: new Map(testFiles().map((file) => [file, read(file)])),
    };
  });

  for (const route of API_ROUTES) {
    it(`${route.path} has every part`, async () => {
      // Act
      const missing = await missingParts(route, evidence);
      // Assess
      expect(missing).toEqual([]);
    });
  }

  it('names each missing part of a row that has nothing else', async () => {
    // Prepare: a row no part exists for yet
    const route = withDerivedNames({ path: 'widgets/list', rateLimitClass: 'api_read', tableActions: ['Query'], tag: 'Contacts', summary: 'List widgets' });
    // Act
    const missing = await missingParts(route, evidence);
    // Assess
    expect(missing).toEqual([
      'function file functions/widgets-list.ts',
      'budget row "widgets/list" in docs/ARCHITECTURE.md with a plain count (it is counted with its documented request)',
      '/widgets/list in docs/openapi.json (npm run openapi)',
      "widgets/list in the README's endpoint list (npm run openapi)",
      'a test that imports functions/widgets-list.ts',
    ]);
  });

  it('names a stub of npm run new-endpoint left unfinished', async () => {
    // Prepare: a row as the generator writes it
    const route = withDerivedNames({
      path: 'widgets/list',
      rateLimitClass: 'api_read',
      tableActions: ['Query'],
      tag: 'Contacts',
      summary: `${TODO}: one line`,
    });
    // Act
    const missing = await missingParts(route, evidence);
    // Assess
    expect(missing).toContain(`${TODO} left in shared/routes.ts (widgets/list)`);
  });
});

describe('route names derived from the path', () => {
  it('are the function files and names the stack was deployed with (CDK logical ids and log groups unchanged)', () => {
    // Prepare: the values the rows stated before they were derived (a route added since has no entry: its names are new)
    const deployed = [
      ['channels/list', 'functions/channels-list.ts', 'ChannelsList'],
      ['contacts/manage', 'functions/contacts-manage.ts', 'ContactsManage'],
      ['contacts/import', 'functions/contacts-import.ts', 'ContactsImport'],
      ['contacts/list', 'functions/contacts-list.ts', 'ContactsList'],
      ['contacts/delete', 'functions/contacts-delete.ts', 'ContactsDelete'],
      ['labels/manage', 'functions/labels-manage.ts', 'LabelsManage'],
      ['labels/list', 'functions/labels-list.ts', 'LabelsList'],
      ['custom-fields/manage', 'functions/custom-fields-manage.ts', 'CustomFieldsManage'],
      ['custom-fields/list', 'functions/custom-fields-list.ts', 'CustomFieldsList'],
      ['chat/templates/list', 'functions/chat-templates-list.ts', 'ChatTemplatesList'],
      ['chat/templates/send', 'functions/chat-templates-send.ts', 'ChatTemplatesSend'],
      ['chat/message/send', 'functions/chat-message-send.ts', 'ChatMessageSend'],
      ['chat/message/status', 'functions/chat-message-status.ts', 'ChatMessageStatus'],
      ['chat/messages/list', 'functions/chat-messages-list.ts', 'ChatMessagesList'],
      ['automations/list', 'functions/automations-list.ts', 'AutomationsList'],
      ['automations/trigger', 'functions/automations-trigger.ts', 'AutomationsTrigger'],
      ['webhooks/manage', 'functions/webhooks-manage.ts', 'WebhooksManage'],
      ['webhooks/list', 'functions/webhooks-list.ts', 'WebhooksList'],
      ['webhooks/deliveries', 'functions/webhooks-deliveries.ts', 'WebhooksDeliveries'],
      ['webhooks/redeliver', 'functions/webhooks-redeliver.ts', 'WebhooksRedeliver'],
      ['events/list', 'functions/events-list.ts', 'EventsList'],
    ];
    // Act
    const derived = deployed.map(([path]) => {
      const route = API_ROUTES.find((candidate) => candidate.path === path);
      return [path, route?.entry, route?.name];
    });
    // Assess
    expect(derived).toEqual(deployed);
  });
});
