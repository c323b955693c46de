import * as v from 'valibot';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { rateLimitFor } from '../shared/config';
import { countRequest } from '../shared/data/rate-limits';
import type { ApiEndpointHandler, EndpointDefinition } from '../shared/http/api-handler';
import { documentedRequest } from '../shared/openapi/document';
import { findRoute, type ApiRoute, type RateLimitClass } from '../shared/routes';
import type { ManageContactInput } from '../shared/domain/contact-values';
import type { RegularSendInput } from '../shared/domain/messaging';
import type { TemplateSendInput } from '../shared/domain/template-input';
import { paramsOf, principalOf, type RequestSpec } from './events';
import { automationName, BENCH_TENANT, BENCH_WEBHOOK_ID, benchEventId, CHAT_CONTACT, contactPhone, templateItem } from './fixtures';

/**
 * Warm-CPU floors and cases. A case is the request an endpoint is timed with (against
 * the canned table of fixtures.ts). A floor is the same endpoint written as a bare
 * handler: the same DynamoDB calls (rate limiter included) through the same data and
 * domain functions, with no middleware, no validation library and no logging. The
 * difference between the two is what the middy stack costs per request.
 *
 * Every endpoint has both without an entry here: {@link caseOf} times its documented
 * request example (the one its schema states for the OpenAPI document, sent as a POST
 * body) and {@link floorOf} calls its own `handle` after the limiter, its parameters
 * parsed by its schema (so a derived floor includes the validation a hand-written one
 * leaves out). An entry in CASES or FLOORS replaces them where the example is not the
 * request worth timing against the canned table, or a floor without valibot is wanted.
 * Floors import their modules when first used, so a module that moves breaks only its row.
 */

export const CASES: Record<string, Case> = {
  'channels/list': { method: 'GET', params: {} },
  'contacts/list': { method: 'GET', params: { limit: '50' }, note: 'page 1, 50 contacts with labels' },
  'contacts/manage': {
    method: 'POST',
    params: { phoneNumber: `+${contactPhone(1)}`, email: 'ann@example.com', customFieldsData: { city: 'Paris', tier: 'gold' }, labelNames: ['VIP'] },
    note: 'update of an existing contact',
  },
  'contacts/import': {
    method: 'POST',
    params: { contacts: Array.from({ length: 10 }, (_, i) => ({ phoneNumber: `+${contactPhone(i + 1)}`, email: `c${i}@example.com` })) },
    note: '10 rows, existing contacts (updates)',
  },
  'labels/list': { method: 'GET', params: {} },
  'labels/manage': { method: 'POST', params: { name: 'VIP', color: '#AA0000', description: 'Top customers' }, note: 'update' },
  'custom-fields/list': { method: 'GET', params: {} },
  'custom-fields/manage': { method: 'POST', params: { name: 'city', isRequired: false }, note: 'update' },
  'chat/message/status': { method: 'GET', params: { chatmid: BENCH_TENANT.chatmid } },
  'chat/messages/list': {
    method: 'GET',
    params: { phoneNumber: `+${contactPhone(CHAT_CONTACT)}`, limit: '50' },
    note: 'page 1 of 60 messages, 25 sent (their statuses in one batch)',
  },
  'contacts/delete': {
    method: 'POST',
    params: { phoneNumber: `+${contactPhone(5)}` },
    note: 'a contact without messages (the canned table keeps nothing, so every request erases it afresh)',
  },
  'chat/templates/list': { method: 'GET', params: {} },
  // The sends answer from the canned chat network (bench/canned-services.ts). The canned table keeps nothing,
  // so the one apiReference is claimed afresh by every request: the claim and its settlement are timed each time.
  'chat/templates/send': {
    method: 'POST',
    params: {
      to: `+${contactPhone(CHAT_CONTACT)}`,
      templateName: templateItem(BENCH_TENANT.workspaceId, BENCH_TENANT.channelId, 0).name,
      languageCode: 'en',
      variables: 'Ann,A-1042,Monday',
      header: 'A-1042',
      apiReference: 'order-A-1042',
    },
    note: 'text header + 3 body variables, with apiReference',
  },
  'chat/message/send': {
    method: 'POST',
    params: { to: `+${contactPhone(CHAT_CONTACT)}`, type: 'text', body: 'Your order A-1042 has shipped and arrives on Monday.' },
    note: 'text inside the 24-hour window',
  },
  'automations/list': { method: 'GET', params: {} },
  'automations/trigger': {
    method: 'POST',
    params: { phoneNumber: `+${contactPhone(CHAT_CONTACT)}`, automationName: automationName(0).toLowerCase() },
    note: 'by name, existing contact; step 1 to SQS',
  },
  'webhooks/manage': {
    method: 'POST',
    params: { url: 'https://example.com/hooks/bench', events: ['message.status'] },
    note: 'create or update by url (the canned table keeps nothing)',
  },
  'webhooks/list': { method: 'GET', params: {} },
  'webhooks/deliveries': { method: 'GET', params: { webhookId: BENCH_WEBHOOK_ID }, note: 'page 1 of 60 deliveries (limit 50)' },
  'webhooks/redeliver': {
    method: 'POST',
    params: { webhookId: BENCH_WEBHOOK_ID, eventId: benchEventId(59) },
    note: 'a delivered event again (the canned table keeps nothing: the delivery is reset afresh each time)',
  },
  'events/list': { method: 'GET', params: { limit: '100' }, note: '60 events from the start of the log' },
};

