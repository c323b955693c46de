import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigures } from '../support/log-audit';
import type { Endpoint, Method } from '../support/endpoints';
import { usePrivateStore } from '../support/private-store';
import { snapshotDiff, snapshotTable, type RawItem } from '../support/table';
import { callWithin, expectEnvelope, expectNoServerError, isolateChatNetwork, liftRateLimits, Tally, unique } from './helpers';

/**
 * OWASP API1 — object-level authorization, as a matrix over every endpoint of the
 * route table: the admin key of workspace B, and a team key of workspace A that
 * lacks channel A2, pass every id of A they could pass (channelId, automationId,
 * automationName, chatmid) and try to name the tenant through parameters. Each
 * answer is the 403 or 404 README.md's "Rules every endpoint keeps" states (the same for an unknown id), and
 * no body carries any id, name, phone or email of A the caller did not send itself.
 */

const store = await usePrivateStore();
const restoreLimits = liftRateLimits();
isolateChatNetwork();
const { callApi } = await import('../support/api');
const { createTeamKey, createTenant } = await import('../support/tenants');
const { FOREIGN_ID_STATUS, foreignIdStatus, loadEndpoints, METHODS } = await import('../support/endpoints');
const { channelCreate, keyCreate, workspaceCreate } = await import('../../scripts/admin/commands');
const { createChatmidRecord } = await import('../../shared/data/messages');
const { recordPendingMedia } = await import('../../shared/data/media');
const { createAutomation } = await import('../../shared/data/automations');
const { newId } = await import('../../shared/ids');

const endpoints = await loadEndpoints();
const tally = new Tally();

interface ChannelFixture {
  id: string;
  /** Values a caller without this channel must never see. */
  secrets: string[];
  /** Ids of this channel's records, by the parameter that would carry them. */
  ids: Record<string, string[]>;
}

interface WorkspaceA {
  workspaceId: string;
  adminKey: string;
  adminKeyId: string;
  adminUserId: string;
  teamKey: string;
  teamUserId: string;
  secrets: string[];
  channels: [ChannelFixture, ChannelFixture];
}

const manage = (path: string) => endpoints.find((endpoint) => endpoint.path === path)!;

