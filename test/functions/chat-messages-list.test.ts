import { describe, expect, it } from 'vitest';
import { handler as listMessages } from '../../functions/chat-messages-list';
import { handler as messageStatus } from '../../functions/chat-message-status';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { handler as manageContact } from '../../functions/contacts-manage';
import { clock } from '../../shared/clock';
import { callApi } from '../support/api';
import { newRecipient, openWindow, useChatTenant, type ChatNetwork, type ChatTenant } from '../support/chat';
import { injectFaults } from '../support/faults';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(2, (started, created) => {
  network = started;
  tenant = created;
});

const list = (params: Record<string, unknown>, method: 'GET' | 'POST' = 'POST') =>
  callApi(listMessages, { apiKey: tenant.adminKey, method, params: { channelId: tenant.channelIds[0], ...params } });

const deliver = (from: string, message: Record<string, unknown>, channel = tenant.channels[0]) =>
  network.sandbox.deliverInbound({ phoneNumberId: channel.phoneNumberId, from, message });

describe('chat/messages/list', () => {
  it('lists inbound and outbound messages of one contact newest first, with content, status and timestamps', async () => {
    // Prepare
    const phone = newRecipient();
    const sent = await callApi(sendTemplate, {
      apiKey: tenant.adminKey,
      params: { channelId: tenant.channelIds[0], to: phone, templateName: 'order_update', variables: ['Bo', 'A-1'], apiReference: 'ref-1' },
    });
    await network.sandbox.idle();
    clock.shift(1000);
    const inbound = await openWindow(network, tenant.channels[0], phone, 'Where is it?');
    // A message of another contact must not appear.
    await openWindow(network, tenant.channels[0], newRecipient(), 'someone else');
    // Act
    const page = await list({ phoneNumber: `+${phone}` });
    // Assess
    expect(page.status).toBe(200);
    expect(page.body.nextCursor).toBeNull();
    expect(page.body.data).toEqual([
      {
        chatmid: inbound,
        direction: 'inbound',
        type: 'text',
        content: { body: 'Where is it?' },
        status: 'received',
        timestamp: expect.any(String),
        deliveredAt: null,
        readAt: null,
        apiReference: null,
        error: null,
      },
      {
        chatmid: sent.body.data.chatmid,
        direction: 'outbound',
        type: 'template',
        content: { templateName: 'order_update', languageCode: 'en', bodyVariables: ['Bo', 'A-1'] },
        status: 'delivered',
        timestamp: expect.any(String),
        deliveredAt: expect.any(String),
        readAt: null,
        apiReference: 'ref-1',
        error: null,
      },
    ]);
    expect(Date.parse(page.body.data[0].timestamp)).toBeGreaterThan(Date.parse(page.body.data[1].timestamp));
  });

  it('pages with opaque cursors that work by GET and POST alike and end with null', async () => {
    // Prepare
    const phone = newRecipient();
    const chatmids: string[] = [];
    for (let i = 0; i < 5; i++) {
      chatmids.push(await openWindow(network, tenant.channels[0], phone, `message ${i}`));
      clock.shift(1000);
    }
    // Act
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list({ phoneNumber: phone, limit: 2, ...(cursor ? { cursor } : {}) }, pages % 2 ? 'GET' : 'POST');
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((message: { chatmid: string }) => message.chatmid));
      cursor = page.body.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    // Assess
    expect(seen).toEqual([...chatmids].reverse());
    expect(pages).toBe(3);
    const exact = await list({ phoneNumber: phone, limit: 5 });
    expect(exact.body.data).toHaveLength(5);
    expect(exact.body.nextCursor).toBeNull();
  });

  it('finds the contact by contactId too, and answers 404 for unknown, other-channel or malformed references', async () => {
    // Prepare
    const phone = newRecipient();
    await openWindow(network, tenant.channels[0], phone, 'hello');
    const contact = await callApi(manageContact, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[0], phoneNumber: phone } });
    const other = await callApi(manageContact, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[1], phoneNumber: newRecipient() } });
    // Act
    const byId = await list({ contactId: contact.body.data.id });
    const unknownId = await list({ contactId: 'ct_doesnotexist000000' });
    const otherChannelId = await list({ contactId: other.body.data.id });
    const unknownPhone = await list({ phoneNumber: newRecipient() });
    const neither = await list({});
    const mismatch = await list({ contactId: contact.body.data.id, phoneNumber: newRecipient() });
    // Assess
    expect(byId.body.data.map((m: { content: unknown }) => m.content)).toEqual([{ body: 'hello' }]);
    for (const answer of [unknownId, otherChannelId, mismatch]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('not_found');
    }
    expect(unknownPhone.status).toBe(404);
    expect(unknownPhone.body.details.parameter).toBe('phoneNumber');
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({ error: 'missing_parameter', details: { parameter: 'phoneNumber' } });
  });

  it('refuses a tampered cursor, another contact’s and another channel’s cursor with 400 naming cursor, and a limit above 100', async () => {
    // Prepare
    const [a, b] = [newRecipient(), newRecipient()];
    for (const phone of [a, a, b, b]) await openWindow(network, tenant.channels[0], phone, 'x');
    await openWindow(network, tenant.channels[1], a, 'x');
    await openWindow(network, tenant.channels[1], a, 'y');
    const cursorA = (await list({ phoneNumber: a, limit: 1 })).body.nextCursor as string;
    const cursorB = (await list({ phoneNumber: b, limit: 1 })).body.nextCursor as string;
    const otherChannel = (await list({ phoneNumber: a, limit: 1, channelId: tenant.channelIds[1] })).body.nextCursor as string;
    const [position, signature] = cursorA.split('.');
    const flipped = `${position.slice(0, -1)}${position.endsWith('A') ? 'B' : 'A'}.${signature}`;
    // Act
    const answers = await Promise.all([
      list({ phoneNumber: a, cursor: flipped }),
      list({ phoneNumber: a, cursor: `${position}.${signature.slice(0, -2)}` }),
      list({ phoneNumber: a, cursor: 'not-a-cursor' }),
      list({ phoneNumber: a, cursor: cursorB }),
      list({ phoneNumber: a, cursor: otherChannel }),
    ]);
    const tooMany = await list({ phoneNumber: a, limit: 101 });
    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'invalid_parameter', details: { parameter: 'cursor' } });
    }
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details.parameter).toBe('limit');
    expect((await list({ phoneNumber: a, cursor: cursorA })).status).toBe(200);
  });

  it('reads one query and one batch of statuses per page, whatever else the channel holds', async () => {
    // Prepare
    const phone = newRecipient();
    await openWindow(network, tenant.channels[0], phone, 'one');
    await callApi(sendMessage, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[0], to: phone, body: 'two' } });
    const calls: string[] = [];
    const spy = injectFaults((name, input) => {
      if ((input as { TableName?: string }).TableName !== undefined || name === 'BatchGetItemCommand') calls.push(name);
      return undefined;
    });
    // Act
    try {
      const page = await list({ phoneNumber: phone });
      expect(page.body.data).toHaveLength(2);
    } finally {
      spy.remove();
    }
    // Assess: limiter, contact, one history query, one batch of pointers; never a Scan or a filter.
    expect(calls.filter((name) => name === 'QueryCommand')).toHaveLength(1);
    expect(calls.filter((name) => name === 'BatchGetItemCommand')).toHaveLength(1);
    expect(calls).not.toContain('ScanCommand');
  });
});

