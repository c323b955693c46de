import type { Context, SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { handler as deleteContact } from '../../functions/contacts-delete';
import { handler as importContacts } from '../../functions/contacts-import';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as triggerAutomation } from '../../functions/automations-trigger';
import { clock } from '../../shared/clock';
import { getExecution } from '../../shared/data/automations';
import { listStatusChanges } from '../../shared/data/contact-status';
import { getContact } from '../../shared/data/contacts';
import { getChatmidRecord, getMessage } from '../../shared/data/messages';
import { chatNetwork } from '../../shared/chat/network';
import { callApi } from '../support/api';
import { drainQueue, makeAutomation } from '../support/automations';
import { newRecipient, openWindow, sendRequests, useChatTenant, type ChatNetwork, type ChatTenant } from '../support/chat';
import { emfLines } from '../support/stdout';

type Runner = (event: SQSEvent, context: Context) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;

let network: ChatNetwork;
let tenant: ChatTenant;
let runner: Runner;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

beforeAll(async () => {
  runner = (await import('../../functions/automation-runner')).handler as unknown as Runner;
});

const channelId = () => tenant.channelIds[0];
const ref = () => ({ workspaceId: tenant.workspaceId, channelId: channelId() });
const contactOf = (phone: string) => getContact(ref(), phone);
const template = (to: string) => callApi(sendTemplate, { apiKey: tenant.adminKey, params: { channelId: channelId(), to, templateName: 'hello_world' } });
const text = (to: string) => callApi(sendMessage, { apiKey: tenant.adminKey, params: { channelId: channelId(), to, body: 'hello' } });
const manage = (params: Record<string, unknown>) => callApi(manageContact, { apiKey: tenant.adminKey, params: { channelId: channelId(), ...params } });
const listed = (params: Record<string, unknown>) =>
  callApi(listContacts, { apiKey: tenant.adminKey, params: { channelId: channelId(), limit: 200, ...params } });