/** Workspace A: two channels, each with labels, a custom field, contacts, an automation and a message, all named uniquely. */
async function createWorkspaceA(): Promise<WorkspaceA> {
  const name = unique('Iso Workspace A ');
  const { id: workspaceId } = await workspaceCreate(name);
  const admin = await keyCreate({ workspaceId, role: 'admin' });
  const channels: ChannelFixture[] = [];
  // Both channels before the first call: the authorizer caches the key's channels for up to 10 s.
  const created = [];
  for (let i = 0; i < 2; i++) {
    const channelName = unique(`isoA channel ${i} `);
    const phoneNumberId = newId('pn');
    created.push({ ...(await channelCreate({ workspaceId, ownerUserId: admin.userId, name: channelName, phoneNumberId })), channelName, phoneNumberId });
  }
  for (const { channel, channelName, phoneNumberId } of created) {
    const secrets = [channel.id, channelName, phoneNumberId];
    const ids: Record<string, string[]> = { channelId: [channel.id], chatmid: [], automationId: [], automationName: [], contactId: [], mediaId: [], other: [] };
    const labelName = unique('isoAlabel');
    const label = await callApi(manage('labels/manage').handler, {
      apiKey: admin.apiKey,
      params: { channelId: channel.id, name: labelName, description: unique('isoAdesc ') },
    });
    expect(label.status, JSON.stringify(label.body)).toBe(200);
    secrets.push(labelName, label.body.data.id, label.body.data.description);
    ids.other.push(label.body.data.id);
    const fieldName = unique('isoAfield');
    const field = await callApi(manage('custom-fields/manage').handler, { apiKey: admin.apiKey, params: { channelId: channel.id, name: fieldName } });
    secrets.push(fieldName, field.body.data.id);
    for (let c = 0; c < 2; c++) {
      const phone = `1415555${String(Math.floor(1000 + Math.random() * 8999))}`;
      const contactName = unique('isoAperson ');
      const email = `${unique('isoa')}@example.com`;
      const fieldValue = unique('isoAvalue');
      const contact = await callApi(manage('contacts/manage').handler, {
        apiKey: admin.apiKey,
        params: {
          channelId: channel.id,
          phoneNumber: `+${phone}`,
          name: contactName,
          email,
          labelNames: [labelName],
          customFieldsData: { [fieldName]: fieldValue },
        },
      });
      expect(contact.status, JSON.stringify(contact.body)).toBe(200);
      secrets.push(contact.body.data.phone, contactName, email, fieldValue, contact.body.data.id);
      ids.other.push(contact.body.data.id);
      ids.contactId.push(contact.body.data.id);
      // A message of this contact, as a send or webhook leaves it (the chatmid pointer names its tenant).
      const chatmid = unique('wamid.isoA');
      const text = unique('isoA secret text ');
      await createChatmidRecord({
        chatmid,
        workspaceId,
        channelId: channel.id,
        messageId: newId('msg'),
        direction: 'outbound',
        type: 'text',
        content: { body: text },
        phone: contact.body.data.phone,
        at: Date.now(),
        status: 'delivered',
        statusRank: 3,
      });
      secrets.push(chatmid, text);
      ids.chatmid.push(chatmid);
      // An inbound image of this contact, as the webhook records it before its fetch.
      const mediaId = String(Math.floor(1e15 + Math.random() * 8e15));
      await recordPendingMedia(
        { workspaceId, channelId: channel.id },
        { mediaId, messageId: newId('msg'), phone: contact.body.data.phone, type: 'image', mimeType: 'image/jpeg' },
        new Date().toISOString(),
      );
      ids.mediaId.push(mediaId);
    }
    const automationName = unique('isoA automation ');
    const automation = (await createAutomation({ workspaceId, channelId: channel.id }, { name: automationName, status: 'active', steps: [] }))!;
    secrets.push(automation.id, automationName);
    ids.automationId.push(automation.id);
    ids.automationName.push(automationName, automationName.toUpperCase());
    channels.push({ id: channel.id, secrets, ids });
  }
  const team = await createTeamKey({ workspaceId, adminKey: admin.apiKey, adminUserId: admin.userId, channelIds: channels.map((c) => c.id) }, [channels[0].id]);
  return {
    workspaceId,
    adminKey: admin.apiKey,
    adminKeyId: admin.keyId,
    adminUserId: admin.userId,
    teamKey: team.apiKey,
    teamUserId: team.userId,
    secrets: [workspaceId, name, admin.userId, admin.keyId, team.userId, team.keyId, ...channels.flatMap((c) => c.secrets)],
    channels: channels as [ChannelFixture, ChannelFixture],
  };
}

/** Unknown ids of the same shapes: the answer must be the same as for a foreign one. */
const UNKNOWN: Record<string, string> = {
  channelId: 'ch_unknown0000000',
  chatmid: 'wamid.unknown000000',
  automationId: 'au_unknown0000000',
  automationName: 'no such automation',
  contactId: 'ct_unknown0000000',
  mediaId: '9999999999999999',
};

interface Caller {
  label: string;
  apiKey: string;
  role: 'admin' | 'team';
  /** Values this caller must never see. */
  secrets: string[];
  /** Foreign ids by parameter. */
  foreign: Record<string, string[]>;
  /** Parameters naming the tenant, which must change nothing. */
  forged: Record<string, string>;
}

let a: WorkspaceA;
let callers: Caller[];
const leaks: string[] = [];

