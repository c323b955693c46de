import { describe, expect, it, vi } from 'vitest';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as messageStatus } from '../../functions/chat-message-status';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as webhook } from '../../functions/webhook-whatsapp';
import { signPayload } from '../../shared/chat/signature';
import { queryAll } from '../../shared/data/batch';
import { db, tableName } from '../../shared/data/client';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getConversation } from '../../shared/data/conversations';
import { keys } from '../../shared/data/keys';
import { attachChatmid, getChatmidRecord, getMessage, MessageItem, namesItsContact, type MessageRecord } from '../../shared/data/messages';
import { callApi } from '../support/api';
import {
  createChatTenant,
  newRecipient,
  openWindow,
  signedWebhook,
  VERIFY_TOKEN,
  webhookEvent,
  type ChatNetwork,
  type ChatTenant,
  useChatTenant,
} from '../support/chat';
import { injectFaults, serviceError } from '../support/faults';
import { logger } from '../../shared/observability/logger';
import { webhookEnvelope } from '../../scripts/local/sandbox-webhooks';
import { newChatmid } from '../support/chatmid';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

const channel = () => tenant.channels[0];
const seconds = (ms: number) => String(Math.floor(ms / 1000));

/** A webhook body in the Cloud API shape for the test channel (the sandbox chat network's envelope). */
const delivery = (value: Record<string, unknown>, phoneNumberId = channel().phoneNumberId) =>
  webhookEnvelope({ phoneNumberId, wabaId: channel().wabaId!, displayPhoneNumber: '15550000000' }, value);

const statusEvent = (chatmid: string, status: string, atMs: number, recipient: string, extra: Record<string, unknown> = {}) =>
  delivery({ statuses: [{ id: chatmid, status, timestamp: seconds(atMs), recipient_id: recipient, ...extra }] });

const inboundEvent = (chatmid: string, from: string, text: string, atMs = Date.now(), name = 'Ann Customer') =>
  delivery({ contacts: [{ profile: { name }, wa_id: from }], messages: [{ from, id: chatmid, timestamp: seconds(atMs), type: 'text', text: { body: text } }] });

/** Attaches a chatmid to an outbound text of this tenant's channel, as a send's answer would. */
const attachText = (chatmid: string, messageId: string, phone: string, at: number) =>
  attachChatmid({
    chatmid,
    workspaceId: tenant.workspaceId,
    channelId: tenant.channelIds[0],
    messageId,
    direction: 'outbound',
    type: 'text',
    content: { body: messageId },
    phone,
    at,
    phoneNumberId: channel().phoneNumberId,
  });

const readStatus = (chatmid: string) => callApi(messageStatus, { apiKey: tenant.adminKey, params: { chatmid } });

async function sendTemplateTo(to: string, apiReference?: string) {
  return callApi(sendTemplate, { apiKey: tenant.adminKey, params: { to, templateName: 'hello_world', apiReference } });
}

async function inboundMessages(phone: string): Promise<MessageRecord[]> {
  const { pk } = keys.contactPrefix({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });
  return (await queryAll(pk, 'MSG#', MessageItem, { consistent: true }))
    .filter(namesItsContact)
    .filter((message) => message.phone === phone && message.direction === 'inbound');
}

