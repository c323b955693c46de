import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from '../../shared/chat/signature';
import { eventually } from '../support/eventually';
import { demoAdmin, startStack, type RunningStack } from '../support/local-stack';

/**
 * The README's messaging walk-through against `npm start`: list templates, send
 * hello_world and order_update, open the window with the CLI's `inbound`, send a
 * text and watch its status reach delivered; plus the webhook's public route.
 */
describe('messaging end to end (npm start, sandbox chat network, operator CLI)', () => {
  let stack: RunningStack;
  let adminKey: string;
  let channelId: string;
  const to = '+1 415 555 0177';

  beforeAll(async () => {
    stack = await startStack();
    ({ adminKey, channelId } = demoAdmin(stack));
  });
  afterAll(async () => stack?.stop());

  it('publishes the sandbox chat network in demo.json', () => {
    // Assess
    expect(stack.demo.chatNetwork.graphBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v21\.0$/);
    expect(stack.demo.chatNetwork.verifyToken).toMatch(/^[0-9a-f]{24}$/);
  });

  it('lists the demo channel’s approved templates, synced at first start', async () => {
    // Act
    const response = await stack.call('chat/templates/list', { apiKey: adminKey, method: 'GET', params: { channelId } });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((template: { name: string }) => template.name)).toEqual(['hello_world', 'order_update', 'promo_image']);
  });

  it('sends templates, opens the window with the CLI, sends a text and sees it delivered', async () => {
    // Act
    const hello = await stack.call('chat/templates/send', { apiKey: adminKey, params: { channelId, to, templateName: 'hello_world' } });
    const order = await stack.call('chat/templates/send', {
      apiKey: adminKey,
      method: 'GET',
      params: { channelId, to, templateName: 'order_update', body1: 'Bo', body2: 'A-1001', apiReference: 'order-A-1001' },
    });
    const closed = await stack.call('chat/message/send', { apiKey: adminKey, params: { channelId, to, body: 'Hello!' } });
    const inbound = await stack.admin('inbound', '--channel', channelId, '--from', to, '--text', 'Where is my order?');
    const text = await stack.call('chat/message/send', { apiKey: adminKey, params: { channelId, to, body: 'It ships today.' } });
    // Delivered once the sandbox's status webhook arrived: waited for, however loaded the machine.
    const status = await eventually(async () => {
      const answer = await stack.call('chat/message/status', { apiKey: adminKey, params: { chatmid: text.body.data.chatmid } });
      return answer.body.data?.status === 'delivered' ? answer : undefined;
    });
    // Assess
    expect(hello.body.data).toMatchObject({ status: 'accepted', to: '14155550177', templateName: 'hello_world', languageCode: 'en_US' });
    expect(order.body.data).toMatchObject({ templateName: 'order_update', languageCode: 'en', apiReference: 'order-A-1001' });
    expect(closed.status).toBe(400);
    expect(closed.body.error).toBe('outside_session_window');
    expect(inbound.code).toBe(0);
    expect(inbound.json).toEqual({ chatmid: expect.stringMatching(/^wamid\./) });
    expect(text.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'delivered', direction: 'outbound', type: 'text', content: { body: 'It ships today.' } });
  });

  it('syncs templates with the CLI and refuses inbound for an unknown channel', async () => {
    // Act
    const synced = await stack.admin('template', 'sync', '--channel', channelId);
    const unknown = await stack.admin('inbound', '--channel', 'ch_nope', '--from', to, '--text', 'hi');
    // Assess
    expect(synced.json).toEqual({ channelId, synced: 4 });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('ch_nope');
  });

  it('serves the webhook publicly: the verification handshake, and 401 for an unsigned delivery', async () => {
    // Prepare
    const { verifyToken, appSecret } = stack.demo.chatNetwork;
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    // Act
    const handshake = await fetch(`${stack.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=4242`);
    const unsigned = await fetch(`${stack.url}/webhooks/whatsapp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const signed = await fetch(`${stack.url}/webhooks/whatsapp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signPayload(body, appSecret) },
      body,
    });
    // Assess
    expect(handshake.status).toBe(200);
    expect(await handshake.text()).toBe('4242');
    expect(unsigned.status).toBe(401);
    expect(signed.status).toBe(200);
  });
});