beforeAll(async () => {
  a = await createWorkspaceA();
  const b = await createTenant(1);
  const [a1, a2] = a.channels;
  const everyId = [...a1.ids.other, ...a2.ids.other];
  callers = [
    {
      label: 'admin key of workspace B',
      role: 'admin',
      apiKey: b.adminKey,
      secrets: a.secrets,
      foreign: {
        channelId: [a1.id, a2.id],
        chatmid: [...a1.ids.chatmid, ...a2.ids.chatmid],
        automationId: [...a1.ids.automationId, ...a2.ids.automationId, ...everyId],
        automationName: [...a1.ids.automationName, ...a2.ids.automationName],
        contactId: [...a1.ids.contactId, ...a2.ids.contactId],
        mediaId: [...a1.ids.mediaId, ...a2.ids.mediaId],
      },
      forged: { workspaceId: a.workspaceId, userId: 'forged', keyId: 'forged', role: 'admin', channelIds: `${a1.id},${a2.id}`, principalId: a.workspaceId },
    },
    {
      label: 'team key of workspace A without channel A2',
      role: 'team',
      apiKey: a.teamKey,
      secrets: a2.secrets,
      foreign: {
        channelId: [a2.id],
        chatmid: a2.ids.chatmid,
        automationId: [...a2.ids.automationId, ...a2.ids.other],
        automationName: a2.ids.automationName,
        contactId: a2.ids.contactId,
        mediaId: a2.ids.mediaId,
      },
      forged: { channelIds: `${a1.id},${a2.id}`, role: 'admin', channel: a2.id, channel_id: a2.id, channelID: a2.id },
    },
  ];
});

afterAll(async () => {
  recordFigures('isolation', {
    endpoints: endpoints.length,
    callers: callers?.length ?? 0,
    requestsSent: tally.get('requests'),
    foreignIdsTried: tally.get('foreign ids'),
    forgedPrincipalAttempts: tally.get('forged'),
    secretValuesSearched: a?.secrets.length ?? 0,
    leaks: leaks.length,
    writesToWorkspaceA: tally.get('writes to A'),
  });
  restoreLimits();
  await store.close();
});

async function send(caller: Caller, endpoint: Endpoint, method: Method, params: Record<string, unknown>) {
  tally.add('requests');
  const response = await callWithin(callApi, endpoint.handler, { apiKey: caller.apiKey, method, params });
  expectNoServerError(response, JSON.stringify(response.body));
  expectEnvelope(response);
  // What the caller sent itself may come back; nothing else of the victim may.
  const sent = JSON.stringify(params).toLowerCase();
  const text = JSON.stringify(response.body).toLowerCase();
  for (const secret of caller.secrets) {
    const value = secret.toLowerCase();
    if (!sent.includes(value) && text.includes(value)) leaks.push(`${caller.label} ${method} ${endpoint.path}: ${secret} in ${text.slice(0, 200)}`);
  }
  expect(text).not.toMatch(/wsk_/);
  return response;
}

/** The request for a foreign id in `name`, the rest of the request valid. */
function withId(endpoint: Endpoint, name: string, value: string): Record<string, unknown> {
  const params: Record<string, unknown> = { ...endpoint.base, [name]: value };
  // automationId and automationName are alternatives: the one under test must be the one used.
  if (name === 'automationName') delete params.automationId;
  if (name === 'automationId') delete params.automationName;
  return params;
}

/** A's items other than rate-limit windows (and other than `skipPk`, where a caller may legitimately write). */
const snapshotA = (skipPk?: string) => snapshotTable({}, { workspaceId: a.workspaceId, exclude: (item: RawItem) => item.pk?.S === skipPk });

