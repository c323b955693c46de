import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin, sandboxInbound, startStack, type RunningStack } from '../support/local-stack';

/**
 * The README's richer-messages walk-through against `npm start`: a customer writes (the
 * CLI's `inbound`), the answer is reply buttons quoting that message, it is marked read
 * with the typing indicator; then a list, a call-to-action URL, a location and a
 * reaction, and chat/messages/list shows them all with the chatmid each quotes.
 */
describe('richer messages end to end (npm start, sandbox chat network, operator CLI)', () => {
  let stack: RunningStack;
  let adminKey: string;
  let channelId: string;
  const to = '+1 415 555 0178';

  beforeAll(async () => {
    stack = await startStack();
    ({ adminKey, channelId } = demoAdmin(stack));
  });
  afterAll(async () => stack?.stop());

  const send = (params: Record<string, unknown>) => stack.call('chat/message/send', { apiKey: adminKey, params: { channelId, to, ...params } });

  it('answers an inbound message with reply buttons quoting it, marks it read, sends each rich type and lists them all', async () => {
    // Prepare: the customer's message as `admin inbound` has it sent (the CLI's own path is messaging e2e's claim)
    const { chatmid: quoted } = await sandboxInbound(stack, channelId, to.replaceAll(' ', ''), 'My parcel arrived broken');
    // Act
    const buttons = await send({
      type: 'interactive',
      replyTo: quoted,
      interactive: {
        type: 'button',
        body: { text: 'Sorry about that! What would you like?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'refund', title: 'Refund' } },
            { type: 'reply', reply: { id: 'replace', title: 'Replacement' } },
          ],
        },
      },
    });
    const read = await stack.call('chat/message/read', { apiKey: adminKey, params: { chatmid: quoted, typingIndicator: true } });
    const list = await send({
      type: 'interactive',
      interactive: { type: 'list', body: { text: 'Pick a pickup slot' }, action: { button: 'Slots', sections: [{ rows: [{ id: 'am', title: 'Morning' }] }] } },
    });
    const cta = await send({
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        body: { text: 'Follow the return' },
        action: { name: 'cta_url', parameters: { display_text: 'Track', url: 'https://example.com/r/1' } },
      },
    });
    const location = await send({ type: 'location', location: { latitude: 52.52, longitude: 13.405, name: 'Drop-off point' } });
    const reaction = await send({ type: 'reaction', reaction: { messageId: quoted, emoji: '🙏' } });
    const tooMany = await send({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Too many' },
        action: { buttons: ['a', 'b', 'c', 'd'].map((id) => ({ type: 'reply', reply: { id, title: id } })) },
      },
    });
    const unknownQuote = await send({ body: 'Hello', replyTo: 'wamid.unknown' });
    const history = await stack.call('chat/messages/list', { apiKey: adminKey, method: 'GET', params: { channelId, phoneNumber: to, limit: 10 } });
    // Assess
    for (const sent of [buttons, list, cta, location, reaction]) expect(sent.status).toBe(200);
    expect(read.body.data).toMatchObject({ chatmid: quoted, status: 'read', typingIndicator: true });
    expect([tooMany.status, tooMany.body.details.parameter]).toEqual([400, 'interactive.action.buttons']);
    expect([unknownQuote.status, unknownQuote.body.details.parameter]).toEqual([404, 'replyTo']);
    const listed = history.body.data as Array<{ type: string; direction: string; content: Record<string, unknown> }>;
    expect(listed.map((message) => [message.direction, message.type])).toEqual([
      ['outbound', 'reaction'],
      ['outbound', 'location'],
      ['outbound', 'interactive'],
      ['outbound', 'interactive'],
      ['outbound', 'interactive'],
      ['inbound', 'text'],
    ]);
    expect(listed[4].content).toMatchObject({ type: 'button', replyTo: quoted });
    expect(listed[0].content).toEqual({ messageId: quoted, emoji: '🙏' });
  });
});