describe('webhook verification handshake (GET)', () => {
  it('answers the challenge when mode and verify token match', async () => {
    // Act
    const result = await webhook(webhookEvent('GET', null, {}, { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1158201444' }));
    // Assess
    expect(result.statusCode).toBe(200);
    expect(result.body).toBe('1158201444');
    expect(result.headers?.['Content-Type']).toContain('text/plain');
  });

  it.each([
    ['a wrong verify token', { 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': 'x' }],
    ['a wrong mode', { 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': 'x' }],
    ['no parameters', {}],
  ])('refuses %s with 403', async (_case, query) => {
    // Act
    const result = await webhook(webhookEvent('GET', null, {}, query));
    // Assess
    expect(result.statusCode).toBe(403);
    expect(result.body).not.toContain('x');
  });
});

describe('webhook deliveries (POST)', () => {
  it.each([
    ['no signature', (raw: string) => ({ 'Content-Type': 'application/json', raw })],
    ['a signature made with another secret', (raw: string) => ({ 'X-Hub-Signature-256': signPayload(raw, 'not-the-app-secret'), raw })],
    ['a signature of another body', (raw: string) => ({ 'X-Hub-Signature-256': signPayload(`${raw} `, 'chat-test-app-secret'), raw })],
    ['a malformed signature', (raw: string) => ({ 'X-Hub-Signature-256': 'sha256=zz', raw })],
  ])('refuses a delivery with %s (401) and records nothing', async (_case, sign) => {
    // Prepare
    const from = newRecipient();
    const chatmid = newChatmid();
    const raw = JSON.stringify(inboundEvent(chatmid, from, 'forged'));
    const { raw: body, ...headers } = sign(raw);
    // Act
    const result = await webhook(webhookEvent('POST', body, headers as Record<string, string>));
    // Assess
    expect(result.statusCode).toBe(401);
    expect(await getChatmidRecord(chatmid)).toBeUndefined();
    expect(await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, from)).toBeUndefined();
  });

  it('accepts a correctly signed delivery, also one with a header name in another case', async () => {
    // Prepare
    const raw = JSON.stringify(inboundEvent(newChatmid(), newRecipient(), 'hello'));
    // Act
    const result = await webhook(webhookEvent('POST', raw, { 'x-hub-signature-256': signPayload(raw, 'chat-test-app-secret') }));
    // Assess
    expect(result.statusCode).toBe(200);
  });

  it('acknowledges signed deliveries it cannot use: an unknown phone-number id, an unknown chatmid, garbage', async () => {
    // Act
    const unknownNumber = await webhook(
      signedWebhook(
        delivery(
          { messages: [{ from: '14155550100', id: newChatmid(), timestamp: seconds(Date.now()), type: 'text', text: { body: 'x' } }] },
          '999999999999999',
        ),
      ),
    );
    const unknownChatmid = await webhook(signedWebhook(statusEvent(newChatmid(), 'delivered', Date.now(), '14155550100')));
    const garbage = await webhook(signedWebhook({ hello: 'world' }));
    // Assess
    expect([unknownNumber.statusCode, unknownChatmid.statusCode, garbage.statusCode]).toEqual([200, 200, 200]);
  });

  it('creates the contact and the conversation from an inbound message and opens the window', async () => {
    // Prepare
    const from = newRecipient();
    const at = Date.now() - 60_000;
    // Act
    const result = await webhook(signedWebhook(inboundEvent(newChatmid(), from, 'I need help', at, 'Dana Inbound')));
    // Assess
    expect(result.statusCode).toBe(200);
    const conversation = await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, from);
    expect(conversation).toMatchObject({ id: expect.stringMatching(/^cv_/), phone: from, lastInboundAt: Math.floor(at / 1000) * 1000 });
    const contacts = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: from } });
    expect(contacts.body.data).toEqual([expect.objectContaining({ id: conversation!.contactId, phone: from, name: 'Dana Inbound' })]);
    const sent = await callApi(sendMessage, { apiKey: tenant.adminKey, params: { to: from, body: 'How can we help?' } });
    expect(sent.status).toBe(200);
  });

  it('never renames a known contact with the WhatsApp profile name', async () => {
    // Prepare
    const from = newRecipient();
    const created = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: `+${from}`, name: 'Name From The CRM' } });
    expect(created.status).toBe(200);
    // Act
    const result = await webhook(signedWebhook(inboundEvent(newChatmid(), from, 'Hello again', Date.now(), 'Profile Name')));
    // Assess
    expect(result.statusCode).toBe(200);
    const contacts = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: from } });
    expect(contacts.body.data).toEqual([expect.objectContaining({ phone: from, name: 'Name From The CRM' })]);
  });

  it('records a duplicate inbound delivery once, and an older one never moves the window back', async () => {
    // Prepare
    const from = newRecipient();
    const chatmid = newChatmid();
    const now = Date.now();
    const first = signedWebhook(inboundEvent(chatmid, from, 'once', now));
    // Act
    await webhook(first);
    await webhook(first);
    await webhook(signedWebhook(inboundEvent(newChatmid(), from, 'older, delivered late', now - 3_600_000)));
    // Assess
    const messages = await inboundMessages(from);
    expect(messages.map((message) => message.content)).toEqual(expect.arrayContaining([{ body: 'once' }, { body: 'older, delivered late' }]));
    expect(messages).toHaveLength(2);
    expect((await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, from))!.lastInboundAt).toBe(
      Math.floor(now / 1000) * 1000,
    );
  });

  it('moves a status only forward, whatever order and however often the statuses arrive', async () => {
    // Prepare
    const to = newRecipient();
    const sent = await sendTemplateTo(to);
    await network.sandbox.idle();
    const chatmid = sent.body.data.chatmid;
    const t = Date.now();
    // Act
    const read = await webhook(signedWebhook(statusEvent(chatmid, 'read', t + 2_000, to)));
    await webhook(signedWebhook(statusEvent(chatmid, 'read', t + 9_000, to)));
    await webhook(signedWebhook(statusEvent(chatmid, 'delivered', t + 1_000, to)));
    await webhook(signedWebhook(statusEvent(chatmid, 'sent', t, to)));
    // Assess
    expect(read.statusCode).toBe(200);
    const status = await readStatus(chatmid);
    expect(status.body.data).toMatchObject({ status: 'read', readAt: new Date(Math.floor((t + 2_000) / 1000) * 1000).toISOString() });
    expect(status.body.data.deliveredAt).not.toBeNull();
  });

  it('sets deliveredAt from a read that arrives without a delivered event', async () => {
    // Prepare
    const chatmid = newChatmid();
    const t = Date.now();
    await attachText(chatmid, 'msg_x', '14155550100', t);
    // Act
    await webhook(signedWebhook(statusEvent(chatmid, 'read', t, '14155550100')));
    // Assess
    const status = await readStatus(chatmid);
    expect(status.body.data).toMatchObject({ status: 'read', deliveredAt: status.body.data.readAt });
  });

  it('keeps failed and its error: later statuses never undo it', async () => {
    // Prepare
    const to = newRecipient();
    const sent = await sendTemplateTo(to);
    await network.sandbox.idle();
    const chatmid = sent.body.data.chatmid;
    const error = {
      code: 131026,
      title: 'Message undeliverable',
      message: 'Message undeliverable',
      error_data: { details: 'Receiver is incapable of receiving this message' },
    };
    // Act
    await webhook(signedWebhook(statusEvent(chatmid, 'failed', Date.now(), to, { errors: [error] })));
    await webhook(signedWebhook(statusEvent(chatmid, 'read', Date.now(), to)));
    // Assess
    const status = await readStatus(chatmid);
    expect(status.body.data).toMatchObject({ status: 'failed', readAt: null, error: { code: 131026, title: 'Message undeliverable' } });
  });

  it('keeps a status that arrived before the send recorded its outcome', async () => {
    // Prepare: the chat network reports delivered before the send's own answer is recorded
    const chatmid = newChatmid();
    const t = Date.now();
    await webhook(signedWebhook(statusEvent(chatmid, 'delivered', t, '14155550199')));
    const early = await getChatmidRecord(chatmid);
    // Act
    await attachText(chatmid, 'msg_y', '14155550199', t);
    // Assess
    expect(early).toMatchObject({ status: 'delivered', expiresAt: expect.any(Number) });
    expect(early!.workspaceId).toBeUndefined();
    const status = await readStatus(chatmid);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'delivered', direction: 'outbound', deliveredAt: new Date(Math.floor(t / 1000) * 1000).toISOString() });
    expect(await getChatmidRecord(chatmid)).not.toHaveProperty('expiresAt');
  });

  it('matches an inbound message by the wa_id the chat network returned, so a rewritten number stays one contact', async () => {
    // Prepare: a Brazilian mobile number, which the chat network knows without its ninth digit
    const number = `55119${String(Date.now()).slice(-8)}`;
    const rewritten = `5511${number.slice(5)}`;
    const sent = await callApi(sendTemplate, { apiKey: tenant.adminKey, params: { to: `+${number}`, templateName: 'hello_world' } });
    // Act
    await openWindow(network, channel(), number, 'Oi!');
    const reply = await callApi(sendMessage, { apiKey: tenant.adminKey, params: { to: number, body: 'Olá!' } });
    // Assess
    expect(sent.status).toBe(200);
    expect((network.sandbox.sent.at(-2)!.body as { to: string }).to).toBe(number);
    expect(reply.status).toBe(200);
    const contacts = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: rewritten.slice(4) } });
    expect(contacts.body.data).toEqual([expect.objectContaining({ phone: number })]);
    expect(await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, rewritten)).toBeUndefined();
  });

  it('settles a send of unknown outcome when a status for it arrives', async () => {
    // Prepare
    const to = newRecipient();
    network.sandbox.injectFault({ kind: '5xx', path: 'messages' });
    const unknown = await sendTemplateTo(to, 'settle-1');
    const chatmid = newChatmid();
    // Act
    await webhook(signedWebhook(statusEvent(chatmid, 'sent', Date.now(), to)));
    const replay = await sendTemplateTo(to, 'settle-1');
    // Assess
    expect(unknown.status).toBe(502);
    const message = await getMessage({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, unknown.body.details.messageId);
    expect(message).toMatchObject({ sendState: 'accepted', chatmid });
    expect((await readStatus(chatmid)).body.data).toMatchObject({ status: 'sent', direction: 'outbound', type: 'template' });
    // The pointer is attached as a send's answer attaches it: its status events name the apiReference.
    expect(await getChatmidRecord(chatmid)).toMatchObject({ apiReference: 'settle-1', phone: to, messageId: message!.id });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ chatmid, to, templateName: 'hello_world' });
    expect((await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, to))!.unsettledMessageIds ?? new Set()).not.toContain(
      message!.id,
    );
  });

  it('answers 500 when it cannot record a delivery, so the chat network delivers it again', async () => {
    // Prepare
    const from = newRecipient();
    let failures = 0;
    const fault = injectFaults((command) => (command === 'PutItemCommand' && failures++ === 0 ? serviceError('ValidationException') : undefined));
    const answersBefore = network.webhookAnswers.length;
    // Act
    const { chatmid } = await network.sandbox.deliverInbound({ phoneNumberId: channel().phoneNumberId, from, text: 'retry me' }).finally(() => fault.remove());
    // Assess
    expect(network.webhookAnswers.slice(answersBefore)).toEqual([500, 200]);
    expect(await getChatmidRecord(chatmid)).toMatchObject({ direction: 'inbound', status: 'received' });
    expect(await inboundMessages(from)).toHaveLength(1);
  });
});

