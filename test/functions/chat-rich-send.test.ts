import { describe, expect, it } from 'vitest';
import { handler as uploadMedia } from '../../functions/chat-media-upload';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as listMessages } from '../../functions/chat-messages-list';
import { INTERACTIVE_LIMITS as L } from '../../shared/chat/payloads';
import { callApi } from '../support/api';
import { newRecipient, openWindow, outboundMessagesTo, sendRequests, sentBodies, type ChatNetwork, type ChatTenant, useChatTenant } from '../support/chat';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

const send = (params: Record<string, unknown>, method: 'GET' | 'POST' = 'POST') => callApi(sendMessage, { apiKey: tenant.adminKey, method, params });
const history = (phoneNumber: string) => callApi(listMessages, { apiKey: tenant.adminKey, params: { phoneNumber } });

/** A new contact who wrote (the window is open), with the chatmid of what they wrote. */
async function contactWhoWrote(): Promise<{ to: string; inbound: string }> {
  const to = newRecipient();
  const inbound = await openWindow(network, tenant.channels[0], to, 'My parcel arrived broken');
  return { to, inbound };
}

const replyButtons = (count: number, title = (i: number) => `Option ${i}`) => ({
  type: 'button',
  body: { text: 'What should we do?' },
  action: { buttons: Array.from({ length: count }, (_, i) => ({ type: 'reply', reply: { id: `opt-${i}`, title: title(i) } })) },
});

const listOf = (rows: number, sections = 1) => ({
  type: 'list',
  body: { text: 'Pick a slot' },
  action: {
    button: 'Slots',
    sections: Array.from({ length: sections }, (_, s) => ({
      title: `Day ${s}`,
      rows: Array.from({ length: rows }, (_, r) => ({ id: `slot-${s}-${r}`, title: `Slot ${r}`, description: 'Morning' })),
    })),
  },
});

const ctaUrl = (displayText = 'Track parcel') => ({
  type: 'cta_url',
  body: { text: 'Follow your parcel' },
  action: { name: 'cta_url', parameters: { display_text: displayText, url: 'https://example.com/track/1' } },
});

