import type { APIGatewayProxyEvent, APIGatewayProxyResult, SQSBatchResponse } from 'aws-lambda';
import type { ChannelRecord } from '../shared/data/channels';
import type { AutomationStep } from '../shared/domain/automation-steps';
import { webhookEnvelope } from '../scripts/local/sandbox-webhooks';
import { DOCS_PATH, OPENAPI_PATH, SUPPORT_FUNCTIONS } from '../shared/routes';
import type { ChatNetwork } from '../test/support/chat';
import type { TestTenant } from '../test/support/tenants';
import { MESSAGE_HISTORY_TARGET } from './budgets';
import { BENCH_TENANT, chatmidItem, templateItem } from './fixtures';
import { lambdaContext, type RequestSpec } from './events';

/**
 * Round-trip scenarios: one request per endpoint case against the local store, with
 * the DynamoDB calls of the handler counted (the authorizer's lookup is warm, so it
 * makes none). Each names the docs/ARCHITECTURE.md row that states its budget and the
 * budget cell as written there; `budget` is the call count that row means for this
 * case. bench/run.ts reports them; test/bench/round-trips.test.ts asserts them.
 *
 * Functions that are not API endpoints (SUPPORT_FUNCTIONS: the webhook, the automation
 * runner and re-drive, the public documents) name the function in `path` and `invoke`
 * their real handler with the event their source builds, as test/ does.
 *
 * A route without a scenario here is counted with its documented request against the
 * docs/ARCHITECTURE.md row named by its path (bench/round-trips.ts); a route whose request
 * needs data first, or has several cases worth counting, gets scenarios here. A support
 * function needs one (test/bench/round-trips.test.ts fails for a function without one).
 */

export interface ScenarioContext {
  tenant: TestTenant;
  /** Calls an endpoint without counting (setup). */
  call(path: string, request: RequestSpec): Promise<{ status: number; body: unknown }>;
  /** Writes an item directly (setup of data no endpoint writes, e.g. a chatmid pointer). */
  put(item: Record<string, unknown>): Promise<void>;
  /** A value unique to this run (the chatmid pointer partition is global). */
  unique: string;
  /** Values the setup keeps for the counted call (an automation id, a chatmid). */
  saved: Record<string, string>;
  /** Scenarios with `chat`: the sandbox chat network and the tenant's channel on it. */
  chat?: { network: ChatNetwork; channel: ChannelRecord };
}

/** A support function's handler, called with the event its source builds. */
export type SupportHandler = (event?: unknown, context?: unknown) => Promise<unknown>;

/** What a support function's counted call came to, in HTTP terms (200: it did its work). */
export interface Invocation {
  status: number;
  body?: unknown;
}