describe('inbound order and repeats', () => {
  it('keeps the order of arrival within one second (Meta’s times are whole seconds)', async () => {
    // Prepare
    const phone = newRecipient();
    const second = Math.floor(Date.now() / 1000) * 1000 + 60_000;
    // Act
    const chatmids: string[] = [];
    for (const offset of [100, 400, 700]) {
      clock.freeze(second + offset);
      chatmids.push(await openWindow(network, tenant.channels[0], phone, `part ${offset}`));
    }
    // Assess
    const page = await list({ phoneNumber: phone });
    expect(page.body.data.map((message: { chatmid: string }) => message.chatmid)).toEqual([...chatmids].reverse());
  });

  it('records a delivery repeated after a crash once, at the first delivery’s time', async () => {
    // Prepare
    const phone = newRecipient();
    const chatmid = `wamid.repeat${Date.now()}`;
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: tenant.channels[0].phoneNumberId },
                contacts: [{ wa_id: phone, profile: { name: 'R' } }],
                messages: [{ from: phone, id: chatmid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'STOP' } }],
              },
            },
          ],
        },
      ],
    };
    const { handler: webhook } = await import('../../functions/webhook-whatsapp');
    const { signedWebhook } = await import('../support/chat');
    const fault = injectFaults((name, input) =>
      name === 'PutItemCommand' && String((input.Item as { pk?: { S?: string } })?.pk?.S).startsWith('CHATMID#')
        ? new Error('crash before the pointer')
        : undefined,
    );
    let first;
    try {
      first = await webhook(signedWebhook(body));
    } finally {
      fault.remove();
    }
    clock.shift(700);
    // Act
    const second = await webhook(signedWebhook(body));
    const third = await webhook(signedWebhook(body));
    // Assess
    expect(first.statusCode).toBe(500);
    expect([second.statusCode, third.statusCode]).toEqual([200, 200]);
    const page = await list({ phoneNumber: phone });
    expect(page.body.data.map((message: { chatmid: string }) => message.chatmid)).toEqual([chatmid]);
    const { listStatusChanges } = await import('../../shared/data/contact-status');
    expect(await listStatusChanges({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, phone)).toHaveLength(1);
  });
});