describe('chat/message/send: interactive messages', () => {
  it('sends reply buttons quoting the inbound message, in the Cloud API shape, and chat/messages/list shows them with the chatmid quoted', async () => {
    // Prepare
    const { to, inbound } = await contactWhoWrote();
    const interactive = replyButtons(3);
    // Act
    const sent = await send({ to, type: 'interactive', interactive, replyTo: inbound });
    const listed = await history(to);
    // Assess
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ chatmid: expect.stringMatching(/^wamid\./), status: 'accepted', to, type: 'interactive' });
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'interactive',
      interactive,
      context: { message_id: inbound },
    });
    expect(listed.body.data[0]).toMatchObject({
      chatmid: sent.body.data.chatmid,
      direction: 'outbound',
      type: 'interactive',
      content: { ...interactive, replyTo: inbound },
    });
  });

  it.each([
    ['a list of 10 rows in two sections', listOf(5, 2)],
    ['a call-to-action URL', ctaUrl()],
    [
      'reply buttons with an image header and a footer',
      { ...replyButtons(2), header: { type: 'image', image: { link: 'https://example.com/a.jpg' } }, footer: { text: 'Acme' } },
    ],
  ])('sends %s', async (_case, interactive) => {
    // Prepare
    const { to } = await contactWhoWrote();
    // Act
    const sent = await send({ to, type: 'interactive', interactive });
    // Assess
    expect(sent.status).toBe(200);
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toMatchObject({ type: 'interactive', interactive });
  });

  it('takes a media header by the id chat/media/upload answered, and refuses an id the number does not hold or a header with both link and id', async () => {
    // Prepare
    const { to } = await contactWhoWrote();
    const upload = await callApi(uploadMedia, {
      apiKey: tenant.adminKey,
      method: 'POST',
      params: { mimeType: 'image/png', data: Buffer.from('parcel').toString('base64') },
    });
    const withHeader = (image: Record<string, string>) => ({ ...replyButtons(2), header: { type: 'image', image } });
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const sent = await send({ to, type: 'interactive', interactive: withHeader({ id: upload.body.data.mediaId }) });
    const unknown = await send({ to, type: 'interactive', interactive: withHeader({ id: '1037543291543636' }) });
    const both = await send({ to, type: 'interactive', interactive: withHeader({ id: upload.body.data.mediaId, link: 'https://example.com/a.jpg' }) });
    // Assess
    expect(sent.status).toBe(200);
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toMatchObject({
      interactive: { header: { type: 'image', image: { id: upload.body.data.mediaId } } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'unknown_media_id', details: { parameter: 'interactive' } });
    expect(both.status).toBe(400);
    expect(both.body.details.parameter).toMatch(/^interactive\.header/);
    expect(sendRequests(network, tenant.channels[0])).toBe(before + 2);
  });

  it('takes the interactive object as JSON in the query string of a GET', async () => {
    // Prepare
    const { to } = await contactWhoWrote();
    // Act
    const sent = await send({ to, type: 'interactive', interactive: JSON.stringify(ctaUrl()) }, 'GET');
    // Assess
    expect(sent.status).toBe(200);
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toMatchObject({ interactive: ctaUrl() });
  });

  const tooLong = (n: number) => 'x'.repeat(n + 1);
  it.each([
    ['4 reply buttons', replyButtons(4), 'interactive.action.buttons'],
    ['no reply button', replyButtons(0), 'interactive.action.buttons'],
    ['a button title over 20 characters', replyButtons(2, (i) => (i === 1 ? tooLong(L.buttonTitle) : 'Fine')), 'interactive.action.buttons.1.reply.title'],
    ['two buttons with one title', replyButtons(2, () => 'Same'), 'interactive.action.buttons'],
    [
      'two buttons with one id',
      { ...replyButtons(2), action: { buttons: [0, 1].map((i) => ({ type: 'reply', reply: { id: 'same', title: `T${i}` } })) } },
      'interactive.action.buttons',
    ],
    [
      'a button id over 256 characters',
      { ...replyButtons(1), action: { buttons: [{ type: 'reply', reply: { id: tooLong(L.buttonId), title: 'T' } }] } },
      'interactive.action.buttons.0.reply.id',
    ],
    ['a body over 1024 characters', { ...replyButtons(1), body: { text: tooLong(L.buttonBody) } }, 'interactive.body.text'],
    ['a header text over 60 characters', { ...replyButtons(1), header: { type: 'text', text: tooLong(L.headerText) } }, 'interactive.header.text'],
    ['a footer over 60 characters', { ...replyButtons(1), footer: { text: tooLong(L.footer) } }, 'interactive.footer.text'],
    ['a list of 11 rows', listOf(11), 'interactive.action.sections'],
    ['a list of 11 rows in sections', listOf(4, 3), 'interactive.action.sections'],
    ['11 sections', { ...listOf(1, 11) }, 'interactive.action.sections'],
    ['a list button over 20 characters', { ...listOf(1), action: { ...listOf(1).action, button: tooLong(L.listButton) } }, 'interactive.action.button'],
    [
      'a row title over 24 characters',
      { ...listOf(1), action: { button: 'B', sections: [{ rows: [{ id: 'r', title: tooLong(L.rowTitle) }] }] } },
      'interactive.action.sections.0.rows.0.title',
    ],
    [
      'a row description over 72 characters',
      { ...listOf(1), action: { button: 'B', sections: [{ rows: [{ id: 'r', title: 'T', description: tooLong(L.rowDescription) }] }] } },
      'interactive.action.sections.0.rows.0.description',
    ],
    [
      'a row id over 200 characters',
      { ...listOf(1), action: { button: 'B', sections: [{ rows: [{ id: tooLong(L.rowId), title: 'T' }] }] } },
      'interactive.action.sections.0.rows.0.id',
    ],
    [
      'a section title over 24 characters',
      { ...listOf(1), action: { button: 'B', sections: [{ title: tooLong(L.sectionTitle), rows: [{ id: 'r', title: 'T' }] }] } },
      'interactive.action.sections.0.title',
    ],
    [
      'two sections, one without a title',
      { ...listOf(1), action: { button: 'B', sections: [{ title: 'A', rows: [{ id: 'a', title: 'T' }] }, { rows: [{ id: 'b', title: 'T' }] }] } },
      'interactive.action.sections',
    ],
    [
      'two rows with one id',
      {
        ...listOf(1),
        action: {
          button: 'B',
          sections: [
            {
              rows: [
                { id: 'same', title: 'A' },
                { id: 'same', title: 'B' },
              ],
            },
          ],
        },
      },
      'interactive.action.sections',
    ],
    ['a list with a media header', { ...listOf(1), header: { type: 'image', image: { link: 'https://example.com/a.jpg' } } }, 'interactive.header.type'],
    ['a call-to-action display text over 20 characters', ctaUrl(tooLong(L.ctaDisplayText)), 'interactive.action.parameters.display_text'],
    ['a call-to-action without a URL', { ...ctaUrl(), action: { name: 'cta_url', parameters: { display_text: 'Go' } } }, 'interactive.action.parameters.url'],
    ['an unknown interactive type', { ...replyButtons(1), type: 'carousel' }, 'interactive.type'],
  ])('refuses %s with a 400 naming the parameter, before the chat network and writing nothing', async (_case, interactive, parameter) => {
    // Prepare
    const { to } = await contactWhoWrote();
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const response = await send({ to, type: 'interactive', interactive });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.details.parameter).toBe(parameter);
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
    expect(await outboundMessagesTo(tenant, to)).toEqual([]);
  });

  it('refuses type interactive without the interactive object, and an interactive object on a text', async () => {
    // Prepare
    const { to } = await contactWhoWrote();
    // Act
    const missing = await send({ to, type: 'interactive' });
    const foreign = await send({ to, body: 'Hi', interactive: replyButtons(1) });
    const bodyOnInteractive = await send({ to, type: 'interactive', interactive: replyButtons(1), body: 'Hi' });
    // Assess
    expect([missing.status, missing.body.error, missing.body.details.parameter]).toEqual([400, 'missing_parameter', 'interactive']);
    expect([foreign.status, foreign.body.details.parameter]).toEqual([400, 'interactive']);
    expect([bodyOnInteractive.status, bodyOnInteractive.body.details.parameter]).toEqual([400, 'body']);
    expect(await outboundMessagesTo(tenant, to)).toEqual([]);
  });
});

