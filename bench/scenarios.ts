import type { TestTenant } from '../test/support/tenants';
import { BENCH_TENANT, chatmidItem, templateItem } from './fixtures';
import type { RequestSpec } from './events';

/**
 * Round-trip scenarios: one request per endpoint case against the local store, with
 * the DynamoDB calls of the handler counted (the authorizer's lookup is warm, so it
 * makes none). Each names the docs/ARCHITECTURE.md row that states its budget and the
 * budget cell as written there; `budget` is the call count that row means for this
 * case. bench/run.ts reports them; test/bench/round-trips.test.ts asserts them.
 *
 * Adding an endpoint: one scenario here (and its row in docs/ARCHITECTURE.md).
 */

export interface ScenarioContext {
  tenant: TestTenant;
  /** Calls an endpoint without counting (setup). */
  call(path: string, request: RequestSpec): Promise<{ status: number; body: unknown }>;
  /** Writes an item directly (setup of data no endpoint writes, e.g. a chatmid pointer). */
  put(item: Record<string, unknown>): Promise<void>;
  /** A value unique to this run (the chatmid pointer partition is global). */
  unique: string;
}

export interface RoundTripScenario {
  name: string;
  /** Route path, or `authorizer`. */
  path: string;
  doc: { row: string; budget: string };
  /** Calls the doc's row allows for this case. */
  budget: number;
  /** Calls this case makes (counts are deterministic); defaults to the budget. */
  expected?: number;
  /** A known gap between the doc and the code, reported rather than hidden (the test marks it it.fails). */
  knownIssue?: string;
  prepare?: (context: ScenarioContext) => Promise<void>;
  request: (context: ScenarioContext) => RequestSpec;
  /** Call once, uncounted, before the counted call: a warm container (caches filled). Only for reads. */
  warm?: boolean;
}

const get = (params: Record<string, unknown> = {}): RequestSpec => ({ method: 'GET', params });
const post = (params: Record<string, unknown>): RequestSpec => ({ method: 'POST', params });

async function withDefinitions(context: ScenarioContext) {
  await context.call('labels/manage', post({ name: 'VIP', color: '#AA0000' }));
  await context.call('labels/manage', post({ name: 'new' }));
  await context.call('custom-fields/manage', post({ name: 'city' }));
  await context.call('custom-fields/manage', post({ name: 'tier', type: 'dropdown', options: ['gold', 'silver'] }));
}

async function withContacts(context: ScenarioContext, count = 12) {
  await withDefinitions(context);
  for (let i = 0; i < count; i++) {
    await context.call('contacts/manage', post({ phoneNumber: `+1415555${String(1000 + i)}`, name: `Contact ${i}`, labelNames: i % 2 ? ['VIP'] : ['new'], customFieldsData: { city: 'Paris' } }));
  }
}