describe('opt-out by keyword', () => {
  it.each([
    'STOP',
    ' stop ',
    'Unsubscribe',
    'QUIT',
    'stopall',
    'cancel',
    'End',
    'Stop.',
    'STOP!',
    '\uff33\uff34\uff2f\uff30',
    'stop\u200b',
    '\u00a0\u00bfStop?',
  ])('opts the contact out on "%s" and refuses the next sends with 403 contact_opted_out', async (keyword) => {
    // Prepare
    const phone = newRecipient();
    await openWindow(network, tenant.channels[0], phone, 'hi');
    // Act
    const chatmid = await openWindow(network, tenant.channels[0], phone, keyword);
    const requestsBefore = sendRequests(network, tenant.channels[0]);
    const refusedTemplate = await template(phone);
    const refusedText = await text(phone);
    // Assess
    const contact = (await contactOf(phone)) as Awaited<ReturnType<typeof contactOf>> & { pendingEvents?: Array<{ type: string; data: unknown }> };
    expect(contact?.status).toBe('opted_out');
    // The change carries its event on the same write (the event outbox), for webhooks and events/list.
    expect(contact?.pendingEvents).toEqual([
      expect.objectContaining({
        type: 'contact.opted_out',
        data: { channelId: channelId(), contact: { id: contact!.id, phone }, source: 'keyword', keyword: keyword.trim() },
      }),
    ]);
    for (const refused of [refusedTemplate, refusedText]) {
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('contact_opted_out');
    }
    expect(sendRequests(network, tenant.channels[0])).toBe(requestsBefore);
    const changes = await listStatusChanges(ref(), phone);
    expect(changes).toEqual([
      expect.objectContaining({ status: 'opted_out', previousStatus: 'active', source: 'keyword', keyword: keyword.trim(), chatmid, at: expect.any(Number) }),
    ]);
  });

  it('opts back in on START, SUBSCRIBE or UNSTOP, and ignores keywords inside longer texts', async () => {
    // Prepare
    const phone = newRecipient();
    await openWindow(network, tenant.channels[0], phone, 'STOP');
    clock.shift(1000);
    // Act
    await openWindow(network, tenant.channels[0], phone, 'please stop sending');
    const stillOut = (await contactOf(phone))?.status;
    clock.shift(1000);
    await openWindow(network, tenant.channels[0], phone, 'unstop');
    const sent = await template(phone);
    // Assess
    expect(stillOut).toBe('opted_out');
    const contact = (await contactOf(phone)) as Awaited<ReturnType<typeof contactOf>> & { pendingEvents?: Array<{ type: string; data: unknown }> };
    expect(contact?.status).toBe('active');
    expect(contact?.pendingEvents?.map((event) => [event.type, event.data])).toEqual([
      ['contact.opted_out', { channelId: channelId(), contact: { id: contact!.id, phone }, source: 'keyword', keyword: 'STOP' }],
      ['contact.opted_in', { channelId: channelId(), contact: { id: contact!.id, phone }, source: 'keyword', keyword: 'unstop' }],
    ]);
    expect(sent.status).toBe(200);
    const changes = await listStatusChanges(ref(), phone);
    expect(changes.map((change) => [change.status, change.source])).toEqual([
      ['opted_out', 'keyword'],
      ['active', 'keyword'],
    ]);
  });

  it('covers every form of a Brazilian mobile number: STOP from the 8-digit form refuses sends to the 9-digit form', async () => {
    // Prepare: the chat network knows Brazilian mobiles without the ninth digit (wa_id 55 11 8xxxxxxx).
    const local = String(80_000_000 + Math.floor(Math.random() * 9_999_999));
    const withoutNinth = `5511${local}`;
    const withNinth = `55119${local}`;
    await openWindow(network, tenant.channels[0], withoutNinth, 'STOP');
    const requestsBefore = sendRequests(network, tenant.channels[0]);
    // Act
    const refused = await template(withNinth);
    // Assess
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('contact_opted_out');
    expect(sendRequests(network, tenant.channels[0])).toBe(requestsBefore);
  });

  it('covers every form of a Mexican mobile number: STOP from the older wa_id with 1 after 52 refuses sends to the number without it', async () => {
    // Prepare: older Mexican wa_ids carry a 1 after the country code (52 1 55 xxxxxxxx); the number is dialled without it.
    const local = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    await openWindow(network, tenant.channels[0], `52155${local}`, 'STOP');
    const requestsBefore = sendRequests(network, tenant.channels[0]);
    // Act
    const refused = await template(`+5255${local}`);
    // Assess
    expect([refused.status, refused.body.error]).toEqual([403, 'contact_opted_out']);
    expect(sendRequests(network, tenant.channels[0])).toBe(requestsBefore);
  });

  it('files a STOP from the wa_id the chat network gave a number under that number, and refuses it before the chat network, also after its erasure', async () => {
    // Prepare: a send to P that the chat network answers with a wa_id W that is no form of P (injected), so W maps to P.
    const [phone, waId] = [newRecipient(), newRecipient()];
    const graph = chatNetwork();
    const answer = graph.sendMessage.bind(graph);
    const rewrite = vi.spyOn(graph, 'sendMessage').mockImplementation(async (...args) => ({ ...(await answer(...args)), waId }));
    const first = await template(phone).finally(() => rewrite.mockRestore());
    expect(first.status).toBe(200);
    // Act
    await openWindow(network, tenant.channels[0], waId, 'STOP');
    const requestsBefore = sendRequests(network, tenant.channels[0]);
    const refused = await template(phone);
    const erased = await callApi(deleteContact, { apiKey: tenant.adminKey, params: { channelId: channelId(), phoneNumber: phone } });
    const refusedAfterErasure = await template(phone);
    // Assess
    expect([refused.status, refused.body.error]).toEqual([403, 'contact_opted_out']);
    expect(erased.status).toBe(200);
    expect([refusedAfterErasure.status, refusedAfterErasure.body.error]).toEqual([403, 'contact_opted_out']);
    expect(sendRequests(network, tenant.channels[0])).toBe(requestsBefore);
    expect(await contactOf(waId)).toBeUndefined();
  });

  it('records a send the chat network accepted under an opted-out wa_id: on the message, in SendsToOptedOut, and refuses the number from then on', async () => {
    // Prepare: the wa_id W opted out by keyword; the chat network then answers a send to a number that is no form of W
    // with W (a number it rewrote; injected, the sandbox rewrites only the Brazilian form).
    const optedOutWaId = newRecipient();
    await openWindow(network, tenant.channels[0], optedOutWaId, 'STOP');
    const phone = newRecipient();
    const graph = chatNetwork();
    const answer = graph.sendMessage.bind(graph);
    const rewrite = vi.spyOn(graph, 'sendMessage').mockImplementation(async (...args) => ({ ...(await answer(...args)), waId: optedOutWaId }));
    // Act
    let sent: Awaited<ReturnType<typeof template>> | undefined;
    const metrics = await emfLines(async () => {
      sent = await template(phone);
    }).finally(() => rewrite.mockRestore());
    const next = await template(phone);
    // Assess
    expect(sent!.status).toBe(200);
    expect(metrics.filter((line) => line.SendsToOptedOut === 1)).toHaveLength(1);
    const pointer = await getChatmidRecord(sent!.body.data.chatmid);
    expect(await getMessage(ref(), pointer!.messageId!)).toMatchObject({ phone, waId: optedOutWaId, sentToOptedOut: true });
    expect([next.status, next.body.error]).toEqual([403, 'contact_opted_out']);
  });

  it('keeps the later keyword’s status when the webhooks arrive out of order', async () => {
    // Prepare
    const phone = newRecipient();
    await openWindow(network, tenant.channels[0], phone, 'hi');
    const base = clock.now();
    // Act: START written at t+60 s is delivered before STOP written at t+30 s.
    clock.freeze(base + 60_000);
    await openWindow(network, tenant.channels[0], phone, 'START');
    clock.freeze(base + 30_000);
    await openWindow(network, tenant.channels[0], phone, 'STOP');
    clock.freeze(base + 90_000);
    // Assess
    expect((await contactOf(phone))?.status).toBe('active');
    expect((await listStatusChanges(ref(), phone)).map((change) => change.status)).toEqual(['opted_out', 'active']);
  });
});

