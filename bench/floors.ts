import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { rateLimitFor } from '../shared/config';
import { countRequest } from '../shared/data/rate-limits';
import { findRoute, type RateLimitClass } from '../shared/routes';
import type { ManageContactInput } from '../shared/domain/contacts';
import { paramsOf, principalOf, type RequestSpec } from './events';
import { BENCH_TENANT, contactPhone } from './fixtures';

/**
 * Warm-CPU floors and cases. A case is the request an endpoint is timed with (against
 * the canned table of fixtures.ts). A floor is the same endpoint written as a bare
 * handler: the same DynamoDB calls (rate limiter included) through the same data and
 * domain functions, with no middleware, no validation library and no logging. The
 * difference between the two is what the middy stack costs per request.
 *
 * Adding an endpoint: one CASES entry (its request) and one FLOORS entry (a few lines
 * like the ones below). Endpoints without them are reported as "no case" / "no floor".
 * Floors import their modules when first used, so a module that moves breaks only its row.
 */

export const CASES: Record<string, RequestSpec & { note?: string }> = {
  'channels/list': { method: 'GET', params: {} },
  'contacts/list': { method: 'GET', params: { limit: '50' }, note: 'page 1, 50 contacts with labels' },
  'contacts/manage': {
    method: 'POST',
    params: { phoneNumber: `+${contactPhone(1)}`, email: 'ann@example.com', customFieldsData: { city: 'Paris', tier: 'gold' }, labelNames: ['VIP'] },
    note: 'update of an existing contact',
  },
  'labels/list': { method: 'GET', params: {} },
  'labels/manage': { method: 'POST', params: { name: 'VIP', color: '#AA0000', description: 'Top customers' }, note: 'update' },
  'custom-fields/list': { method: 'GET', params: {} },
  'custom-fields/manage': { method: 'POST', params: { name: 'city', isRequired: false }, note: 'update' },
  'chat/message/status': { method: 'GET', params: { chatmid: BENCH_TENANT.chatmid } },
  'chat/templates/list': { method: 'GET', params: {} },
};

type Floor = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
/** A floor is built on first use (its modules imported then). */
export type FloorFactory = () => Promise<Floor>;

const ok = (body: Record<string, unknown>): APIGatewayProxyResult => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ success: true, ...body }) });

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
    const { getChannels, toChannelView } = await import('../shared/data/channels');
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
      const { contacts, total } = await listContacts(workspaceId, channelId, { page, limit, search: (params.search as string | undefined) || undefined });
      return ok({ data: contacts, pagination: { page, limit, total, pages: Math.ceil(total / limit) } });
    };
  },
  'contacts/manage': async () => {
    const { manageContact } = await import('../shared/domain/contacts');
    const { normalizePhone } = await import('../shared/domain/phone');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'contacts/manage');
      const contact = await manageContact(workspaceId, channelId, { ...(params as Omit<ManageContactInput, 'phoneNumber'>), phoneNumber: normalizePhone(String(params.phoneNumber))! });
      return ok({ data: contact });
    };
  },
  'labels/list': async () => {
    const { listLabels } = await import('../shared/data/definitions');
    return async (event) => {
      const { workspaceId, channelId } = await bare(event, 'labels/list');
      return ok({ data: await listLabels(workspaceId, channelId) });
    };
  },
  'labels/manage': async () => {
    const { upsertLabel } = await import('../shared/data/definitions');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'labels/manage');
      const { name, color, description, displayOrder } = params;
      const changes = Object.fromEntries(Object.entries({ color, description, displayOrder }).filter(([, value]) => value !== undefined));
      return ok({ data: await upsertLabel(workspaceId, channelId, String(name), changes) });
    };
  },
  'custom-fields/list': async () => {
    const { listCustomFields } = await import('../shared/data/definitions');
    return async (event) => {
      const { workspaceId, channelId } = await bare(event, 'custom-fields/list');
      return ok({ data: await listCustomFields(workspaceId, channelId) });
    };
  },
  'custom-fields/manage': async () => {
    const { upsertCustomField } = await import('../shared/data/definitions');
    return async (event) => {
      const { params, workspaceId, channelId } = await bare(event, 'custom-fields/manage');
      const { name, type, isRequired, options } = params;
      const changes = Object.fromEntries(Object.entries({ type, isRequired, options }).filter(([, value]) => value !== undefined));
      return ok({ data: await upsertCustomField(workspaceId, channelId, String(name), changes) });
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
      return ok({ data: await listApprovedTemplates(workspaceId, channelId) });
    };
  },
};