describe.each(endpoints)('isolation of $path', (endpoint) => {
  const idParams = Object.keys(endpoint.params).filter((name) => name in FOREIGN_ID_STATUS);

  it.each([0, 1])('caller %i: every foreign id is the defined 403/404, the same as an unknown id, and nothing of A shows or changes', async (index) => {
    // Prepare
    const caller = callers[index];
    const before = await snapshotA(index === 1 ? `WS#${a.workspaceId}#CH#${a.channels[0].id}` : undefined);
    // Act + Assess
    for (const method of METHODS) {
      for (const name of idParams) {
        const unknown = await send(caller, endpoint, method, withId(endpoint, name, UNKNOWN[name]));
        for (const value of caller.foreign[name] ?? []) {
          tally.add('foreign ids');
          const response = await send(caller, endpoint, method, withId(endpoint, name, value));
          const status = foreignIdStatus(endpoint.path, name) ?? unknown.status;
          expect(response.status, `${caller.label} ${name}=${value}: ${JSON.stringify(response.body)}`).toBe(status);
          expect({ error: response.body.error, message: response.body.message }).toEqual({ error: unknown.body.error, message: unknown.body.message });
        }
      }
      // A foreign channel together with an id of that channel: still the channel's 403.
      if (idParams.includes('channelId')) {
        for (const name of idParams.filter((n) => n !== 'channelId')) {
          for (const channel of a.channels.filter((c) => caller.foreign.channelId.includes(c.id))) {
            for (const value of channel.ids[name] ?? []) {
              tally.add('foreign ids');
              const response = await send(caller, endpoint, method, { ...withId(endpoint, name, value), channelId: channel.id });
              expect(response.status).toBe(403);
            }
          }
        }
      }
      // The tenant comes from the authorizer only: naming it in parameters is refused (no endpoint defines them), nothing written.
      // A team key on an admin-only endpoint is refused for its role first, before any parameter is read.
      tally.add('forged');
      const forged = await send(caller, endpoint, method, { ...caller.forged, ...endpoint.base });
      if (endpoint.route.adminOnly && caller.role === 'team') {
        expect([forged.status, forged.body.error]).toEqual([403, 'forbidden']);
      } else {
        expect(forged.status).toBe(400);
        expect(forged.body.error).toBe('unknown_parameter');
        expect(Object.keys(caller.forged)).toContain(forged.body.details.parameter);
      }
    }
    const after = await snapshotA(index === 1 ? `WS#${a.workspaceId}#CH#${a.channels[0].id}` : undefined);
    const diff = snapshotDiff(before, after);
    if (diff.added.length || diff.removed.length) tally.add('writes to A');
    expect(diff).toEqual({ added: [], removed: [] });
    expect(leaks).toEqual([]);
  });
});

/**
 * OWASP API5 — function-level authorization, over the same route table: on its own
 * channel A1, the team key of A gets the one role refusal (403 `forbidden`, naming the
 * admin key) from exactly the endpoints INTERFACE §13 reserves to admin keys, whatever
 * the parameters and method, with nothing of A written; every other endpoint is open to it.
 */
const ADMIN_ONLY = ['webhooks/manage', 'webhooks/delete'];

describe.each(endpoints)('the role check of $path', (endpoint) => {
  const adminOnly = ADMIN_ONLY.includes(endpoint.path);

  it(`${adminOnly ? 'refuses' : 'serves'} the team key on its own channel`, async () => {
    // Prepare
    const caller = callers[1];
    const requests = [endpoint.base, { ...endpoint.base, channelId: a.channels[0].id }, { ...endpoint.base, ...caller.forged, channelId: a.channels[0].id }];
    // Only an admin-only endpoint's refusals must leave A unchanged (the others serve the key, and may write).
    const before = adminOnly ? await snapshotA() : undefined;
    // Act + Assess
    for (const method of METHODS) {
      for (const params of requests) {
        const response = await send(caller, endpoint, method, params);
        const refusedForRole = response.status === 403 && /needs an admin key/.test(response.body.message);
        expect(refusedForRole, `${method} ${JSON.stringify(params)}: ${JSON.stringify(response.body)}`).toBe(adminOnly);
        if (adminOnly) expect(response.body.error).toBe('forbidden');
      }
    }
    if (before) expect(snapshotDiff(before, await snapshotA())).toEqual({ added: [], removed: [] });
  });
});

describe('the matrix itself', () => {
  it('reserves to admin keys exactly the endpoints INTERFACE §13 names, by the route table', () => {
    const tableAdminOnly = endpoints.filter((endpoint) => endpoint.route.adminOnly).map((endpoint) => endpoint.path);
    expect(tableAdminOnly.sort()).toEqual(ADMIN_ONLY.filter((path) => endpoints.some((endpoint) => endpoint.path === path)).sort());
  });

  it('covers every route of the table and every id parameter the routes take', () => {
    const idParams = new Set(endpoints.flatMap((endpoint) => Object.keys(endpoint.params).filter((name) => name in FOREIGN_ID_STATUS)));
    expect(endpoints.length).toBeGreaterThanOrEqual(7);
    expect([...idParams]).toContain('channelId');
    // A route taking an id of another kind must get a row in FOREIGN_ID_STATUS (test/support/endpoints.ts).
    const idLike = endpoints.flatMap((endpoint) =>
      Object.keys(endpoint.params)
        .filter((name) => /Id$|mid$/i.test(name) && !(name in FOREIGN_ID_STATUS))
        .map((name) => `${endpoint.path}:${name}`),
    );
    expect(idLike).toEqual([]);
  });
});