export interface RoundTripScenario {
  name: string;
  /** Route path, `authorizer`, or the name of a support function (`WhatsAppWebhook`, `AutomationRunner`…). */
  path: string;
  doc: { row: string; budget: string };
  /** Calls the doc's row allows for this case. */
  budget: number;
  /** Calls this case makes (counts are deterministic); defaults to the budget. */
  expected?: number;
  /** A known gap between the doc and the code, reported rather than hidden (the test marks it it.fails). */
  knownIssue?: string;
  /** The tenant's channel is on the sandbox chat network (scripts/local/sandbox.ts), as in test/functions/chat-*.test.ts. */
  chat?: boolean;
  prepare?: (context: ScenarioContext) => Promise<void>;
  /** API routes: the request, sent as API Gateway would (the authorizer, then the proxy event). */
  request?: (context: ScenarioContext) => RequestSpec | Promise<RequestSpec>;
  /** Support functions: the counted call of the real handler. */
  invoke?: (handler: SupportHandler, context: ScenarioContext) => Promise<Invocation>;
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

/** Puts one event of a contact into the tenant's first channel's events log; its id. */
async function logEvent(context: ScenarioContext, seed: string): Promise<string> {
  const { logUndeliveredEvent } = await import('../test/support/event-log');
  return logUndeliveredEvent({ workspaceId: context.tenant.workspaceId, channelId: context.tenant.channelIds[0] }, seed);
}

async function withContacts(context: ScenarioContext, count = 12) {
  await withDefinitions(context);
  for (let i = 0; i < count; i++) {
    await context.call(
      'contacts/manage',
      post({ phoneNumber: `+1415555${String(1000 + i)}`, name: `Contact ${i}`, labelNames: i % 2 ? ['VIP'] : ['new'], customFieldsData: { city: 'Paris' } }),
    );
  }
}

/** A contact without labels, written directly: contacts/manage has not run in this tenant, so no definitions are cached for it. */
async function withUncachedContact(context: ScenarioContext, phone: string) {
  const { keys } = await import('../shared/data/keys');
  const { ContactItem } = await import('../shared/data/contacts');
  const { workspaceId, channelIds } = context.tenant;
  const at = new Date().toISOString();
  await context.put({
    ...keys.contact({ workspaceId, channelId: channelIds[0] }, phone),
    entity: ContactItem.tag,
    id: `ct_${context.unique}`,
    phone,
    name: 'Contact 0',
    labelIds: [],
    customFields: {},
    status: 'active',
    createdAt: at,
    updatedAt: at,
  });
}

/** Definitions, and contact +14155551000 written while no container has cached them. */
async function withDefinitionsAndUncachedContact(context: ScenarioContext) {
  await withDefinitions(context);
  await withUncachedContact(context, '14155551000');
}

/** Ten contacts/import rows (new numbers, names, one label). */
const IMPORT_ROWS = Array.from({ length: 10 }, (_, i) => ({ phoneNumber: `+1415555${2000 + i}`, name: `Imported ${i}`, labelNames: ['VIP'] }));
const IMPORT_ROW = {
  row: 'contacts/import',
  budget:
    '2 + ⌈rows/100⌉ + (when it creates) 3 + new + ⌈new/32⌉ + 2 × ⌈new/40⌉ + 1 a row it updates (2 with a name, 3 with a name for an imported contact) + 1 when those contacts were imported',
};

const MANAGE_UPDATE_ROW = {
  row: 'contacts/manage update',
  budget: '2 (+1 when the name changes: index entry, +2 for an imported contact; +1 when definitions are needed and not cached)',
};

async function withAutomation(context: ScenarioContext, name: string, steps: AutomationStep[]) {
  const { createAutomation } = await import('../shared/data/automations');
  const automation = await createAutomation(
    { workspaceId: context.tenant.workspaceId, channelId: context.tenant.channelIds[0] },
    { name, status: 'active', steps },
  );
  context.saved.automationId = automation!.id;
}

/** The chat network of a `chat` scenario. */
const chatOf = (context: ScenarioContext) => {
  if (!context.chat) throw new Error('this scenario needs `chat: true`');
  return context.chat;
};

/** A contact writes to the channel: the sandbox delivers the inbound message through the signed webhook (opens the 24-hour window). */
/** Delivers an inbound text from `phone` to the scenario's channel; its chatmid. */
async function inboundFrom(context: ScenarioContext, phone: string): Promise<string> {
  const { network, channel } = chatOf(context);
  const { chatmid } = await network.sandbox.deliverInbound({ phoneNumberId: channel.phoneNumberId, from: phone, text: 'Hi there' });
  return chatmid;
}

/** A webhook delivery in the Cloud API shape for the scenario's channel (the sandbox chat network's own envelope). */
function delivery(context: ScenarioContext, value: Record<string, unknown>) {
  const { channel } = chatOf(context);
  return webhookEnvelope({ wabaId: channel.wabaId!, phoneNumberId: channel.phoneNumberId, displayPhoneNumber: channel.displayPhoneNumber! }, value);
}

const unixSeconds = () => String(Math.floor(Date.now() / 1000));

/** An inbound text from `from` to the scenario's channel, with a chatmid of its own. */
const inbound = (context: ScenarioContext, from: string, text = 'Hello') =>
  delivery(context, {
    contacts: [{ profile: { name: 'Ann Customer' }, wa_id: from }],
    messages: [{ from, id: `wamid.bench${context.unique}`, timestamp: unixSeconds(), type: 'text', text: { body: text } }],
  });

/** Calls the webhook handler with a delivery signed with the app secret, as API Gateway hands it over. */
async function signedDelivery(handler: SupportHandler, body: unknown): Promise<Invocation> {
  const { signedWebhook } = await import('../test/support/chat');
  const result = (await handler(signedWebhook(body))) as APIGatewayProxyResult;
  return { status: result.statusCode, body: result.body };
}

/** Calls the runner with one SQS record for step `step` of the saved execution, as the event source mapping does. */
async function runStep(handler: SupportHandler, context: ScenarioContext, step: number): Promise<Invocation> {
  const { sqsEvent, stepMessageBody } = await import('../test/support/automations');
  const body = stepMessageBody({ workspaceId: context.tenant.workspaceId, channelId: context.tenant.channelIds[0] }, context.saved.executionId, step);
  const result = (await handler(sqsEvent([{ messageId: `bench-step-${step}`, body, receiveCount: 1 }]), lambdaContext())) as SQSBatchResponse;
  return { status: result.batchItemFailures.length ? 500 : 200, body: result };
}

/** Triggers the saved automation for `phone` (uncounted) and keeps the execution id. */
async function triggerAutomation(context: ScenarioContext, phone: string) {
  const { body } = await context.call('automations/trigger', post({ phoneNumber: phone, automationId: context.saved.automationId }));
  context.saved.executionId = (body as { data: { executionId: string } }).data.executionId;
}

/** The scheduled re-drive: no event; 200 when it handed exactly `expected` executions to the queue. */
async function redriveTick(handler: SupportHandler, expected: number): Promise<Invocation> {
  const result = (await handler()) as { redriven: number };
  return { status: result.redriven === expected ? 200 : 500, body: result };
}

/** The scheduled retention sweep: 200 when it blanked exactly `expected` messages. */
async function sweepTick(handler: SupportHandler, expected: number): Promise<Invocation> {
  const result = (await handler()) as { blanked: number };
  return { status: result.blanked === expected ? 200 : 500, body: result };
}

/** A public GET as API Gateway hands it to a function without an authorizer. */
async function publicGet(handler: SupportHandler, path: string): Promise<Invocation> {
  const result = (await handler({
    httpMethod: 'GET',
    path,
    resource: path,
    headers: {},
    queryStringParameters: null,
    body: null,
    requestContext: { requestId: 'bench' },
  } as unknown as APIGatewayProxyEvent)) as APIGatewayProxyResult;
  return { status: result.statusCode };
}

/**
 * Budget rows of docs/ARCHITECTURE.md that several scenarios share, and the parts their
 * budgets add up from (each call's reason is in the row).
 */
const TRIGGER_ROW = { row: 'automations/trigger', budget: '15 (new contact, by name) / 9 (known contact, by id)' };
const SEND_ROW = { row: 'chat/templates/send, chat/message/send', budget: '11 + 5 (new contact) + 2 (first send to the contact) + 2 (apiReference)' };
const SEND = { base: 11, newContact: 5, firstSend: 2, apiReference: 2 };
const INBOUND_ROW = {
  row: 'WhatsAppWebhook inbound message',
  budget:
    '10 (known contact, number cached) / 16 (new contact, number not cached); +5 for an opt-out or opt-in keyword that changes the status; +2 for a media message',
};
const INBOUND = { base: 10, channelLookup: 1, newContact: 5, keyword: 5, media: 2 };
const STATUS_ROW = { row: 'contacts/manage with status', budget: 'the update or create row + 5 (+3 when the status stays the same)' };
const HISTORY_ROW = {
  row: MESSAGE_HISTORY_TARGET.path,
  budget: `${MESSAGE_HISTORY_TARGET.byPhoneNumber} (by phoneNumber) / ${MESSAGE_HISTORY_TARGET.byContactId} (by contactId); 1 less for a page without a sent message`,
};
const DELETE_ROW = {
  row: 'contacts/delete',
  budget: '19 (+1 by contactId, +1 with a wa_id, +1 for an imported contact) + 3 per message + 1 per apiReference claim, status record or event record',
};
const DELETE = { base: 19, byId: 1, waId: 1, imported: 1, perMessage: 3 };
const RUNNER_ROW = { row: 'AutomationRunner step', budget: "3 + the step's calls (+2 when a next step follows, +1 when the step ends the execution)" };
const RUNNER = {
  base: 3,
  nextStep: 2,
  /** The execution's end event handed to the event queue (SQS in AWS, a table write locally). */
  endEvent: 1,
  labelsStep: 3,
  /** The contact, then a send with apiReference: the sends' row without the limiter. */
  sendStep: 1 + (SEND.base - 1) + SEND.apiReference,
};
const REDRIVE_ROW = { row: 'AutomationRedrive tick', budget: '8 + 3 per due entry (+2 when it was never counted)' };
const REDRIVE = { base: 8, perEntry: 3, uncounted: 2 };
const STATIC_ROW = { row: 'OpenAPI document, docs page, portal page', budget: '0' };
const SWEEP_ROW = { row: 'MessageContentSweep tick', budget: '8 + 4 per expired message (3 without a chatmid)' };
const SWEEP = { base: 8, perMessage: 4 };

/** The portal's calls about one key share a row: they read the same items. */
const PORTAL_KEY_READS_ROW = 'GET /portal/api/usage, GET /portal/api/requests';

/** The parameters of a call about one of the caller's keys (made in the setup). */
const ownKey = (context: ScenarioContext) => ({ keyId: context.saved.keyId });

/** The parameters naming the subscription made in the setup. */
const webhookOf = (context: ScenarioContext) => ({ webhookId: context.saved.webhookId });

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
    name: 'contacts/list deep page (limit 5; warm: the phone order cached)',
    path: 'contacts/list',
    doc: { row: 'contacts/list (deep page)', budget: "3 + ⌈limit/100⌉ (+ index pages when this container's phone order is not current)" },
    budget: 3 + 1,
    // The row's "3" is the limiter, the head and a label-definitions query, which a warm container has cached.
    expected: 3,
    warm: true,
    prepare: (context) => withContacts(context),
    request: () => get({ page: '2', limit: '5' }),
  },
  {
    name: 'contacts/list search (1 index page)',
    path: 'contacts/list',
    doc: { row: 'contacts/list (search)', budget: '2 + index pages + ⌈limit/100⌉' },
    budget: 2 + 1 + 1,
    expected: 3,
    warm: true,
    prepare: (context) => withContacts(context),
    request: () => get({ search: 'contact 1', limit: '5' }),
  },
  {
    name: 'contacts/manage update with labels and fields (warm: definitions cached)',
    path: 'contacts/manage',
    doc: MANAGE_UPDATE_ROW,
    budget: 2,
    // The create in withContacts has just read the definitions in this container.
    prepare: (context) => withContacts(context, 1),
    request: () => post({ phoneNumber: '+14155551000', email: 'c0@example.com', labelNames: ['VIP'], customFieldsData: { city: 'Lyon' } }),
  },
  {
    name: 'contacts/manage update with labels and fields (cold: +1 definitions query)',
    path: 'contacts/manage',
    doc: MANAGE_UPDATE_ROW,
    budget: 3,
    prepare: withDefinitionsAndUncachedContact,
    request: () => post({ phoneNumber: '+14155551000', email: 'c0@example.com', labelNames: ['VIP'], customFieldsData: { city: 'Lyon' } }),
  },
  {
    name: 'contacts/manage update without labels or fields (no definitions read, even uncached)',
    path: 'contacts/manage',
    doc: MANAGE_UPDATE_ROW,
    budget: 2,
    prepare: withDefinitionsAndUncachedContact,
    request: () => post({ phoneNumber: '+14155551000', email: 'c0@example.com' }),
  },
  {
    name: 'contacts/manage update with a new name',
    path: 'contacts/manage',
    doc: MANAGE_UPDATE_ROW,
    budget: 3,
    prepare: withDefinitionsAndUncachedContact,
    request: () => post({ phoneNumber: '+14155551000', name: 'Renamed Contact' }),
  },
  {
    name: 'contacts/manage update with a new name of an imported contact (its packed index chunk read and written back)',
    path: 'contacts/manage',
    doc: MANAGE_UPDATE_ROW,
    budget: 4,
    prepare: async (context) => {
      await withDefinitions(context);
      await context.call('contacts/import', post({ contacts: [{ phoneNumber: '+14155552100', name: 'Imported Contact' }] }));
    },
    request: () => post({ phoneNumber: '+14155552100', name: 'Renamed Import' }),
  },
  {
    name: 'contacts/manage create',
    path: 'contacts/manage',
    doc: { row: 'contacts/manage create', budget: '8' },
    budget: 8,
    prepare: (context) => withDefinitions(context),
    request: () => post({ phoneNumber: '+442079460958', name: 'New Contact', labelNames: ['new'], customFieldsData: { tier: 'gold' } }),
  },
  {
    name: 'contacts/manage create without labels or fields (definitions still read: required fields)',
    path: 'contacts/manage',
    doc: { row: 'contacts/manage create', budget: '8' },
    budget: 8,
    prepare: (context) => withDefinitions(context),
    request: () => post({ phoneNumber: '+442079460958', name: 'New Contact' }),
  },
  {
    name: 'contacts/import, 10 new contacts (one index chunk, one id pointer item)',
    path: 'contacts/import',
    doc: IMPORT_ROW,
    budget: 2 + 1 + 3 + 10 + 1 + 2,
    prepare: (context) => withDefinitions(context),
    request: () => post({ contacts: IMPORT_ROWS }),
  },
  {
    name: 'contacts/import, the same 10 rows without names again (updates only)',
    path: 'contacts/import',
    doc: IMPORT_ROW,
    budget: 2 + 1 + 10 + 1,
    prepare: async (context) => {
      await withDefinitions(context);
      await context.call('contacts/import', post({ contacts: IMPORT_ROWS }));
    },
    request: () => post({ contacts: IMPORT_ROWS.map(({ phoneNumber, labelNames }) => ({ phoneNumber, labelNames })) }),
  },
  {
    name: 'contacts/manage update with status (opt-out by API)',
    path: 'contacts/manage',
    doc: STATUS_ROW,
    budget: 2 + 5,
    prepare: async (context) => void (await context.call('contacts/manage', post({ phoneNumber: '+14155550120' }))),
    request: () => post({ phoneNumber: '+14155550120', status: 'opted_out' }),
  },
  {
    name: 'contacts/delete by phoneNumber, no messages',
    path: 'contacts/delete',
    doc: DELETE_ROW,
    budget: DELETE.base,
    prepare: async (context) => void (await context.call('contacts/manage', post({ phoneNumber: '+14155550121', name: 'Gone Soon' }))),
    request: () => post({ phoneNumber: '+14155550121' }),
  },
  {
    name: 'contacts/delete of an imported contact (its packed index chunk read and written back)',
    path: 'contacts/delete',
    doc: DELETE_ROW,
    budget: DELETE.base + DELETE.imported,
    prepare: async (context) => void (await context.call('contacts/import', post({ contacts: [{ phoneNumber: '+14155550124', name: 'Gone Soon' }] }))),
    request: () => post({ phoneNumber: '+14155550124' }),
  },
  {
    name: 'contacts/delete by contactId, no messages',
    path: 'contacts/delete',
    doc: DELETE_ROW,
    budget: DELETE.base + DELETE.byId,
    prepare: async (context) => {
      const { body } = await context.call('contacts/manage', post({ phoneNumber: '+14155550122', name: 'Gone Soon' }));
      context.saved.contactId = (body as { data: { id: string } }).data.id;
    },
    request: (context) => post({ contactId: context.saved.contactId }),
  },
  {
    name: 'contacts/delete of a contact that wrote once (wa_id, one message)',
    path: 'contacts/delete',
    chat: true,
    doc: DELETE_ROW,
    budget: DELETE.base + DELETE.waId + DELETE.perMessage,
    prepare: async (context) => void (await inboundFrom(context, '14155550123')),
    request: () => post({ phoneNumber: '+14155550123' }),
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
    name: 'chat/message/read (an inbound message, with the typing indicator)',
    path: 'chat/message/read',
    chat: true,
    doc: { row: 'chat/message/read', budget: '4' },
    budget: 4,
    prepare: async (context) => {
      context.saved.chatmid = await inboundFrom(context, '14155550140');
    },
    request: (context) => post({ chatmid: context.saved.chatmid, typingIndicator: true }),
  },
  {
    name: 'chat/messages/list by phoneNumber (an inbound and a sent message)',
    path: 'chat/messages/list',
    chat: true,
    doc: HISTORY_ROW,
    budget: MESSAGE_HISTORY_TARGET.byPhoneNumber,
    prepare: async (context) => {
      await inboundFrom(context, '14155550124');
      await context.call('chat/message/send', post({ to: '+14155550124', body: 'Hello back' }));
    },
    request: () => get({ phoneNumber: '+14155550124' }),
  },
  {
    name: 'chat/messages/list by contactId, next page by cursor',
    path: 'chat/messages/list',
    chat: true,
    doc: HISTORY_ROW,
    budget: MESSAGE_HISTORY_TARGET.byContactId,
    prepare: async (context) => {
      // Two sends after the inbound message (times in ms, so they are the two newest): page 2 holds a sent message.
      await inboundFrom(context, '14155550125');
      await context.call('chat/message/send', post({ to: '+14155550125', body: 'Hello back' }));
      await context.call('chat/message/send', post({ to: '+14155550125', body: 'Anything else?' }));
      const { body } = await context.call('contacts/manage', post({ phoneNumber: '+14155550125' }));
      context.saved.contactId = (body as { data: { id: string } }).data.id;
      const first = await context.call('chat/messages/list', get({ contactId: context.saved.contactId, limit: '1' }));
      context.saved.cursor = (first.body as { nextCursor: string }).nextCursor;
    },
    request: (context) => get({ contactId: context.saved.contactId, limit: '1', cursor: context.saved.cursor }),
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
      await createAutomation(
        { workspaceId: context.tenant.workspaceId, channelId: context.tenant.channelIds[0] },
        { name: 'Welcome Flow', status: 'active', steps: [{ type: 'add_labels', labels: ['new'] }] },
      );
    },
    request: () => get(),
  },
  {
    name: 'automations/trigger, new contact, by name',
    path: 'automations/trigger',
    doc: TRIGGER_ROW,
    budget: 15,
    prepare: async (context) => {
      const { createAutomation } = await import('../shared/data/automations');
      await createAutomation(
        { workspaceId: context.tenant.workspaceId, channelId: context.tenant.channelIds[0] },
        { name: 'Welcome Flow', status: 'active', steps: [{ type: 'add_labels', labels: ['new'] }] },
      );
    },
    request: () => post({ phoneNumber: '+14155550190', automationName: 'welcome flow' }),
  },
  {
    name: 'automations/trigger, known contact, by id',
    path: 'automations/trigger',
    doc: TRIGGER_ROW,
    budget: 9,
    prepare: async (context) => {
      await withAutomation(context, 'Welcome Flow', [{ type: 'add_labels', labels: ['new'] }]);
      await context.call('contacts/manage', post({ phoneNumber: '+14155550190' }));
    },
    request: (context) => post({ phoneNumber: '+14155550190', automationId: context.saved.automationId }),
  },
  {
    name: 'chat/templates/send, hello_world to a new contact',
    path: 'chat/templates/send',
    chat: true,
    doc: SEND_ROW,
    budget: SEND.base + SEND.newContact + SEND.firstSend,
    request: () => post({ to: '+14155550101', templateName: 'hello_world' }),
  },
  {
    name: 'chat/templates/send to a new contact, with apiReference',
    path: 'chat/templates/send',
    chat: true,
    doc: SEND_ROW,
    budget: SEND.base + SEND.newContact + SEND.firstSend + SEND.apiReference,
    request: () => post({ to: '+14155550102', templateName: 'hello_world', apiReference: 'order-1' }),
  },
  {
    name: 'chat/templates/send to a known contact (its wa_id known), with variables',
    path: 'chat/templates/send',
    chat: true,
    doc: SEND_ROW,
    budget: SEND.base,
    prepare: async (context) => void (await context.call('chat/templates/send', post({ to: '+14155550103', templateName: 'hello_world' }))),
    request: () => post({ to: '+14155550103', templateName: 'order_update', variables: ['Ann', 'A-1'] }),
  },
  {
    name: 'chat/message/send, text inside the window',
    path: 'chat/message/send',
    chat: true,
    doc: SEND_ROW,
    budget: SEND.base,
    prepare: async (context) => void (await inboundFrom(context, '14155550104')),
    request: () => post({ to: '+14155550104', body: 'Thanks for writing' }),
  },
  {
    name: 'chat/message/send, text inside the window, with apiReference',
    path: 'chat/message/send',
    chat: true,
    doc: SEND_ROW,
    budget: SEND.base + SEND.apiReference,
    prepare: async (context) => void (await inboundFrom(context, '14155550105')),
    request: () => post({ to: '+14155550105', body: 'Your ticket is open', apiReference: 'ticket-1' }),
  },
  {
    name: 'WhatsAppWebhook, a signed status (read) for a sent message',
    path: 'WhatsAppWebhook',
    chat: true,
    doc: { row: 'WhatsAppWebhook status', budget: '2' },
    budget: 2,
    prepare: async (context) => {
      const { body } = await context.call('chat/templates/send', post({ to: '+14155550106', templateName: 'hello_world' }));
      context.saved.chatmid = (body as { data: { chatmid: string } }).data.chatmid;
      // The deliverer has long emptied the pointer's outbox when a read arrives. Emptied here, the
      // count does not depend on whether the sandbox's `sent` came before the send attached (then
      // the read would hand that held event over again, ahead of its own).
      await context.chat?.network.sandbox.idle();
      const { keys } = await import('../shared/data/keys');
      const { clearPendingEvents, getOutboxItem } = await import('../shared/data/event-outbox');
      const key = keys.messageByChatmid(context.saved.chatmid);
      await clearPendingEvents(key, (await getOutboxItem(key))?.pendingEvents?.length ?? 0);
    },
    invoke: (handler, context) =>
      signedDelivery(
        handler,
        delivery(context, { statuses: [{ id: context.saved.chatmid, status: 'read', timestamp: unixSeconds(), recipient_id: '14155550106' }] }),
      ),
  },
  {
    name: 'WhatsAppWebhook, an inbound message from a new contact (the number not yet cached)',
    path: 'WhatsAppWebhook',
    chat: true,
    doc: INBOUND_ROW,
    budget: INBOUND.base + INBOUND.channelLookup + INBOUND.newContact,
    invoke: (handler, context) => signedDelivery(handler, inbound(context, '14155550107')),
  },
  {
    name: 'WhatsAppWebhook, an inbound message from a known contact (warm: the number cached)',
    path: 'WhatsAppWebhook',
    chat: true,
    doc: INBOUND_ROW,
    budget: INBOUND.base,
    prepare: async (context) => void (await inboundFrom(context, '14155550108')),
    invoke: (handler, context) => signedDelivery(handler, inbound(context, '14155550108')),
  },
  {
    name: 'WhatsAppWebhook, an inbound image from a known contact (the media recorded pending and its fetch queued, not done)',
    path: 'WhatsAppWebhook',
    chat: true,
    doc: INBOUND_ROW,
    budget: INBOUND.base + INBOUND.media,
    prepare: async (context) => {
      await inboundFrom(context, '14155550127');
      // Media the channel's number holds on the chat network, so the fetch would succeed if the webhook made it.
      const { body } = await context.call('chat/media/upload', post({ mimeType: 'image/jpeg', data: Buffer.from('a broken parcel').toString('base64') }));
      context.saved.mediaId = (body as { data: { mediaId: string } }).data.mediaId;
    },
    invoke: async (handler, context) => {
      const { mediaId } = context.saved;
      const fetches = () => chatOf(context).network.sandbox.requests.filter((request) => request.path.includes(mediaId)).length;
      const before = fetches();
      const message = {
        from: '14155550127',
        id: `wamid.bench${context.unique}`,
        timestamp: unixSeconds(),
        type: 'image',
        image: { id: mediaId, mime_type: 'image/jpeg' },
      };
      const invocation = await signedDelivery(
        handler,
        delivery(context, { contacts: [{ profile: { name: 'Ann Customer' }, wa_id: '14155550127' }], messages: [message] }),
      );
      // 200 only when the webhook answered 200 without touching the media on the chat network: the fetch is the queue's.
      return fetches() === before ? invocation : { status: 500, body: `the webhook fetched media ${mediaId}` };
    },
  },
  {
    name: 'WhatsAppWebhook, an inbound STOP from a known contact (opt-out)',
    path: 'WhatsAppWebhook',
    chat: true,
    doc: INBOUND_ROW,
    budget: INBOUND.base + INBOUND.keyword,
    prepare: async (context) => void (await inboundFrom(context, '14155550126')),
    invoke: (handler, context) => signedDelivery(handler, inbound(context, '14155550126', 'STOP')),
  },
  {
    name: 'AutomationRunner, add_labels step with a next step (queue send, leave the outbox)',
    path: 'AutomationRunner',
    doc: RUNNER_ROW,
    budget: RUNNER.base + RUNNER.labelsStep + RUNNER.nextStep,
    prepare: async (context) => {
      await context.call('labels/manage', post({ name: 'new' }));
      await withAutomation(context, 'Onboarding', [
        { type: 'add_labels', labels: ['new'] },
        { type: 'remove_labels', labels: ['new'] },
      ]);
      await triggerAutomation(context, '+14155550109');
    },
    invoke: (handler, context) => runStep(handler, context, 0),
  },
  {
    name: 'AutomationRunner, send_text step inside the window (the last step)',
    path: 'AutomationRunner',
    chat: true,
    doc: RUNNER_ROW,
    budget: RUNNER.base + RUNNER.sendStep + RUNNER.endEvent,
    prepare: async (context) => {
      await inboundFrom(context, '14155550110');
      await withAutomation(context, 'Reply', [{ type: 'send_text', body: 'Hi {{contact.name}}' }]);
      await triggerAutomation(context, '+14155550110');
    },
    invoke: (handler, context) => runStep(handler, context, 0),
  },
  {
    name: 'AutomationRedrive tick, nothing due',
    path: 'AutomationRedrive',
    doc: REDRIVE_ROW,
    budget: REDRIVE.base,
    invoke: (handler) => redriveTick(handler, 0),
  },
  {
    name: 'AutomationRedrive tick, one execution due (a trigger stopped after recording it)',
    path: 'AutomationRedrive',
    doc: REDRIVE_ROW,
    budget: REDRIVE.base + REDRIVE.perEntry + REDRIVE.uncounted,
    prepare: async (context) => {
      const steps: AutomationStep[] = [{ type: 'add_labels', labels: ['new'] }];
      await withAutomation(context, 'Interrupted', steps);
      const { putExecution, outboxFields } = await import('../shared/data/automations');
      const { newId } = await import('../shared/ids');
      const { workspaceId, channelIds } = context.tenant;
      const id = newId('ex');
      // What automations/trigger leaves when it stops after its first write: in the outbox, not counted, not queued.
      const at = Date.now() - 60_000;
      await putExecution({
        id,
        workspaceId,
        channelId: channelIds[0],
        automationId: context.saved.automationId,
        automationName: 'Interrupted',
        contactId: 'ct_bench',
        conversationId: 'cv_bench',
        phone: '14155550111',
        status: 'triggered',
        stepIndex: 0,
        steps,
        outcomes: [],
        countPending: true,
        ...outboxFields(id, at),
        createdAt: new Date(at).toISOString(),
        updatedAt: new Date(at).toISOString(),
      });
    },
    invoke: (handler) => redriveTick(handler, 1),
  },
  {
    name: 'MessageContentSweep tick, nothing due',
    path: 'MessageContentSweep',
    doc: SWEEP_ROW,
    budget: SWEEP.base,
    invoke: (handler) => sweepTick(handler, 0),
  },
  {
    name: 'MessageContentSweep tick, one sent message past the retention period',
    path: 'MessageContentSweep',
    doc: SWEEP_ROW,
    budget: SWEEP.base + SWEEP.perMessage,
    prepare: async (context) => {
      const { keys, retentionShardOf } = await import('../shared/data/keys');
      const { tagged } = await import('../shared/data/entity');
      const { HistoryItem, MessageItem } = await import('../shared/data/messages');
      const { workspaceId, channelIds } = context.tenant;
      const id = `msg_bench${context.unique}`;
      const chatmid = `${BENCH_TENANT.chatmid}sweep${context.unique}`;
      const at = Date.now() - 2 * 86_400_000;
      const iso = new Date(at).toISOString();
      // As a send two days ago left them (shared/data/messages.ts): the message, in the retention index, and its history entry.
      const sent = { direction: 'outbound', type: 'text', content: { body: 'old' }, sendState: 'accepted', chatmid, at } as const;
      const phone = '14155550127';
      const channel = { workspaceId, channelId: channelIds[0] };
      const message = { ...sent, id, phone, contactId: `ct_${context.unique}`, conversationId: `cv_${context.unique}`, createdAt: iso, updatedAt: iso };
      await context.put({ ...tagged(MessageItem, keys.message(channel, id), message), outboxShard: retentionShardOf(id), outboxAt: at + 86_400_000 });
      await context.put(tagged(HistoryItem, keys.messageHistory(channel, phone, at, id), { ...sent, messageId: id }));
      await context.put(chatmidItem(workspaceId, channelIds[0], chatmid));
    },
    invoke: (handler) => sweepTick(handler, 1),
  },
  {
    name: 'webhooks/manage, create',
    path: 'webhooks/manage',
    doc: { row: 'webhooks/manage', budget: '3' },
    budget: 3,
    request: () => post({ url: 'https://example.com/hooks/bench' }),
  },
  {
    name: 'webhooks/manage, rotate the secret',
    path: 'webhooks/manage',
    doc: { row: 'webhooks/manage', budget: '3' },
    budget: 3,
    prepare: async (context) => void (await context.call('webhooks/manage', post({ url: 'https://example.com/hooks/bench' }))),
    request: () => post({ url: 'https://example.com/hooks/bench', rotateSecret: true }),
  },
  {
    name: 'webhooks/list',
    path: 'webhooks/list',
    doc: { row: 'webhooks/list', budget: '2' },
    budget: 2,
    prepare: async (context) => void (await context.call('webhooks/manage', post({ url: 'https://example.com/hooks/bench' }))),
    request: () => get(),
  },
  {
    name: 'webhooks/deliveries',
    path: 'webhooks/deliveries',
    doc: { row: 'webhooks/deliveries', budget: '3' },
    budget: 3,
    prepare: subscribe,
    request: (context) => get({ webhookId: context.saved.webhookId }),
  },
  {
    name: 'webhooks/delete, a subscription without deliveries',
    path: 'webhooks/delete',
    doc: { row: 'webhooks/delete', budget: '4' },
    budget: 4,
    prepare: async (context) => {
      const { body } = await context.call('webhooks/manage', post({ url: `https://example.com/hooks/bench-delete-${context.unique}` }));
      context.saved.webhookId = (body as { data: { id: string } }).data.id;
    },
    request: (context) => post({ webhookId: context.saved.webhookId }),
  },
  {
    name: 'webhooks/redeliver, an event never delivered to the subscription',
    path: 'webhooks/redeliver',
    doc: { row: 'webhooks/redeliver', budget: '6 (+1 when the event has a delivery)' },
    budget: 6,
    prepare: subscribeWithEvent,
    request: (context) => post({ webhookId: context.saved.webhookId, eventId: context.saved.eventId }),
  },
  {
    name: 'events/list',
    path: 'events/list',
    doc: { row: 'events/list', budget: '3 (2 for an empty page)' },
    budget: 3,
    prepare: async (context) => {
      await logEvent(context, `bench-list:${context.unique}`);
    },
    request: () => get({ limit: 100 }),
  },
  {
    name: 'EventDeliverer, a new event for a channel without subscriptions',
    path: 'EventDeliverer',
    doc: {
      row: 'EventDeliverer message',
      budget: '3 + 3 per subscription (+1 to take the source out of the outbox); a lane wake-up: up to 10 per delivery attempt',
    },
    budget: 3,
    invoke: async (handler, context) => {
      const { eventIdFor } = await import('../shared/events/event-types');
      const id = eventIdFor(Date.now(), `bench-deliverer:${context.unique}`);
      const message = {
        kind: 'event',
        workspaceId: context.tenant.workspaceId,
        channelId: context.tenant.channelIds[0],
        contactKey: '14155550113',
        event: { id, type: 'message.received', timestamp: new Date().toISOString(), data: {} },
      };
      const result = (await handler(
        {
          Records: [
            {
              messageId: 'm1',
              receiptHandle: 'm1',
              body: JSON.stringify(message),
              attributes: { ApproximateReceiveCount: '1' },
              messageAttributes: {},
              md5OfBody: '',
              eventSource: 'aws:sqs',
              eventSourceARN: 'arn:aws:sqs:local:0:events',
              awsRegion: 'local',
            },
          ],
        },
        lambdaContext(),
      )) as SQSBatchResponse;
      return { status: result.batchItemFailures.length === 0 ? 200 : 500, body: result };
    },
  },
  {
    name: 'EventRedrive tick, nothing due',
    path: 'EventRedrive',
    doc: { row: 'EventRedrive tick', budget: "16 + 1 per due item + its events' hand-off" },
    budget: 16,
    prepare: async () => {
      // What earlier scenarios left in the outbox comes due once the run is older than the re-drive's
      // wait. A pass at the same frozen instant hands it over first (and defers it), so the counted
      // tick finds nothing due however long the run took.
      const { clock } = await import('../shared/clock');
      clock.freeze(clock.now());
      const { handler } = await import('../functions/event-redrive');
      await handler();
    },
    invoke: async (handler) => {
      const { clock } = await import('../shared/clock');
      try {
        return await redriveTick(handler, 0);
      } finally {
        clock.reset();
      }
    },
  },
  {
    name: 'InboundDrain tick, nothing waiting',
    path: 'InboundDrain',
    doc: { row: 'InboundDrain tick', budget: '8 + per waiting part: its read, its messages as the webhook processes them, its delete' },
    budget: 8,
    invoke: async (handler) => {
      const result = (await handler()) as { parts: number; done: boolean };
      return { status: result.parts === 0 && result.done ? 200 : 500, body: result };
    },
  },
  {
    name: 'OpenApiDocument: GET the OpenAPI document',
    path: 'OpenApiDocument',
    doc: STATIC_ROW,
    budget: 0,
    invoke: (handler) => publicGet(handler, OPENAPI_PATH),
  },
  {
    name: 'DocsPage: GET the docs page',
    path: 'DocsPage',
    doc: STATIC_ROW,
    budget: 0,
    invoke: (handler) => publicGet(handler, DOCS_PATH),
  },
  {
    name: 'PortalPage: GET the developer portal page',
    path: 'PortalPage',
    doc: STATIC_ROW,
    budget: 0,
    // The user pool the page names, as a deployed stage's environment gives it (values only shown, never called).
    prepare: async () => {
      process.env.PORTAL_COGNITO_ENDPOINT ??= 'https://cognito-idp.eu-west-1.amazonaws.com/';
      process.env.PORTAL_USER_POOL_ID ??= 'eu-west-1_bench';
      process.env.PORTAL_CLIENT_ID ??= 'benchclient';
    },
    invoke: (handler) => publicGet(handler, SUPPORT_FUNCTIONS.portalPage.publicPath!),
  },
  // The developer portal (PORTAL_ROUTES): its functions by name, called with the ID token's claims of the tenant's admin.
  portalScenario('create a key', 'PortalKeysCreate', 'POST /portal/api/keys', 7, 'POST', () => ({ name: 'bench' })),
  portalScenario('list the keys', 'PortalKeysList', 'GET /portal/api/keys', 3, 'GET', () => ({})),
  portalScenario('revoke a key', 'PortalKeysRevoke', 'POST /portal/api/keys/revoke', 8, 'POST', ownKey),
  portalScenario('rotate a key', 'PortalKeysRotate', 'POST /portal/api/keys/rotate', 13, 'POST', ownKey),
  portalScenario("a key's usage", 'PortalUsage', PORTAL_KEY_READS_ROW, 3, 'GET', ownKey),
  portalScenario("a key's latest requests", 'PortalRequests', PORTAL_KEY_READS_ROW, 3, 'GET', ownKey),
  portalScenario('the webhook subscriptions, one channel', 'PortalWebhooksList', 'GET /portal/api/webhooks', 3, 'GET', () => ({}), subscribe),
  portalScenario("a subscription's deliveries", 'PortalWebhooksDeliveries', 'GET /portal/api/webhooks/deliveries', 4, 'GET', webhookOf, subscribe),
  portalScenario(
    'redeliver an event never delivered to the subscription',
    'PortalWebhooksRedeliver',
    'POST /portal/api/webhooks/redeliver',
    7,
    'POST',
    (context) => ({ ...webhookOf(context), eventId: context.saved.eventId }),
    subscribeWithEvent,
  ),
  {
    name: 'chat/media/get (a stored inbound image)',
    path: 'chat/media/get',
    doc: { row: 'chat/media/get', budget: '2' },
    budget: 2,
    warm: true,
    prepare: (context) =>
      context.put({
        pk: `WS#${context.tenant.workspaceId}#CH#${context.tenant.channelIds[0]}`,
        sk: `MEDIA#bench${context.unique}`,
        entity: 'media',
        mediaId: `bench${context.unique}`,
        messageId: 'msg_in_bench',
        phone: '14155550100',
        type: 'image',
        mimeType: 'image/jpeg',
        sha256: 'ab'.repeat(32),
        fileSize: 134,
        status: 'stored',
        attempts: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }),
    request: (context) => get({ mediaId: `bench${context.unique}` }),
  },
  {
    name: 'chat/media/upload (a small PNG)',
    path: 'chat/media/upload',
    chat: true,
    doc: { row: 'chat/media/upload', budget: '2' },
    budget: 2,
    request: () => post({ mimeType: 'image/png', data: Buffer.from('\x89PNG\r\n\x1a\nbench').toString('base64'), filename: 'bench.png' }),
  },
];