export const SCENARIOS: RoundTripScenario[] = [
  {
    name: 'authorizer, cold key cache',
    path: 'authorizer',
    doc: { row: 'authorize a key', budget: '2, cached 10 s' },
    budget: 2,
    request: () => get(),
  },
  {
    name: 'channels/list',
    path: 'channels/list',
    doc: { row: 'channels/list', budget: '2' },
    budget: 2,
    warm: true,
    request: () => get(),
  },
  {
    name: 'contacts/list page 1 (warm: label definitions cached)',
    path: 'contacts/list',
    doc: { row: 'contacts/list (page 1, no search)', budget: '2' },
    budget: 2,
    warm: true,
    prepare: (context) => withContacts(context),
    request: () => get({ limit: '5' }),
  },
  {
    name: 'contacts/list page 1 after a label change (+1 query, as the row says)',
    path: 'contacts/list',
    doc: { row: 'contacts/list (page 1, no search)', budget: '2' },
    budget: 3,
    prepare: async (context) => {
      await withContacts(context, 4);
      await context.call('contacts/list', get({ limit: '5' }));
      await context.call('labels/manage', post({ name: 'VIP', color: '#00AA00' }));
    },
    request: () => get({ limit: '5' }),
  },
  {
    name: 'contacts/list deep page (1 index page, limit 5)',
    path: 'contacts/list',
    doc: { row: 'contacts/list (deep page or search)', budget: '2 + index pages + ⌈limit/100⌉' },
    budget: 2 + 1 + 1,
    // The row's "2" is the limiter plus a label-definitions query, which a warm container has cached.
    expected: 3,
    warm: true,
    prepare: (context) => withContacts(context),
    request: () => get({ page: '2', limit: '5' }),
  },
  {
    name: 'contacts/list search (1 index page)',
    path: 'contacts/list',
    doc: { row: 'contacts/list (deep page or search)', budget: '2 + index pages + ⌈limit/100⌉' },
    budget: 2 + 1 + 1,
    expected: 3,
    warm: true,
    prepare: (context) => withContacts(context),
    request: () => get({ search: 'contact 1', limit: '5' }),
  },
  {
    name: 'contacts/manage update',
    path: 'contacts/manage',
    doc: { row: 'contacts/manage update', budget: '3 (+1 when the name changes: index entry)' },
    budget: 3,
    prepare: (context) => withContacts(context, 1),
    request: () => post({ phoneNumber: '+14155551000', email: 'c0@example.com', labelNames: ['VIP'], customFieldsData: { city: 'Lyon' } }),
  },
  {
    name: 'contacts/manage update with a new name',
    path: 'contacts/manage',
    doc: { row: 'contacts/manage update', budget: '3 (+1 when the name changes: index entry)' },
    budget: 4,
    prepare: (context) => withContacts(context, 1),
    request: () => post({ phoneNumber: '+14155551000', name: 'Renamed Contact' }),
  },
  {
    name: 'contacts/manage create',
    path: 'contacts/manage',
    doc: { row: 'contacts/manage create', budget: '7' },
    budget: 7,
    prepare: (context) => withDefinitions(context),
    request: () => post({ phoneNumber: '+442079460958', name: 'New Contact', labelNames: ['new'], customFieldsData: { tier: 'gold' } }),
  },
  {
    name: 'labels/list',
    path: 'labels/list',
    doc: { row: 'labels/list, custom-fields/list', budget: '2' },
    budget: 2,
    warm: true,
    prepare: (context) => withDefinitions(context),
    request: () => get(),
  },
  {
    name: 'labels/manage update',
    path: 'labels/manage',
    doc: { row: 'labels/manage', budget: '3 (update) / 4 (create)' },
    budget: 3,
    prepare: (context) => withDefinitions(context),
    request: () => post({ name: 'vip', color: '#123456' }),
  },
  {
    name: 'labels/manage create',
    path: 'labels/manage',
    doc: { row: 'labels/manage', budget: '3 (update) / 4 (create)' },
    budget: 4,
    request: () => post({ name: 'Brand new', color: '#123456' }),
  },
  {
    name: 'custom-fields/list',
    path: 'custom-fields/list',
    doc: { row: 'labels/list, custom-fields/list', budget: '2' },
    budget: 2,
    warm: true,
    prepare: (context) => withDefinitions(context),
    request: () => get(),
  },
  {
    name: 'custom-fields/manage update',
    path: 'custom-fields/manage',
    doc: { row: 'custom-fields/manage', budget: '3–5' },
    budget: 3,
    prepare: (context) => withDefinitions(context),
    request: () => post({ name: 'city', isRequired: false }),
  },
  {
    name: 'custom-fields/manage create',
    path: 'custom-fields/manage',
    doc: { row: 'custom-fields/manage', budget: '3–5' },
    budget: 4,
    request: () => post({ name: 'region', type: 'text' }),
  },
  {
    name: 'custom-fields/manage options without type (reads the stored type)',
    path: 'custom-fields/manage',
    doc: { row: 'custom-fields/manage', budget: '3–5' },
    budget: 4,
    prepare: (context) => withDefinitions(context),
    request: () => post({ name: 'tier', options: ['gold', 'silver', 'bronze'] }),
  },
  {
    name: 'chat/message/status',
    path: 'chat/message/status',
    doc: { row: 'chat/message/status', budget: '2' },
    budget: 2,
    warm: true,
    prepare: (context) => context.put(chatmidItem(context.tenant.workspaceId, context.tenant.channelIds[0], `${BENCH_TENANT.chatmid}${context.unique}`)),
    request: (context) => get({ chatmid: `${BENCH_TENANT.chatmid}${context.unique}` }),
  },
  {
    name: 'chat/templates/list',
    path: 'chat/templates/list',
    doc: { row: 'chat/templates/list', budget: '2' },
    budget: 2,
    warm: true,
    prepare: async (context) => {
      for (let i = 0; i < 4; i++) await context.put(templateItem(context.tenant.workspaceId, context.tenant.channelIds[0], i));
    },
    request: () => get(),
  },
  {
    name: 'automations/list',
    path: 'automations/list',
    doc: { row: 'automations/list', budget: '2' },
    budget: 2,
    warm: true,
    prepare: async (context) => {
      const { createAutomation } = await import('../shared/data/automations');
      await createAutomation(context.tenant.workspaceId, context.tenant.channelIds[0], { name: 'Welcome Flow', status: 'active', steps: [{ type: 'add_labels', labels: ['new'] }] });
    },
    request: () => get(),
  },
  {
    name: 'automations/trigger, new contact, by name',
    path: 'automations/trigger',
    doc: { row: 'automations/trigger', budget: '14 (new contact, by name)' },
    budget: 14,
    prepare: async (context) => {
      const { createAutomation } = await import('../shared/data/automations');
      await createAutomation(context.tenant.workspaceId, context.tenant.channelIds[0], { name: 'Welcome Flow', status: 'active', steps: [{ type: 'add_labels', labels: ['new'] }] });
    },
    request: () => post({ phoneNumber: '+14155550190', automationName: 'welcome flow' }),
  },
];