describe('chat/message/send: replyTo, location and reaction', () => {
  it('quotes an outbound message too, and refuses with 404 a chatmid that is unknown or of another contact, writing nothing', async () => {
    // Prepare
    const { to, inbound } = await contactWhoWrote();
    const other = await contactWhoWrote();
    const first = await send({ to, body: 'We are on it' });
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const quotingOwn = await send({ to, body: 'As promised: a refund', replyTo: first.body.data.chatmid });
    const unknown = await send({ to: other.to, body: 'Hello', replyTo: 'wamid.unknown' });
    const otherContacts = await send({ to: other.to, body: 'Hello', replyTo: inbound });
    // Assess
    expect(quotingOwn.status).toBe(200);
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toMatchObject({ context: { message_id: first.body.data.chatmid } });
    for (const refused of [unknown, otherContacts]) {
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ error: 'not_found', details: { parameter: 'replyTo' } });
    }
    expect(sendRequests(network, tenant.channels[0])).toBe(before + 1);
    expect(await outboundMessagesTo(tenant, other.to)).toEqual([]);
  });

  it('sends a location, shown in chat/messages/list as sent', async () => {
    // Prepare
    const { to } = await contactWhoWrote();
    const location = { latitude: 52.52, longitude: 13.405, name: 'Pickup point', address: 'Alexanderplatz 1' };
    // Act
    const sent = await send({ to, type: 'location', location });
    const listed = await history(to);
    // Assess
    expect(sent.status).toBe(200);
    expect(sentBodies(network, tenant.channels[0]).at(-1)).toMatchObject({ type: 'location', location });
    expect(listed.body.data[0]).toMatchObject({ type: 'location', content: location });
  });

  it.each([
    ['a latitude over 90', { latitude: 91, longitude: 0 }, 'location.latitude'],
    ['no longitude', { latitude: 1 }, 'location.longitude'],
  ])('refuses a location with %s', async (_case, location, parameter) => {
    // Prepare
    const { to } = await contactWhoWrote();
    // Act
    const response = await send({ to, type: 'location', location });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.details.parameter).toBe(parameter);
  });

  it('reacts to the inbound message with an emoji and removes the reaction with an empty one', async () => {
    // Prepare
    const { to, inbound } = await contactWhoWrote();
    // Act
    const reacted = await send({ to, type: 'reaction', reaction: { messageId: inbound, emoji: '👍' } });
    const removed = await send({ to, type: 'reaction', reaction: { messageId: inbound, emoji: '' } });
    const listed = await history(to);
    // Assess
    expect([reacted.status, removed.status]).toEqual([200, 200]);
    expect(sentBodies(network, tenant.channels[0]).slice(-2)).toMatchObject([
      { type: 'reaction', reaction: { message_id: inbound, emoji: '👍' } },
      { type: 'reaction', reaction: { message_id: inbound, emoji: '' } },
    ]);
    expect(listed.body.data.slice(0, 2)).toMatchObject([
      { type: 'reaction', content: { messageId: inbound, emoji: '' } },
      { type: 'reaction', content: { messageId: inbound, emoji: '👍' } },
    ]);
  });

  it.each([
    ['two emoji', { emoji: '👍👍' }, 400, 'reaction.emoji'],
    ['a word', { emoji: 'ok' }, 400, 'reaction.emoji'],
    ['an unknown message', { messageId: 'wamid.unknown', emoji: '👍' }, 404, 'reaction.messageId'],
  ])('refuses a reaction with %s, before the chat network', async (_case, change, status, parameter) => {
    // Prepare
    const { to, inbound } = await contactWhoWrote();
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const response = await send({ to, type: 'reaction', reaction: { messageId: inbound, ...change } });
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.details.parameter).toBe(parameter);
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
  });

  it('refuses replyTo on a reaction', async () => {
    // Prepare
    const { to, inbound } = await contactWhoWrote();
    // Act
    const response = await send({ to, type: 'reaction', reaction: { messageId: inbound, emoji: '👍' }, replyTo: inbound });
    // Assess
    expect([response.status, response.body.details.parameter]).toEqual([400, 'replyTo']);
  });
});