/** A subscription of the tenant's first channel (saved.webhookId). */
async function subscribe(context: ScenarioContext): Promise<void> {
  const { body } = await context.call('webhooks/manage', post({ url: 'https://example.com/hooks/bench' }));
  context.saved.webhookId = (body as { data: { id: string } }).data.id;
}

/** A subscription and an event of its channel never delivered to it (saved.webhookId, saved.eventId). */
async function subscribeWithEvent(context: ScenarioContext): Promise<void> {
  await subscribe(context);
  context.saved.eventId = await logEvent(context, `bench:${context.unique}`);
}

/** One portal function's counted call; a call about a key gets a key of the tenant's admin first, made by the portal's own domain function. */
function portalScenario(
  action: string,
  name: string,
  row: string,
  budget: number,
  method: 'GET' | 'POST',
  params: (context: ScenarioContext) => Record<string, string>,
  prepare?: (context: ScenarioContext) => Promise<void>,
): RoundTripScenario {
  return {
    name: `portal: ${action}`,
    path: name,
    doc: { row, budget: String(budget) },
    budget,
    ...(params === ownKey && {
      prepare: async (context: ScenarioContext) => {
        const { createPortalKey } = await import('../shared/domain/portal-keys');
        context.saved.keyId = (await createPortalKey(portalPrincipal(context), { name: 'bench' })).keyId;
      },
    }),
    ...(prepare && { prepare }),
    invoke: (handler, context) => portalCall(handler, context, method, params(context)),
  };
}