type Floor = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
/** A floor is built on first use (its modules imported then). */
export type FloorFactory = () => Promise<Floor>;

type Case = RequestSpec & { note?: string };

/** The endpoint's function, with the definition it was built from. */
async function endpointOf(route: ApiRoute): Promise<EndpointDefinition> {
  const { handler } = (await import(`../${route.entry}`)) as { handler: ApiEndpointHandler };
  return handler.endpoint;
}

/** The request an endpoint is timed with: its CASES entry, else its documented request example (the principal's channel). */
export async function caseOf(route: ApiRoute): Promise<Case> {
  if (CASES[route.path]) return CASES[route.path];
  const { schema } = await endpointOf(route);
  const { channelId: _documented, ...params } = documentedRequest(route, schema);
  return { method: 'POST', params, note: 'the documented request example' };
}

/** The endpoint's bare floor: its FLOORS entry, else its own `handle` after the limiter. */
export function floorOf(route: ApiRoute): FloorFactory {
  return (
    FLOORS[route.path] ??
    (async () => {
      const { schema, handle } = await endpointOf(route);
      return async (event) => {
        const { principal, params, workspaceId, channelId } = await bare(event, route.path);
        const result = await handle(v.parse(schema, params), { principal, requestId: event.requestContext.requestId, channel: { workspaceId, channelId } });
        return ok({ ...result });
      };
    })
  );
}

const ok = (body: Record<string, unknown>): APIGatewayProxyResult => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ success: true, ...body }),
});

/** The per-request work every floor shares: who is calling, its channel, one rate-limiter update. */
async function bare(event: APIGatewayProxyEvent, path: string) {
  const principal = principalOf(event);
  const params = paramsOf(event);
  const rateClass = (findRoute(path)?.rateLimitClass ?? 'api_read') as RateLimitClass;
  await countRequest(principal.workspaceId, principal.userId, rateClass, rateLimitFor(rateClass), Date.now());
  return { principal, params, workspaceId: principal.workspaceId, channelId: (params.channelId as string | undefined) ?? principal.channelIds[0] };
}