describe('webhook timestamps and numbers out of range', () => {
  it.each([
    ['9000000000000 s (past the last valid Date)', '9000000000000'],
    ['99999999999999 s (past 2^53 in ms)', '99999999999999'],
    ['a number past 2^53 s', 1e300],
  ])('acknowledges a status stamped %s, keeps the status, and chat/message/status still answers', async (_case, timestamp) => {
    // Prepare
    const to = newRecipient();
    const sent = await sendTemplateTo(to);
    await network.sandbox.idle();
    const chatmid = sent.body.data.chatmid;
    const warn = vi.spyOn(logger, 'warn');
    // Act
    const before = Date.now();
    const result = await webhook(signedWebhook(delivery({ statuses: [{ id: chatmid, status: 'read', timestamp, recipient_id: to }] })));
    const status = await readStatus(chatmid);
    // Assess: the status counts, its time is the time it was received (clamped), with a warning.
    expect(result.statusCode).toBe(200);
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    expect(status.body.data.status).toBe('read');
    expect(Date.parse(status.body.data.readAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(status.body.data.readAt)).toBeLessThanOrEqual(Date.now());
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('timestamp'), expect.objectContaining({ chatmid }));
    warn.mockRestore();
  });

  it('acknowledges an inbound message stamped far in the future and records it at the time it arrived', async () => {
    // Prepare
    const from = newRecipient();
    const chatmid = newChatmid();
    // Act
    const result = await webhook(
      signedWebhook(
        delivery({
          contacts: [{ profile: { name: 'Far' }, wa_id: from }],
          messages: [{ from, id: chatmid, timestamp: '99999999999999', type: 'text', text: { body: 'hi' } }],
        }),
      ),
    );
    const status = await readStatus(chatmid);
    // Assess
    expect(result.statusCode).toBe(200);
    expect(status.status).toBe(200);
    expect(Date.parse(status.body.data.timestamp)).toBeLessThanOrEqual(Date.now());
  });

  it('acknowledges an inbound message whose text would not fit an item (500 KB) and records it cut to 65,536 characters', async () => {
    // Prepare
    const from = newRecipient();
    const chatmid = newChatmid();
    // Act
    const result = await webhook(
      signedWebhook(
        delivery({
          contacts: [{ profile: { name: 'Long' }, wa_id: from }],
          messages: [{ from, id: chatmid, timestamp: seconds(Date.now()), type: 'text', text: { body: 'x'.repeat(500_000) } }],
        }),
      ),
    );
    // Assess
    expect(result.statusCode).toBe(200);
    const [message] = await inboundMessages(from);
    expect((message.content as { body: string }).body).toHaveLength(65_536);
  });

  it('acknowledges a failed status whose error code is past 2^53 and keeps the error text', async () => {
    // Prepare
    const to = newRecipient();
    const sent = await sendTemplateTo(to);
    await network.sandbox.idle();
    const chatmid = sent.body.data.chatmid;
    // Act
    const result = await webhook(signedWebhook(statusEvent(chatmid, 'failed', Date.now(), to, { errors: [{ code: 1e300, title: 'Odd' }] })));
    const status = await readStatus(chatmid);
    // Assess
    expect(result.statusCode).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'failed', error: { title: 'Odd' } });
  });
});

