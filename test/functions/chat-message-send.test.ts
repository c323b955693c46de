import { describe, expect, it } from 'vitest';
import { handler as uploadMedia } from '../../functions/chat-media-upload';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as listMessages } from '../../functions/chat-messages-list';
import { handler as messageStatus } from '../../functions/chat-message-status';
import { handler as listContacts } from '../../functions/contacts-list';
import { clock } from '../../shared/clock';
import { getConversation } from '../../shared/data/conversations';
import { getMessage } from '../../shared/data/messages';
import { OUTCOME_MARGIN_MS } from '../../shared/outbound/deadline';
import type { SandboxFault } from '../../scripts/local/sandbox-types';
import { closedPortUrl } from '../chat/helpers';
import { callApi } from '../support/api';
import {
  createChatTenant,
  newRecipient,
  openWindow,
  outboundMessagesTo,
  sendRequests,
  sentBodies,
  type ChatNetwork,
  type ChatTenant,
  useChatTenant,
} from '../support/chat';

const DAY_MS = 24 * 60 * 60 * 1000;

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

const send = (params: Record<string, unknown>, method: 'GET' | 'POST' = 'POST') => callApi(sendMessage, { apiKey: tenant.adminKey, method, params });

const messagesTo = (phone: string) => outboundMessagesTo(tenant, phone);

/** Uploads a few bytes of `mimeType` with chat/media/upload (as `apiKey`'s channel) and answers the media id. */
async function uploaded(mimeType: string, apiKey = tenant.adminKey): Promise<string> {
  const answer = await callApi(uploadMedia, { apiKey, method: 'POST', params: { mimeType, data: Buffer.from(`bytes of ${mimeType}`).toString('base64') } });
  expect(answer.status).toBe(200);
  return answer.body.data.mediaId as string;
}

/** A new recipient whose session window is open, and the channel's send requests so far; then `fault`, if given, is injected into the next send. */
async function recipientInWindow(fault?: SandboxFault): Promise<{ to: string; before: number }> {
  const to = newRecipient();
  await openWindow(network, tenant.channels[0], to);
  const before = sendRequests(network, tenant.channels[0]);
  if (fault) network.sandbox.injectFault(fault);
  return { to, before };
}