describe('inbound message types', () => {
  const cases: Array<[string, Record<string, unknown>, string, Record<string, unknown>]> = [
    [
      'image',
      { type: 'image', image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'my receipt', sha256: 'abc' } },
      'image',
      { mediaId: 'media-1', mimeType: 'image/jpeg', caption: 'my receipt', sha256: 'abc' },
    ],
    ['video', { type: 'video', video: { id: 'media-2', mime_type: 'video/mp4' } }, 'video', { mediaId: 'media-2', mimeType: 'video/mp4' }],
    [
      'document',
      { type: 'document', document: { id: 'media-3', mime_type: 'application/pdf', filename: 'invoice.pdf', caption: 'invoice' } },
      'document',
      { mediaId: 'media-3', mimeType: 'application/pdf', filename: 'invoice.pdf', caption: 'invoice' },
    ],
    [
      'audio',
      { type: 'audio', audio: { id: 'media-4', mime_type: 'audio/ogg; codecs=opus', voice: true } },
      'audio',
      { mediaId: 'media-4', mimeType: 'audio/ogg; codecs=opus', voice: true },
    ],
    [
      'sticker',
      { type: 'sticker', sticker: { id: 'media-5', mime_type: 'image/webp', animated: false } },
      'sticker',
      { mediaId: 'media-5', mimeType: 'image/webp', animated: false },
    ],
    [
      'location',
      { type: 'location', location: { latitude: 38.7223, longitude: -9.1393, name: 'Shop', address: 'Rua 1' } },
      'location',
      { latitude: 38.7223, longitude: -9.1393, name: 'Shop', address: 'Rua 1' },
    ],
    [
      'contacts',
      {
        type: 'contacts',
        contacts: [
          {
            name: { formatted_name: 'Ann Other', first_name: 'Ann' },
            phones: [{ phone: '+1 415 555 0000', type: 'CELL', wa_id: '14155550000' }],
            emails: [{ email: 'ann@example.com' }],
          },
        ],
      },
      'contacts',
      { contacts: [{ name: 'Ann Other', phones: [{ phone: '+1 415 555 0000', type: 'CELL', waId: '14155550000' }], emails: [{ email: 'ann@example.com' }] }] },
    ],
    [
      'button reply',
      { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } } },
      'interactive',
      { replyType: 'button_reply', id: 'yes', title: 'Yes' },
    ],
    [
      'list reply',
      { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'row-2', title: 'Tuesday', description: 'afternoon' } } },
      'interactive',
      { replyType: 'list_reply', id: 'row-2', title: 'Tuesday', description: 'afternoon' },
    ],
    ['template button', { type: 'button', button: { text: 'Track order', payload: 'TRACK' } }, 'button', { text: 'Track order', payload: 'TRACK' }],
    ['reaction', { type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } }, 'reaction', { messageId: 'wamid.X', emoji: '👍' }],
    ['unknown type', { type: 'order', order: { catalog_id: '1' } }, 'unsupported', { rawType: 'order' }],
    ['Meta’s unsupported', { type: 'unsupported', errors: [{ code: 131051 }] }, 'unsupported', { rawType: 'unsupported' }],
  ];

  it.each(cases)('stores a %s message with its content in the documented shape', async (_name, message, type, content) => {
    // Prepare
    const phone = newRecipient();
    // Act
    const { chatmid } = await deliver(phone, message);
    // Assess
    const page = await list({ phoneNumber: phone });
    // Media are fetched by the queue's consumer, which no worker runs here: the list shows them pending.
    const listed = ['image', 'video', 'document', 'audio', 'sticker'].includes(type) ? { ...content, mediaStatus: 'pending' } : content;
    expect(page.body.data).toEqual([expect.objectContaining({ chatmid, direction: 'inbound', type, content: listed, status: 'received' })]);
    const status = await callApi(messageStatus, { apiKey: tenant.adminKey, params: { chatmid } });
    expect(status.body.data).toMatchObject({ type, content });
  });
});
