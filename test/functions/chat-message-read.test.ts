import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { handler as markRead, response } from '../../functions/chat-message-read';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as messageStatus } from '../../functions/chat-message-status';
import { callApi } from '../support/api';
import { createChatTenant, newRecipient, openWindow, type ChatNetwork, type ChatTenant, useChatTenant } from '../support/chat';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

const read = (params: Record<string, unknown>, apiKey = tenant.adminKey, method: 'GET' | 'POST' = 'POST') => callApi(markRead, { apiKey, method, params });
const readsOf = (chatmid: string) => network.sandbox.reads.filter((mark) => mark.chatmid === chatmid);

describe('chat/message/read', () => {
  it('marks an inbound message read on the chat network, with the typing indicator when asked, and chat/message/status shows when', async () => {
    // Prepare
    const inbound = await openWindow(network, tenant.channels[0], newRecipient(), 'Is my order on its way?');
    // Act
    const answer = await read({ chatmid: inbound, typingIndicator: true });
    const again = await read({ chatmid: inbound, typingIndicator: 'false' }, tenant.adminKey, 'GET');
    const status = await callApi(messageStatus, { apiKey: tenant.adminKey, params: { chatmid: inbound } });
    // Assess
    expect(answer.status).toBe(200);
    expect(v.is(response.data, answer.body.data)).toBe(true);
    expect(answer.body.data).toMatchObject({ chatmid: inbound, status: 'read', typingIndicator: true });
    expect(again.body.data).toMatchObject({ typingIndicator: false, readAt: answer.body.data.readAt });
    expect(readsOf(inbound).map((mark) => mark.typingIndicator)).toEqual([true, false]);
    expect(status.body.data).toMatchObject({ direction: 'inbound', readAt: answer.body.data.readAt });
  });

  it('refuses an outbound message with 400, before the chat network', async () => {
    // Prepare
    const to = newRecipient();
    await openWindow(network, tenant.channels[0], to);
    const sent = await callApi(sendMessage, { apiKey: tenant.adminKey, method: 'POST', params: { to, body: 'Hello' } });
    // Act
    const answer = await read({ chatmid: sent.body.data.chatmid });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_parameter', details: { parameter: 'chatmid' } });
    expect(readsOf(sent.body.data.chatmid)).toEqual([]);
  });

  it("answers an unknown chatmid and another workspace's message with the same 403, marking nothing", async () => {
    // Prepare
    const other = await createChatTenant(network);
    const inbound = await openWindow(network, tenant.channels[0], newRecipient());
    // Act
    const unknown = await read({ chatmid: 'wamid.unknown' });
    const foreign = await read({ chatmid: inbound }, other.adminKey);
    // Assess
    for (const refused of [unknown, foreign]) {
      expect(refused.status).toBe(403);
      expect(refused.body.details.parameter).toBe('chatmid');
    }
    expect(unknown.body.message).toBe(foreign.body.message);
    expect(readsOf(inbound)).toEqual([]);
  });

  it('refuses a missing chatmid and a typingIndicator that is no boolean with 400 naming them', async () => {
    // Act
    const missing = await read({});
    const badTyping = await read({ chatmid: 'wamid.x', typingIndicator: 'maybe' });
    // Assess
    expect([missing.status, missing.body.error, missing.body.details.parameter]).toEqual([400, 'missing_parameter', 'chatmid']);
    expect([badTyping.status, badTyping.body.details.parameter]).toEqual([400, 'typingIndicator']);
  });
});
