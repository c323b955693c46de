import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { handler as messageStatus } from '../../functions/chat-message-status';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { callApi } from '../support/api';
import { createChatTenant, newRecipient, openWindow, type ChatNetwork, type ChatTenant, useChatTenant } from '../support/chat';
import { injectFaults } from '../support/faults';
import { createTeamKey } from '../support/tenants';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(2, (started, created) => {
  network = started;
  tenant = created;
});

const status = (apiKey: string, chatmid: unknown, method: 'GET' | 'POST' = 'POST') =>
  callApi(messageStatus, { apiKey, method, params: chatmid === undefined ? {} : { chatmid } });

async function sendHello(channelId = tenant.channelIds[0]): Promise<string> {
  const response = await callApi(sendTemplate, {
    apiKey: tenant.adminKey,
    params: { channelId, to: newRecipient(), templateName: 'order_update', variables: 'Ann,42' },
  });
  expect(response.status).toBe(200);
  return response.body.data.chatmid;
}

/** The status once it reads `expected` (a loaded machine may still have the webhook in flight). */
const statusOnce = (chatmid: string, expected: string, method: 'GET' | 'POST' = 'POST') =>
  eventually(async () => {
    const response = await status(tenant.adminKey, chatmid, method);
    return response.body.data?.status === expected ? response : undefined;
  });

describe('chat/message/status', () => {
  it('reports a delivered template message with every field, timestamps as ISO 8601', async () => {
    // Prepare
    const chatmid = await sendHello();
    await network.sandbox.idle();
    // Act
    const response = await statusOnce(chatmid, 'delivered', 'GET');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      chatmid,
      status: 'delivered',
      direction: 'outbound',
      type: 'template',
      content: { templateName: 'order_update', languageCode: 'en', bodyVariables: ['Ann', '42'] },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deliveredAt: expect.stringMatching(/Z$/),
      readAt: null,
      error: null,
    });
    expect(response.headers['RateLimit-Policy']).toContain('"api_read"');
  });

  it('reports an inbound message', async () => {
    // Prepare
    const from = newRecipient();
    const chatmid = await openWindow(network, tenant.channels[0], from, 'Where is my order?');
    // Act
    const response = await status(tenant.adminKey, chatmid);
    // Assess
    expect(response.body.data).toMatchObject({
      chatmid,
      status: 'received',
      direction: 'inbound',
      type: 'text',
      content: { body: 'Where is my order?' },
      deliveredAt: null,
    });
  });

  it('reports a message that failed by webhook with its error', async () => {
    // Prepare
    const to = newRecipient();
    network.sandbox.failNumber(to, 131026);
    const sent = await callApi(sendTemplate, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[0], to, templateName: 'hello_world' } });
    await network.sandbox.idle();
    // Act
    const response = await statusOnce(sent.body.data.chatmid, 'failed');
    // Assess
    expect(response.body.data).toMatchObject({ status: 'failed', error: { code: 131026, message: expect.any(String) } });
  });

  it('answers the same 403 for an unknown chatmid, another workspace’s, and a channel the key may not use', async () => {
    // Prepare
    const chatmid = await sendHello(tenant.channelIds[1]);
    const stranger = await createChatTenant(network, 1, false);
    const team = await createTeamKey({ ...tenant }, [tenant.channelIds[0]]);
    // Act
    const unknown = await status(tenant.adminKey, 'wamid.HBgLMTQxNTU1NTAxMDAVAgARGBI0RkE3');
    const otherWorkspace = await status(stranger.adminKey, chatmid);
    const otherChannel = await status(team.apiKey, chatmid);
    const own = await status(tenant.adminKey, chatmid);
    // Assess
    expect(unknown.status).toBe(403);
    expect(unknown.body).toMatchObject({ success: false, error: 'forbidden', details: { parameter: 'chatmid' } });
    expect(otherWorkspace.status).toBe(403);
    expect(otherWorkspace.body).toEqual(unknown.body);
    expect(otherChannel.status).toBe(403);
    expect(otherChannel.body).toEqual(unknown.body);
    expect(own.status).toBe(200);
  });

  it('needs chatmid', async () => {
    // Act
    const response = await status(tenant.adminKey, undefined);
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'missing_parameter', details: { parameter: 'chatmid' } });
  });

  it('costs exactly one pointer read plus the rate limiter', async () => {
    // Prepare
    const chatmid = await sendHello();
    await network.sandbox.idle();
    await status(tenant.adminKey, chatmid); // warms the authorizer's key cache
    const commands: string[] = [];
    const spy = injectFaults((command, input) => {
      commands.push(`${command} ${JSON.stringify((input as { Key?: unknown }).Key ?? '')}`);
      return undefined;
    });
    // Act
    const response = await status(tenant.adminKey, chatmid).finally(() => spy.remove());
    // Assess
    expect(response.status).toBe(200);
    const handlerCommands = commands.filter((line) => !line.includes('APIKEY#') && !line.includes('USER#'));
    expect(handlerCommands, commands.join('\n')).toHaveLength(2);
    expect(handlerCommands.filter((line) => line.startsWith('GetItemCommand') && line.includes(`CHATMID#${chatmid}`))).toHaveLength(1);
    expect(handlerCommands.filter((line) => line.startsWith('UpdateItemCommand') && line.includes('#RL#'))).toHaveLength(1);
  });
});
