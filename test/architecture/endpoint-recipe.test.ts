import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDocBudgets } from '../../bench/budgets';
import { CASES, FLOORS } from '../../bench/floors';
import { SCENARIOS } from '../../bench/scenarios';
import { loadRouteContracts, OPENAPI_FILE } from '../../scripts/openapi';
import { buildOpenApiDocument } from '../../shared/openapi/document';
import { API_ROUTES, withDerivedNames, type ApiRoute, type RateLimitClass } from '../../shared/routes';

/**
 * The endpoint recipe of docs/ARCHITECTURE.md ("Adding an endpoint"): for every row of
 * the route table, each part an endpoint takes is there, and a missing one is named.
 * Values and freshness are other tests' work (test/openapi/document.test.ts: every
 * parameter's limits and the committed document; test/bench/round-trips.test.ts: the
 * counts and the budget cells); this file checks that each part exists for each row.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

interface Evidence {
  readme: string;
  openapi: { paths: Record<string, unknown> };
  budgets: ReturnType<typeof readDocBudgets>;
  /** The classes each README "Rate limits" row names, by endpoint path. */
  readmeRateLimits: Map<string, RateLimitClass>;
}

/** The README's "Rate limits" table: `| \`class\` | endpoints | default | setting |`. */
function readmeRateLimits(readme: string): Map<string, RateLimitClass> {
  const named = new Map<string, RateLimitClass>();
  for (const line of readme.split('\n')) {
    const match = /^\| `(api_[a-z_]+)` \| ([^|]+) \|/.exec(line);
    if (!match) continue;
    for (const path of match[2].split(',').map((cell) => cell.trim())) named.set(path, match[1] as RateLimitClass);
  }
  return named;
}

/** The parts of the recipe the route lacks, each named as the doc's checklist names it. */
async function missingParts(route: ApiRoute, evidence: Evidence): Promise<string[]> {
  const missing: string[] = [];
  const where = `(${route.path})`;

  // 2. Function file, exporting schema and handler.
  const source = existsSync(join(ROOT, route.entry)) ? read(route.entry) : undefined;
  if (!source) missing.push(`function file ${route.entry}`);
  else {
    for (const name of ['schema', 'handler']) {
      if (!new RegExp(`^export const ${name}\\b`, 'm').test(source)) missing.push(`\`export const ${name}\` in ${route.entry}`);
    }
  }

  // 3. Domain function.
  if (source && !source.includes("from '../shared/domain/")) {
    missing.push(`domain function: ${route.entry} imports nothing from shared/domain/`);
  }

  // 4. OpenAPI docs: each parameter described, the response declared, the regenerated document.
  if (source?.includes('export const schema') && source.includes('export const response')) {
    try {
      buildOpenApiDocument(await loadRouteContracts([route]), [route]);
    } catch (error) {
      missing.push(`OpenAPI docs of ${route.entry}: ${(error as Error).message}`);
    }
  }
  if (source && !/^export const response\b/m.test(source)) missing.push(`\`export const response\` in ${route.entry}`);
  if (!evidence.openapi.paths[`/${route.path}`]) missing.push(`/${route.path} in docs/openapi.json (npm run openapi)`);

  // 5. Round-trip scenario and its budget row.
  const scenarios = SCENARIOS.filter((scenario) => scenario.path === route.path);
  if (scenarios.length === 0) missing.push(`round-trip scenario in bench/scenarios.ts ${where}`);
  for (const scenario of scenarios) {
    if (!evidence.budgets.has(scenario.doc.row)) missing.push(`budget row "${scenario.doc.row}" in docs/ARCHITECTURE.md (scenario "${scenario.name}")`);
  }

  // 6. Warm-CPU case and floor.
  if (!CASES[route.path]) missing.push(`warm-CPU case in bench/floors.ts (CASES) ${where}`);
  if (!FLOORS[route.path]) missing.push(`warm-CPU floor in bench/floors.ts (FLOORS) ${where}`);

  // 7. README: a curl example, and the rate-limit table.
  if (!evidence.readme.includes(`$BASE/${route.path}`)) missing.push(`curl example with $BASE/${route.path} in README.md`);
  const listedClass = evidence.readmeRateLimits.get(route.path);
  if (route.rateLimitClass !== 'api_write' && listedClass !== route.rateLimitClass)
    missing.push(`${route.path} in the ${route.rateLimitClass} row of README.md "Rate limits"`);
  if (route.rateLimitClass === 'api_write' && listedClass)
    missing.push(`${route.path} out of the ${listedClass} row of README.md "Rate limits" (it is api_write)`);

  return missing;
}

describe('the endpoint recipe (docs/ARCHITECTURE.md, "Adding an endpoint")', () => {
  let evidence: Evidence;

  beforeAll(() => {
    const readme = read('README.md');
    evidence = {
      readme,
      openapi: JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Evidence['openapi'],
      budgets: readDocBudgets(),
      readmeRateLimits: readmeRateLimits(readme),
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
    const route = withDerivedNames({ path: 'widgets/list', rateLimitClass: 'api_read', tableAccess: 'read', tag: 'Contacts', summary: 'List widgets' });
    // Act
    const missing = await missingParts(route, evidence);
    // Assess
    expect(missing).toEqual([
      'function file functions/widgets-list.ts',
      '/widgets/list in docs/openapi.json (npm run openapi)',
      'round-trip scenario in bench/scenarios.ts (widgets/list)',
      'warm-CPU case in bench/floors.ts (CASES) (widgets/list)',
      'warm-CPU floor in bench/floors.ts (FLOORS) (widgets/list)',
      'curl example with $BASE/widgets/list in README.md',
      'widgets/list in the api_read row of README.md "Rate limits"',
    ]);
  });
});

describe('route names derived from the path', () => {
  it('are the function files and names the stack was deployed with (CDK logical ids and log groups unchanged)', () => {
    // Prepare: the values the rows stated before they were derived
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
    const derived = API_ROUTES.map((route) => [route.path, route.entry, route.name]);
    // Assess
    expect(derived).toEqual(deployed);
  });
});