describe('a status applies only to a message of the phone number that names it', () => {
  /** The EMF lines and warnings a call writes. */
  async function observed(run: () => Promise<unknown>) {
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (write as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    }) as typeof process.stdout.write;
    const warn = vi.spyOn(logger, 'warn');
    try {
      await run();
      return { metrics: lines.filter((line) => line.includes('"WebhookStatusMismatches"')), warnings: warn.mock.calls.map(([message]) => message) };
    } finally {
      process.stdout.write = write;
      warn.mockRestore();
    }
  }

  async function sentMessage() {
    const to = newRecipient();
    const sent = await sendTemplateTo(to);
    await network.sandbox.idle();
    return { to, chatmid: sent.body.data.chatmid as string, before: (await readStatus(sent.body.data.chatmid)).body.data };
  }

  it("ignores a signed status naming another tenant's phone-number id, counts and logs it", async () => {
    // Prepare
    const other = await createChatTenant(network, 1);
    const { to, chatmid, before } = await sentMessage();
    // Act
    let result: Awaited<ReturnType<typeof webhook>> | undefined;
    const seen = await observed(async () => {
      result = await webhook(
        signedWebhook(
          delivery({ statuses: [{ id: chatmid, status: 'read', timestamp: seconds(Date.now()), recipient_id: to }] }, other.channels[0].phoneNumberId),
        ),
      );
    });
    // Assess
    expect(result!.statusCode).toBe(200);
    const after = (await readStatus(chatmid)).body.data;
    expect(after.status).toBe(before.status);
    expect(after.readAt).toBeNull();
    expect(seen.metrics).toHaveLength(1);
    expect(seen.warnings).toContainEqual(expect.stringContaining('another phone number'));
  });

  it('ignores a signed status naming an unknown phone-number id', async () => {
    // Prepare
    const { to, chatmid, before } = await sentMessage();
    // Act
    const result = await webhook(
      signedWebhook(delivery({ statuses: [{ id: chatmid, status: 'read', timestamp: seconds(Date.now()), recipient_id: to }] }, '999999999999998')),
    );
    // Assess
    expect(result.statusCode).toBe(200);
    expect((await readStatus(chatmid)).body.data).toMatchObject({ status: before.status, readAt: null });
  });

  it("applies the channel's own status, also to a pointer written before phone-number ids were recorded on it", async () => {
    // Prepare: a pointer as an earlier version wrote it (no phoneNumberId)
    const other = await createChatTenant(network, 1);
    const { to, chatmid } = await sentMessage();
    await db.send(new UpdateCommand({ TableName: tableName(), Key: keys.messageByChatmid(chatmid), UpdateExpression: 'REMOVE phoneNumberId' }));
    // Act
    const foreign = await webhook(
      signedWebhook(
        delivery({ statuses: [{ id: chatmid, status: 'read', timestamp: seconds(Date.now()), recipient_id: to }] }, other.channels[0].phoneNumberId),
      ),
    );
    const afterForeign = (await readStatus(chatmid)).body.data;
    const own = await webhook(signedWebhook(statusEvent(chatmid, 'read', Date.now(), to)));
    // Assess
    expect([foreign.statusCode, own.statusCode]).toEqual([200, 200]);
    expect(afterForeign.readAt).toBeNull();
    expect((await readStatus(chatmid)).body.data.status).toBe('read');
  });
});