/**
 * The same matrix over the developer portal's API (PORTAL_ROUTES): a portal user of
 * workspace B (admin) and the team user of A without channel A2, signed in (the ID token's
 * claims as API Gateway's Cognito authorizer hands them on), pass every id of A they could
 * pass: another user's or workspace's keyId → 404, a channel they may not use → 403,
 * another channel's or workspace's webhookId or eventId → 404, each the same answer as an
 * unknown id; naming the tenant through parameters is refused; nothing of A shows or changes.
 * A team user never sees an admin's keys, nor the webhooks of a channel not assigned to them.
 */
const { callPortal } = await import('../support/portal');
const { PORTAL_ROUTES } = await import('../../shared/routes');
const { logUndeliveredEvent } = await import('../support/event-log');
const { pathToFileURL } = await import('node:url');
const { join } = await import('node:path');

type PortalUser = Parameters<typeof callPortal>[1];
type PortalHandler = Parameters<typeof callPortal>[0];

/** What a foreign id in each portal parameter answers (an unknown id answers the same). */
const PORTAL_FOREIGN_ID_STATUS: Record<string, number> = { keyId: 404, channelId: 403, webhookId: 404, eventId: 404 };
const PORTAL_UNKNOWN: Record<string, string> = {
  keyId: 'key_unknown0000000',
  channelId: UNKNOWN.channelId,
  webhookId: 'wh_unknown0000000',
  eventId: 'evt_unknown0000000',
};

interface PortalCaller {
  label: string;
  user: PortalUser;
  secrets: string[];
  foreign: Record<string, string[]>;
  /** Valid values of the caller's own, so that only the parameter under test is foreign. */
  own: Record<string, string>;
}

const portalRoutes = await Promise.all(
  PORTAL_ROUTES.map(async (route) => {
    const module = (await import(/* @vite-ignore */ pathToFileURL(join(process.cwd(), route.entry)).href)) as {
      schema: { entries: Record<string, unknown> };
      handler: PortalHandler;
    };
    return { route, handler: module.handler, params: Object.keys(module.schema.entries) };
  }),
);
let portalCallers: PortalCaller[];