describe('chat/message/send and the 24-hour session window', () => {
  it('refuses a text outside the window with 400 outside_session_window, before calling the chat network', async () => {
    // Prepare
    const to = newRecipient();
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const response = await send({ to, body: 'Hello' });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: 'outside_session_window', details: { parameter: 'to', lastInboundAt: null } });
    expect(response.body.message).toContain('chat/templates/send');
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
    expect(await messagesTo(to)).toEqual([]);
  });

  it('opens the window with an inbound webhook, sends a text, sees it delivered, and closes the window 24 hours later', async () => {
    // Prepare
    const { to } = await recipientInWindow();
    // Act
    const sent = await send({ to: `+${to}`, body: 'Thanks for writing', apiReference: 'ticket-1' }, 'GET');
    await network.sandbox.idle();
    const status = await callApi(messageStatus, { apiKey: tenant.adminKey, params: { chatmid: sent.body.data.chatmid } });
    clock.shift(DAY_MS + 60_000);
    const late = await send({ to, body: 'Still there?' });
    // Assess
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ chatmid: expect.stringMatching(/^wamid\./), status: 'accepted', to, type: 'text', apiReference: 'ticket-1' });
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'text',
      text: { body: 'Thanks for writing' },
    });
    expect(status.body.data).toMatchObject({
      status: 'delivered',
      direction: 'outbound',
      type: 'text',
      content: { body: 'Thanks for writing' },
      readAt: null,
      error: null,
    });
    expect(Date.parse(status.body.data.deliveredAt)).toBeGreaterThanOrEqual(Date.parse(status.body.data.timestamp) - 1000);
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('outside_session_window');
    expect(late.body.details.lastInboundAt).toEqual(expect.any(String));
  });

  it('keeps the window open until exactly 24 hours after the inbound message', async () => {
    // Prepare
    const { to } = await recipientInWindow();
    const conversation = await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, to);
    // Act
    clock.freeze(conversation!.lastInboundAt! + DAY_MS);
    const atEdge = await send({ to, body: 'edge' });
    clock.freeze(conversation!.lastInboundAt! + DAY_MS + 1);
    const past = await send({ to, body: 'past' });
    // Assess
    expect(atEdge.status).toBe(200);
    expect(past.status).toBe(400);
    expect(past.body.error).toBe('outside_session_window');
  });

  it('creates the contact and the conversation, and records the message with content and apiReference before answering', async () => {
    // Prepare
    const { to } = await recipientInWindow();
    // Act
    const response = await send({ to, body: 'Recorded', apiReference: 'ref-rec' });
    // Assess
    const [message] = await messagesTo(to);
    expect(message).toMatchObject({
      sendState: 'accepted',
      chatmid: response.body.data.chatmid,
      type: 'text',
      content: { body: 'Recorded' },
      apiReference: 'ref-rec',
      waId: to,
    });
    const conversation = await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, to);
    expect(message.conversationId).toBe(conversation!.id);
    const contacts = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: to } });
    expect(contacts.body.data).toEqual([expect.objectContaining({ id: message.contactId, phone: to })]);
  });

  it.each([
    ['image', { type: 'image', url: 'https://example.com/a.jpg', caption: 'Look' }, { image: { link: 'https://example.com/a.jpg', caption: 'Look' } }],
    ['video', { type: 'video', url: 'https://example.com/a.mp4' }, { video: { link: 'https://example.com/a.mp4' } }],
    [
      'document',
      { type: 'document', url: 'https://example.com/a.pdf', caption: 'Invoice', filename: 'invoice.pdf' },
      { document: { link: 'https://example.com/a.pdf', caption: 'Invoice', filename: 'invoice.pdf' } },
    ],
    ['audio', { type: 'audio', url: 'https://example.com/a.ogg' }, { audio: { link: 'https://example.com/a.ogg' } }],
  ])('sends a %s message in the Cloud API body format', async (type, params, media) => {
    // Prepare
    const { to } = await recipientInWindow();
    // Act
    const response = await send({ to, ...params });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ to, type });
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to, type, ...media });
  });

  it.each([
    ['image', 'image/jpeg', { caption: 'Look' }, { caption: 'Look' }],
    ['video', 'video/mp4', {}, {}],
    ['document', 'application/pdf', { caption: 'Invoice', filename: 'invoice.pdf' }, { caption: 'Invoice', filename: 'invoice.pdf' }],
    ['audio', 'audio/ogg', {}, {}],
    ['sticker', 'image/webp', {}, {}],
  ])(
    'sends a %s message by the mediaId chat/media/upload answered, in the Cloud API body format (id in place of link)',
    async (type, mimeType, params, extra) => {
      // Prepare
      const { to } = await recipientInWindow();
      const mediaId = await uploaded(mimeType);
      // Act
      const response = await send({ to, type, mediaId, ...params });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ to, type });
      expect(sentBodies(network, tenant.channels[0]).at(-1)).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type,
        [type]: { id: mediaId, ...extra },
      });
      const listed = await callApi(listMessages, { apiKey: tenant.adminKey, params: { phoneNumber: to } });
      expect(listed.body.data[0]).toMatchObject({ direction: 'outbound', type, content: { mediaId, ...params } });
      expect(listed.body.data[0].content).not.toHaveProperty('url');
    },
  );

  it.each([
    ['both url and mediaId', { url: 'https://example.com/a.jpg', mediaId: '1037543291543636' }, 'invalid_parameter', 'mediaId'],
    ['a mediaId that is not a media id', { mediaId: '../photo.jpg' }, 'invalid_parameter', 'mediaId'],
    ['a mediaId on a text message', { type: 'text', body: 'x', mediaId: '1037543291543636' }, 'invalid_parameter', 'mediaId'],
    ['a caption on a sticker', { type: 'sticker', mediaId: '1037543291543636', caption: 'x' }, 'invalid_parameter', 'caption'],
  ])('refuses %s with a 400 naming the parameter, before the chat network', async (_case, params, error, parameter) => {
    // Prepare
    const { to, before } = await recipientInWindow();
    // Act
    const response = await send({ to, type: 'image', ...params });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error, details: { parameter } });
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
    expect(await messagesTo(to)).toEqual([]);
  });

  it("refuses a mediaId the channel's number does not hold (never uploaded, or uploaded to another channel) as the chat network does: 400 unknown_media_id naming mediaId", async () => {
    // Prepare
    const other = await createChatTenant(network);
    const elsewhere = await uploaded('image/jpeg', other.adminKey);
    const { to } = await recipientInWindow();
    // Act
    const never = await send({ to, type: 'image', mediaId: '1037543291543636' });
    const foreign = await send({ to, type: 'image', mediaId: elsewhere });
    // Assess
    for (const response of [never, foreign]) {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'unknown_media_id', details: { parameter: 'mediaId' } });
      expect(response.body.message).toContain('chat/media/upload');
    }
    expect((await messagesTo(to)).map((message) => message.error?.code)).toEqual([100, 100]);
  });

  it.each([
    ['no recipient', { to: undefined, body: 'x' }, 'missing_parameter', 'to'],
    ['a number without country code', { to: '4155550100', body: 'x' }, 'invalid_parameter', 'to'],
    ['a text without body', {}, 'missing_parameter', 'body'],
    ['a body over 4096 characters', { body: 'x'.repeat(4097) }, 'invalid_parameter', 'body'],
    ['an unknown type', { type: 'contacts', url: 'https://example.com/s.webp' }, 'invalid_parameter', 'type'],
    ['media without url or mediaId', { type: 'image' }, 'missing_parameter', 'url'],
    ['a non-http url', { type: 'image', url: 'file:///etc/passwd' }, 'invalid_parameter', 'url'],
    ['a caption on audio', { type: 'audio', url: 'https://example.com/a.ogg', caption: 'x' }, 'invalid_parameter', 'caption'],
    ['a filename on an image', { type: 'image', url: 'https://example.com/a.jpg', filename: 'a.jpg' }, 'invalid_parameter', 'filename'],
    ['a body on a media message', { type: 'image', url: 'https://example.com/a.jpg', body: 'x' }, 'invalid_parameter', 'body'],
    ['a url on a text message', { body: 'x', url: 'https://example.com/a.jpg' }, 'invalid_parameter', 'url'],
  ])('refuses %s with a 400 naming the parameter', async (_case, params, error, parameter) => {
    // Prepare
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const response = await send({ to: newRecipient(), ...params });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error, details: { parameter } });
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
  });

  it('accepts a body of exactly 4096 characters', async () => {
    // Prepare
    const { to } = await recipientInWindow();
    // Act
    const response = await send({ to, body: 'y'.repeat(4096) });
    // Assess
    expect(response.status).toBe(200);
  });
});