const portalPrincipal = ({ tenant }: ScenarioContext) => ({
  email: 'admin@bench.example',
  workspaceId: tenant.workspaceId,
  role: 'admin' as const,
  apiUserId: tenant.adminUserId,
  permissions: ['settings:api' as const],
});

/** A portal function called as API Gateway calls it behind the Cognito authorizer: the ID token's claims in the event. */
async function portalCall(handler: SupportHandler, context: ScenarioContext, method: 'GET' | 'POST', params: Record<string, string>): Promise<Invocation> {
  const { PORTAL_USER_ATTRIBUTES } = await import('../shared/routes');
  const principal = portalPrincipal(context);
  const claims = {
    email: principal.email,
    'cognito:groups': principal.permissions.join(','),
    [PORTAL_USER_ATTRIBUTES.workspaceId]: principal.workspaceId,
    [PORTAL_USER_ATTRIBUTES.role]: principal.role,
    [PORTAL_USER_ATTRIBUTES.apiUserId]: principal.apiUserId,
  };
  const event = {
    httpMethod: method,
    headers: method === 'POST' ? { 'Content-Type': 'application/json' } : {},
    queryStringParameters: method === 'GET' && Object.keys(params).length > 0 ? params : null,
    body: method === 'POST' ? JSON.stringify(params) : null,
    isBase64Encoded: false,
    requestContext: { requestId: context.unique, authorizer: { claims } },
  };
  const result = (await handler(event, lambdaContext())) as APIGatewayProxyResult;
  return { status: result.statusCode, body: JSON.parse(result.body) };
}