/** A subscription of the channel, by the API (its admin key), and an event of the channel never delivered to it. */
async function webhookWithEvent(adminKey: string, workspaceId: string, channelId: string): Promise<{ webhookId: string; url: string; eventId: string }> {
  const url = `https://example.com/${unique('isohook')}`;
  const answer = await callApi(manage('webhooks/manage').handler, { apiKey: adminKey, params: { channelId, url, events: '*' } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const eventId = await logUndeliveredEvent({ workspaceId, channelId }, unique('iso-event'));
  return { webhookId: answer.body.data.id, url, eventId };
}

beforeAll(async () => {
  const b = await createTenant(1);
  const [a1, a2] = a.channels;
  const [hookA1, hookA2, hookB] = [
    await webhookWithEvent(a.adminKey, a.workspaceId, a1.id),
    await webhookWithEvent(a.adminKey, a.workspaceId, a2.id),
    await webhookWithEvent(b.adminKey, b.workspaceId, b.channelIds[0]),
  ];
  const portalUser = (workspaceId: string, apiUserId: string, role: 'admin' | 'team'): PortalUser => ({
    email: `${unique('iso')}@example.com`,
    workspaceId,
    apiUserId,
    role,
    permissions: ['settings:api'],
  });
  const ofA2 = [hookA2.webhookId, hookA2.url, hookA2.eventId];
  portalCallers = [
    {
      label: 'portal admin of workspace B',
      user: portalUser(b.workspaceId, b.adminUserId, 'admin'),
      secrets: [...a.secrets, hookA1.webhookId, hookA1.url, hookA1.eventId, ...ofA2],
      foreign: {
        keyId: [a.adminKeyId, ...a.secrets.filter((secret) => secret.startsWith('key_'))],
        channelId: [a1.id, a2.id],
        webhookId: [hookA1.webhookId, hookA2.webhookId],
        eventId: [hookA1.eventId, hookA2.eventId],
      },
      own: { webhookId: hookB.webhookId, eventId: hookB.eventId },
    },
    {
      label: 'portal team user of workspace A without channel A2',
      user: portalUser(a.workspaceId, a.teamUserId, 'team'),
      // The admin's keys, and everything of the channel not assigned (A1's subscription names its creator, the admin: not a secret here)
      secrets: [a.adminKeyId, ...a2.secrets, ...ofA2],
      foreign: { keyId: [a.adminKeyId], channelId: [a2.id], webhookId: [hookA2.webhookId], eventId: [hookA2.eventId] },
      own: { webhookId: hookA1.webhookId, eventId: hookA1.eventId },
    },
  ];
});

async function sendPortal(caller: PortalCaller, handler: PortalHandler, method: 'GET' | 'POST', params: Record<string, string>, label: string) {
  tally.add('requests');
  const response = await callPortal(handler, caller.user, params, method);
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBeLessThan(500);
  const sent = JSON.stringify(params).toLowerCase();
  const text = JSON.stringify(response.body).toLowerCase();
  for (const secret of caller.secrets) {
    const value = secret.toLowerCase();
    if (!sent.includes(value) && text.includes(value)) leaks.push(`${caller.label} ${label}: ${secret} in ${text.slice(0, 200)}`);
  }
  expect(text).not.toMatch(/wsk_[a-z0-9_-]{20}/);
  return response;
}

describe.each(portalRoutes)('isolation of the portal’s $route.method $route.path', ({ route, handler, params }) => {
  const idParams = params.filter((name) => name in PORTAL_FOREIGN_ID_STATUS);
  const label = `${route.method} ${route.path}`;

  it.each([0, 1])('portal caller %i: every foreign id is the defined 403/404, the same as an unknown id, and nothing of A shows or changes', async (index) => {
    // Prepare
    const caller = portalCallers[index];
    const base = Object.fromEntries(params.filter((name) => name in caller.own).map((name) => [name, caller.own[name]]));
    const before = await snapshotA();
    // Act + Assess
    for (const name of idParams) {
      const unknown = await sendPortal(caller, handler, route.method, { ...base, [name]: PORTAL_UNKNOWN[name] }, label);
      for (const value of caller.foreign[name] ?? []) {
        tally.add('foreign ids');
        const response = await sendPortal(caller, handler, route.method, { ...base, [name]: value }, label);
        expect(response.status, `${caller.label} ${label} ${name}=${value}: ${JSON.stringify(response.body)}`).toBe(PORTAL_FOREIGN_ID_STATUS[name]);
        expect({ error: response.body.error, message: response.body.message }).toEqual({
          error: unknown.body.error,
          message: unknown.body.message.replace(PORTAL_UNKNOWN[name], value),
        });
      }
    }
    // The tenant comes from the token's claims only: naming it in parameters is refused, nothing written.
    tally.add('forged');
    const forged = await sendPortal(caller, handler, route.method, { ...base, workspaceId: a.workspaceId, apiUserId: a.adminUserId, role: 'admin' }, label);
    expect([forged.status, forged.body.error]).toEqual([400, 'unknown_parameter']);
    // A list the caller may read shows nothing of A's they may not see.
    if (route.method === 'GET' && idParams.length === 0) expect((await sendPortal(caller, handler, 'GET', {}, label)).status).toBe(200);
    expect(snapshotDiff(before, await snapshotA())).toEqual({ added: [], removed: [] });
    expect(leaks).toEqual([]);
  });
});

describe('the portal matrix itself', () => {
  it('covers every portal route and every id parameter the portal routes take', () => {
    const idLike = portalRoutes.flatMap(({ route, params }) =>
      params.filter((name) => /Id$/i.test(name) && !(name in PORTAL_FOREIGN_ID_STATUS)).map((name) => `${route.path}:${name}`),
    );
    expect(portalRoutes.map(({ route }) => route.name)).toEqual(PORTAL_ROUTES.map((route) => route.name));
    expect(idLike).toEqual([]);
    expect(portalCallers.every((caller) => caller.foreign.keyId.includes(a.adminKeyId))).toBe(true);
  });
});