describe('chat/message/send when the chat network fails', () => {
  it('answers 502 on a 5xx, never resends, and records the message as unknown with the reason', async () => {
    // Prepare
    const { to, before } = await recipientInWindow({ kind: '5xx', path: 'messages' });
    // Act
    const response = await send({ to, body: 'Maybe' });
    // Assess
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error: 'chat_network_error', details: { outcome: 'unknown', messageId: expect.stringMatching(/^msg_/) } });
    expect(sendRequests(network, tenant.channels[0])).toBe(before + 1);
    const message = await getMessage({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, response.body.details.messageId);
    expect(message).toMatchObject({ sendState: 'unknown', error: { code: 131000 } });
    const conversation = await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, to);
    expect([...conversation!.unsettledMessageIds!]).toContain(message!.id);
  });

  it('answers 502 after a timeout without resending', async () => {
    // Prepare
    const { to, before } = await recipientInWindow({ kind: 'timeout', path: 'messages' });
    // Act
    const response = await send({ to, body: 'Slow' });
    // Assess
    expect(response.status).toBe(502);
    expect(response.body.details.outcome).toBe('unknown');
    expect(sendRequests(network, tenant.channels[0])).toBe(before + 1);
    expect(await getMessage({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, response.body.details.messageId)).toMatchObject({
      sendState: 'unknown',
    });
  });

  it('maps a refusal (131026) to 400 and records the message as failed with the error', async () => {
    // Prepare
    const { to } = await recipientInWindow({ kind: 'meta_error', code: 131026, path: 'messages' });
    // Act
    const response = await send({ to, body: 'Nope' });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'undeliverable', details: { parameter: 'to' } });
    const [message] = await messagesTo(to);
    expect(message).toMatchObject({ sendState: 'failed', error: { code: 131026 } });
  });

  it('retries a 429 after its Retry-After and sends once', async () => {
    // Prepare
    const { to, before } = await recipientInWindow();
    const sentBefore = sentBodies(network, tenant.channels[0]).length;
    network.sandbox.injectFault({ kind: '429', retryAfterSeconds: 0, path: 'messages' });
    // Act
    const response = await send({ to, body: 'Throttled once' });
    // Assess
    expect(response.status).toBe(200);
    expect(sendRequests(network, tenant.channels[0])).toBe(before + 2);
    expect(sentBodies(network, tenant.channels[0])).toHaveLength(sentBefore + 1);
  });

  it('answers 503 with Retry-After when the chat network keeps throttling', async () => {
    // Prepare
    const { to } = await recipientInWindow({ kind: '429', retryAfterSeconds: 0, count: 3, path: 'messages' });
    // Act
    const response = await send({ to, body: 'Throttled' });
    // Assess
    expect(response.status).toBe(503);
    expect(response.body.error).toBe('chat_network_throttled');
    expect(response.headers['Retry-After']).toBeDefined();
    expect((await messagesTo(to))[0]).toMatchObject({ sendState: 'failed', error: { code: 130429 } });
  });

  it('does not wait out a 429 that would outlast the invocation: 503 with Retry-After, the outcome recorded', async () => {
    // Prepare
    const { to, before } = await recipientInWindow({ kind: '429', retryAfterSeconds: 1, path: 'messages' });
    // Act: 2 s left after the margin; a 1 s wait and a whole 1.5 s attempt do not fit.
    const response = await callApi(sendMessage, {
      apiKey: tenant.adminKey,
      method: 'POST',
      params: { to, body: 'Late' },
      remainingTimeMs: OUTCOME_MARGIN_MS + 2_000,
    });
    // Assess
    expect(response.status).toBe(503);
    expect(response.body.error).toBe('chat_network_throttled');
    expect(response.headers['Retry-After']).toBe('1');
    expect(sendRequests(network, tenant.channels[0])).toBe(before + 1);
    expect((await messagesTo(to))[0]).toMatchObject({ sendState: 'failed', error: { code: 130429 } });
  });

  it('does not call the chat network when too little of the invocation is left: 503, nothing sent, recorded failed', async () => {
    // Prepare
    const { to, before } = await recipientInWindow();
    // Act
    const response = await callApi(sendMessage, {
      apiKey: tenant.adminKey,
      method: 'POST',
      params: { to, body: 'Too late', apiReference: 'late-1' },
      remainingTimeMs: OUTCOME_MARGIN_MS + 100,
    });
    const retried = await send({ to, body: 'Too late', apiReference: 'late-1' });
    // Assess
    expect(response.status).toBe(503);
    expect(response.body.error).toBe('chat_network_unavailable');
    expect((await messagesTo(to))[0]).toMatchObject({ sendState: 'failed', error: { code: 'not_sent' } });
    expect(retried.status).toBe(200);
    expect(sendRequests(network, tenant.channels[0])).toBe(before + 1);
  });

  it('answers 503 when the chat network cannot be reached, and records the message as failed', async () => {
    // Prepare
    const { to } = await recipientInWindow();
    const graphBaseUrl = process.env.GRAPH_API_BASE_URL;
    process.env.GRAPH_API_BASE_URL = `${await closedPortUrl()}/v21.0`;
    // Act
    const response = await send({ to, body: 'Nobody home' }).finally(() => {
      process.env.GRAPH_API_BASE_URL = graphBaseUrl;
    });
    // Assess
    expect(response.status).toBe(503);
    expect(response.body.error).toBe('chat_network_unavailable');
    expect((await messagesTo(to))[0]).toMatchObject({ sendState: 'failed', error: { code: 'not_sent' } });
  });

  it('answers 502 when the channel token is refused (190)', async () => {
    // Prepare
    const other = await createChatTenant(network, 1, false);
    const to = newRecipient();
    await openWindow(network, other.channels[0], to);
    network.sandbox.registerPhoneNumber({
      phoneNumberId: other.channels[0].phoneNumberId,
      wabaId: other.channels[0].wabaId!,
      accessToken: 'rotated-elsewhere',
      displayPhoneNumber: '15550000000',
    });
    // Act
    const response = await callApi(sendMessage, { apiKey: other.adminKey, params: { to, body: 'x' } });
    // Assess
    expect(response.status).toBe(502);
    expect(response.body.error).toBe('chat_network_error');
    expect(response.body.message).toContain('access token');
  });
});