describe('opt-out through contacts/manage and contacts/list', () => {
  it('sets status by API, records who and when, shows it in contacts/list and filters by it', async () => {
    // Prepare
    const [out, stays] = [newRecipient(), newRecipient()];
    await manage({ phoneNumber: stays, name: `Stays ${stays}` });
    // Act
    const created = await manage({ phoneNumber: out, name: `Leaves ${out}`, status: 'opted_out' });
    const optedOut = await listed({ status: 'opted_out' });
    const active = await listed({ status: 'active', search: stays });
    const searchedOut = await listed({ status: 'opted_out', search: `leaves ${out}` });
    const all = await listed({ search: out });
    const refused = await template(out);
    // Assess
    expect(created.body.data).toMatchObject({ status: 'opted_out', created: true });
    expect(optedOut.body.data.map((contact: { phone: string }) => contact.phone)).toContain(out);
    expect(optedOut.body.data.every((contact: { status: string }) => contact.status === 'opted_out')).toBe(true);
    expect(optedOut.body.data.map((contact: { phone: string }) => contact.phone)).not.toContain(stays);
    expect(active.body.data).toEqual([expect.objectContaining({ phone: stays, status: 'active' })]);
    expect(searchedOut.body.pagination.total).toBe(1);
    expect(all.body.data).toEqual([expect.objectContaining({ phone: out, status: 'opted_out' })]);
    expect(refused.status).toBe(403);
    const [change] = await listStatusChanges(ref(), out);
    expect(change).toMatchObject({ status: 'opted_out', source: 'api', userId: tenant.adminUserId, previousStatus: 'active' });
    const contact = (await contactOf(out)) as Awaited<ReturnType<typeof contactOf>> & { pendingEvents?: Array<{ type: string; data: unknown }> };
    expect(contact?.pendingEvents?.map((event) => [event.type, event.data])).toEqual([
      ['contact.opted_out', { channelId: channelId(), contact: { id: contact!.id, phone: out }, source: 'api' }],
    ]);
  });

  it('opts back in through contacts/manage status=active, after which sends go out again', async () => {
    // Prepare
    const phone = newRecipient();
    await manage({ phoneNumber: phone, status: 'opted_out' });
    // Act
    const back = await manage({ phoneNumber: phone, status: 'active' });
    const sent = await template(phone);
    // Assess
    expect(back.body.data.status).toBe('active');
    expect(sent.status).toBe(200);
    expect((await listStatusChanges(ref(), phone)).map((change) => change.status)).toEqual(['opted_out', 'active']);
  });

  it('refuses an unknown status with 400 naming status, writing nothing', async () => {
    // Prepare
    const phone = newRecipient();
    // Act
    const [badManage, badList] = [await manage({ phoneNumber: phone, status: 'paused' }), await listed({ status: 'OPTED' })];
    // Assess
    expect(badManage.status).toBe(400);
    expect(badManage.body.details.parameter).toBe('status');
    expect(badList.status).toBe(400);
    expect(badList.body.details.parameter).toBe('status');
    expect(await contactOf(phone)).toBeUndefined();
  });
});