export const FLOORS: Record<string, FloorFactory> = {
  'channels/list': async () => {
    const { getChannels } = await import('../shared/data/channels');
    const { toChannelView } = await import('../shared/domain/channels');
    return async (event) => {
      const { principal } = await bare(event, 'channels/list');
      const channels = await getChannels(principal.workspaceId, principal.channelIds);
      return ok({ data: channels.map(toChannelView) });
    };
  },
  'contacts/list': async () => {
    const { listContacts } = await import('../shared/domain/contacts');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'contacts/list');
      const page = Number(params.page ?? 1);
      const limit = Math.min(Number(params.limit ?? 50), 200);
      const { contacts, total } = await listContacts({ workspaceId, channelId }, { page, limit, search: (params.search as string | undefined) || undefined });
      return ok({ data: contacts, pagination: { page, limit, total, pages: Math.ceil(total / limit) } });
    };
  },
  'contacts/manage': async () => {
    const { manageContact } = await import('../shared/domain/contacts');
    const { normalizePhone } = await import('../shared/phone/phone');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'contacts/manage');
      const contact = await manageContact(
        { workspaceId, channelId },
        { ...(params as Omit<ManageContactInput, 'phoneNumber'>), phoneNumber: normalizePhone(String(params.phoneNumber))! },
      );
      return ok({ data: contact });
    };
  },
  'contacts/import': async () => {
    const { importContacts } = await import('../shared/domain/contact-import');
    const { normalizePhone } = await import('../shared/phone/phone');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'contacts/import');
      // The rows as the endpoint's row parser would hand them over (the floor has no validation library).
      const rows = (params.contacts as Array<{ phoneNumber: string; email: string }>).map((row, index) => ({
        index,
        input: { phoneNumber: normalizePhone(row.phoneNumber)!, email: row.email },
      }));
      return ok({ data: await importContacts({ workspaceId, channelId }, rows) });
    };
  },
  'labels/list': async () => {
    const { listLabels } = await import('../shared/data/definitions');
    return async (event) => {
      const { workspaceId, channelId } = await bare(event, 'labels/list');
      return ok({ data: await listLabels({ workspaceId, channelId }) });
    };
  },
  'labels/manage': async () => {
    const { upsertLabel } = await import('../shared/data/definitions');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'labels/manage');
      const { name, color, description, displayOrder } = params;
      const changes = Object.fromEntries(Object.entries({ color, description, displayOrder }).filter(([, value]) => value !== undefined));
      return ok({ data: await upsertLabel({ workspaceId, channelId }, String(name), changes) });
    };
  },
  'custom-fields/list': async () => {
    const { listCustomFields } = await import('../shared/data/definitions');
    return async (event) => {
      const { workspaceId, channelId } = await bare(event, 'custom-fields/list');
      return ok({ data: await listCustomFields({ workspaceId, channelId }) });
    };
  },
  'custom-fields/manage': async () => {
    const { upsertCustomField } = await import('../shared/data/definitions');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'custom-fields/manage');
      const { name, type, isRequired, options } = params;
      const changes = Object.fromEntries(Object.entries({ type, isRequired, options }).filter(([, value]) => value !== undefined));
      return ok({ data: await upsertCustomField({ workspaceId, channelId }, String(name), changes) });
    };
  },
  'chat/messages/list': async () => {
    const { listMessages } = await import('../shared/domain/message-history');
    const { normalizePhone } = await import('../shared/phone/phone');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'chat/messages/list');
      const { messages, nextCursor } = await listMessages(
        { workspaceId, channelId },
        { phoneNumber: normalizePhone(String(params.phoneNumber))!, limit: Number(params.limit ?? 50) },
      );
      return ok({ data: messages, nextCursor });
    };
  },
  'contacts/delete': async () => {
    const { eraseContact } = await import('../shared/domain/erasure');
    const { normalizePhone } = await import('../shared/phone/phone');
    return async (event) => {
      const { principal, params, workspaceId, channelId } = await bare(event, 'contacts/delete');
      const actor = { userId: principal.userId, keyId: principal.keyId };
      return ok({ data: await eraseContact({ workspaceId, channelId }, { phoneNumber: normalizePhone(String(params.phoneNumber))! }, actor) });
    };
  },
  'chat/message/status': async () => {
    const { messageStatus } = await import('../shared/domain/message-status');
    return async (event) => {
      const { principal, params } = await bare(event, 'chat/message/status');
      return ok({ data: await messageStatus(principal, String(params.chatmid)) });
    };
  },
  'chat/templates/list': async () => {
    const { listApprovedTemplates } = await import('../shared/domain/templates');
    return async (event) => {
      const { workspaceId, channelId } = await bare(event, 'chat/templates/list');
      return ok({ data: await listApprovedTemplates({ workspaceId, channelId }) });
    };
  },
  'chat/templates/send': async () => {
    const { sendTemplateMessage } = await import('../shared/domain/messaging');
    const { normalizePhone } = await import('../shared/phone/phone');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'chat/templates/send');
      const { to, templateName, languageCode, variables, header, apiReference } = params as Record<string, string | undefined>;
      const input: TemplateSendInput = {
        to: normalizePhone(String(to))!,
        templateName: String(templateName),
        languageCode,
        bodyVariables: variables?.split(','),
        variablesFrom: 'variables',
        header,
        apiReference,
      };
      return ok({ data: (await sendTemplateMessage({ workspaceId, channelId }, input)).data });
    };
  },
  'chat/message/send': async () => {
    const { sendRegularMessage } = await import('../shared/domain/messaging');
    const { normalizePhone } = await import('../shared/phone/phone');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'chat/message/send');
      const input = { ...params, type: params.type ?? 'text', to: normalizePhone(String(params.to))! } as RegularSendInput;
      return ok({ data: (await sendRegularMessage({ workspaceId, channelId }, input)).data });
    };
  },
  'automations/list': async () => {
    const { readAutomations } = await import('../shared/data/automations');
    return async (event) => {
      const { workspaceId, channelId } = await bare(event, 'automations/list');
      const automations = await readAutomations({ workspaceId, channelId });
      return ok({ data: automations, total: automations.length });
    };
  },
  'webhooks/manage': async () => {
    const { manageWebhook } = await import('../shared/domain/integrator-webhooks');
    return async (event) => {
      const { principal, params, workspaceId, channelId } = await bare(event, 'webhooks/manage');
      return ok({
        data: await manageWebhook({ workspaceId, channelId }, principal.userId, { url: String(params.url), events: params.events as string[] | undefined }),
      });
    };
  },
  'webhooks/list': async () => {
    const { listWebhooks } = await import('../shared/domain/integrator-webhooks');
    return async (event) => {
      const { workspaceId, channelId } = await bare(event, 'webhooks/list');
      return ok({ data: await listWebhooks({ workspaceId, channelId }) });
    };
  },
  'webhooks/deliveries': async () => {
    const { webhookDeliveries } = await import('../shared/domain/integrator-webhooks');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'webhooks/deliveries');
      const { deliveries, nextCursor } = await webhookDeliveries({ workspaceId, channelId }, { webhookId: String(params.webhookId) });
      return ok({ data: deliveries, nextCursor });
    };
  },
  'webhooks/redeliver': async () => {
    const { redeliverEvent } = await import('../shared/domain/integrator-webhooks');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'webhooks/redeliver');
      return ok({ data: await redeliverEvent({ workspaceId, channelId }, String(params.webhookId), String(params.eventId)) });
    };
  },
  'events/list': async () => {
    const { listEvents } = await import('../shared/domain/integrator-webhooks');
    return async (event) => {
      const { workspaceId, channelId } = await bare(event, 'events/list');
      const { events, nextCursor } = await listEvents({ workspaceId, channelId }, { limit: 100 });
      return ok({ data: events, nextCursor });
    };
  },
  'automations/trigger': async () => {
    const { triggerAutomation } = await import('../shared/domain/automations');
    const { normalizePhone } = await import('../shared/phone/phone');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'automations/trigger');
      const { automationId, automationName } = params as Record<string, string | undefined>;
      return ok({
        data: await triggerAutomation({ workspaceId, channelId }, { phoneNumber: normalizePhone(String(params.phoneNumber))!, automationId, automationName }),
      });
    };
  },
};