describe('automation sends to an opted-out contact', () => {
  it('keeps an erased contact’s opt-out for an automation’s send and through a contacts/import that creates the contact again, until an import sets status active', async () => {
    // Prepare
    process.env.RATE_LIMIT_API_AUTOMATION_TRIGGER = '1000';
    const phone = newRecipient();
    await openWindow(network, tenant.channels[0], phone, 'STOP');
    expect((await callApi(deleteContact, { apiKey: tenant.adminKey, params: { channelId: channelId(), phoneNumber: phone } })).status).toBe(200);
    await makeAutomation(tenant.workspaceId, channelId(), `Erased ${phone}`, [{ type: 'send_template', templateName: 'hello_world' }]);
    const importRows = (rows: Record<string, unknown>[]) =>
      callApi(importContacts, { apiKey: tenant.adminKey, params: { channelId: channelId(), contacts: rows } });
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const triggered = await callApi(triggerAutomation, {
      apiKey: tenant.adminKey,
      params: { channelId: channelId(), phoneNumber: phone, automationName: `erased ${phone}` },
    });
    await drainQueue(runner);
    const recreated = await importRows([{ phoneNumber: `+${phone}`, name: 'Imported again' }]);
    const afterImport = await template(phone);
    const sentWhileSuppressed = sendRequests(network, tenant.channels[0]);
    const optIn = await importRows([{ phoneNumber: `+${phone}`, status: 'active' }]);
    const afterOptIn = await template(phone);
    // Assess
    const execution = await getExecution(ref(), triggered.body.data.executionId);
    expect(execution?.error).toMatch(/Step 1 \(send_template\) failed: .*contact_opted_out/);
    expect(recreated.status).toBe(200);
    expect([afterImport.status, afterImport.body.error]).toEqual([403, 'contact_opted_out']);
    expect(sentWhileSuppressed).toBe(before);
    expect(optIn.status).toBe(200);
    expect(afterOptIn.status).toBe(200);
    expect((await listStatusChanges(ref(), phone)).map((change) => [change.status, change.source])).toContainEqual(['active', 'import']);
  });

  it('fails the execution with contact_opted_out and sends nothing', async () => {
    // Prepare
    process.env.RATE_LIMIT_API_AUTOMATION_TRIGGER = '1000';
    const phone = newRecipient();
    await manage({ phoneNumber: phone, status: 'opted_out' });
    await makeAutomation(tenant.workspaceId, channelId(), `Opted ${phone}`, [{ type: 'send_template', templateName: 'hello_world' }]);
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const triggered = await callApi(triggerAutomation, {
      apiKey: tenant.adminKey,
      params: { channelId: channelId(), phoneNumber: phone, automationName: `opted ${phone}` },
    });
    await drainQueue(runner);
    // Assess
    const execution = await getExecution(ref(), triggered.body.data.executionId);
    expect(execution?.status).toBe('failed');
    expect(execution?.error).toMatch(/Step 1 \(send_template\) failed: .*contact_opted_out/);
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
  });
});
