import { describe, expect, it } from 'vitest';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { clock } from '../../shared/clock';
import { getConversation } from '../../shared/data/conversations';
import { callApi } from '../support/api';
import { newRecipient, openWindow, outboundMessagesTo, sendRequests, type ChatNetwork, type ChatTenant, useChatTenant } from '../support/chat';
import { injectFaults, serviceError } from '../support/faults';

const DAY_MS = 24 * 60 * 60 * 1000;

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

const template = (params: Record<string, unknown>) => callApi(sendTemplate, { apiKey: tenant.adminKey, params });
const text = (params: Record<string, unknown>) => callApi(sendMessage, { apiKey: tenant.adminKey, params });

/** Messages the sandbox accepted for one recipient of the test channel. */
const acceptedTo = (to: string) =>
  network.sandbox.sent.filter((sent) => sent.phoneNumberId === tenant.channels[0].phoneNumberId && (sent.body as { to: string }).to === to);

const outboundTo = (phone: string) => outboundMessagesTo(tenant, phone);

describe('apiReference: nothing lost, nothing twice', () => {
  it('answers a repeated send with the first answer and sends nothing again, whatever the parameter form', async () => {
    // Prepare
    const to = newRecipient();
    const first = await template({ to, templateName: 'order_update', variables: 'Ann,123', apiReference: 'order-123' });
    // Act
    const again = await template({ to: `+${to}`, templateName: 'order_update', body1: 'Ann', body2: '123', apiReference: 'order-123' });
    // Assess
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.body.message).toContain('nothing sent again');
    expect(acceptedTo(to)).toHaveLength(1);
    expect(await outboundTo(to)).toHaveLength(1);
  });

  it('answers 409 conflict when the reference was used with other parameters for the same recipient', async () => {
    // Prepare
    const to = newRecipient();
    await template({ to, templateName: 'order_update', variables: 'Ann,123', apiReference: 'order-124' });
    // Act
    const other = await template({ to, templateName: 'order_update', variables: 'Ann,999', apiReference: 'order-124' });
    // Assess
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: 'conflict', details: { parameter: 'apiReference' } });
    expect(other.body.message).toContain('already used');
    expect(acceptedTo(to)).toHaveLength(1);
  });

  it('treats the same reference for another recipient as a different send', async () => {
    // Prepare
    const [a, b] = [newRecipient(), newRecipient()];
    // Act
    const toA = await template({ to: a, templateName: 'hello_world', apiReference: 'campaign-7' });
    const toB = await template({ to: b, templateName: 'hello_world', apiReference: 'campaign-7' });
    // Assess
    expect(toA.status).toBe(200);
    expect(toB.status).toBe(200);
    expect(toB.body.data.chatmid).not.toBe(toA.body.data.chatmid);
    expect(acceptedTo(a)).toHaveLength(1);
    expect(acceptedTo(b)).toHaveLength(1);
  });

  it('sends exactly once when N identical requests arrive at the same time', async () => {
    // Prepare
    const to = newRecipient();
    const params = { to, templateName: 'order_update', variables: 'Bo,77', apiReference: 'burst-1' };
    // Act
    const answers = await Promise.all(Array.from({ length: 8 }, () => template(params)));
    // Assess
    expect(acceptedTo(to)).toHaveLength(1);
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.body.data.chatmid)).size).toBe(1);
    expect(await outboundTo(to)).toHaveLength(1);
  });

  it('sends exactly once when concurrent duplicates carry different parameters (one wins, the others get 409)', async () => {
    // Prepare
    const to = newRecipient();
    // Act
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => template({ to, templateName: 'order_update', variables: `Bo,${i}`, apiReference: 'burst-2' })),
    );
    // Assess
    expect(acceptedTo(to)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(5);
  });

  it('keeps a reference for 24 hours, then lets it send again', async () => {
    // Prepare
    const to = newRecipient();
    const first = await template({ to, templateName: 'hello_world', apiReference: 'daily' });
    // Act
    clock.shift(DAY_MS - 5_000);
    const within = await template({ to, templateName: 'hello_world', apiReference: 'daily' });
    clock.shift(10_000);
    const after = await template({ to, templateName: 'hello_world', apiReference: 'daily' });
    // Assess
    expect(within.body.data.chatmid).toBe(first.body.data.chatmid);
    expect(after.status).toBe(200);
    expect(after.body.data.chatmid).not.toBe(first.body.data.chatmid);
    expect(acceptedTo(to)).toHaveLength(2);
  });

  it('replays the first answer even after the session window has closed', async () => {
    // Prepare: the window opens in one second, the send happens two seconds later
    const start = Math.floor(Date.now() / 1000) * 1000 + 500;
    clock.freeze(start);
    const to = newRecipient();
    await openWindow(network, tenant.channels[0], to);
    clock.freeze(start + 2_000);
    const first = await text({ to, body: 'Hi', apiReference: 'late-replay' });
    const { lastInboundAt } = (await getConversation({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, to))!;
    // Act
    clock.freeze(lastInboundAt! + DAY_MS + 1_000);
    const replay = await text({ to, body: 'Hi', apiReference: 'late-replay' });
    const fresh = await text({ to, body: 'Hi', apiReference: 'late-new' });
    // Assess
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual(first.body.data);
    expect(fresh.body.error).toBe('outside_session_window');
  });

  it('releases the reference when nothing was sent (outside the window), so it works once the window opens', async () => {
    // Prepare
    const to = newRecipient();
    const refused = await text({ to, body: 'Hello', apiReference: 'welcome' });
    await openWindow(network, tenant.channels[0], to);
    // Act
    const sent = await text({ to, body: 'Hello', apiReference: 'welcome' });
    // Assess
    expect(refused.body.error).toBe('outside_session_window');
    expect(sent.status).toBe(200);
    expect(acceptedTo(to)).toHaveLength(1);
  });

  it('releases the reference when the chat network refused the send, so a retry sends', async () => {
    // Prepare
    const to = newRecipient();
    network.sandbox.injectFault({ kind: 'meta_error', code: 131026, path: 'messages' });
    const refused = await template({ to, templateName: 'hello_world', apiReference: 'retry-me' });
    // Act
    const retried = await template({ to, templateName: 'hello_world', apiReference: 'retry-me' });
    // Assess
    expect(refused.status).toBe(400);
    expect(retried.status).toBe(200);
    expect(acceptedTo(to)).toHaveLength(1);
    expect((await outboundTo(to)).map((message) => message.sendState).sort()).toEqual(['accepted', 'failed']);
  });

  it('never resends after an unknown outcome: a replay answers the same 502', async () => {
    // Prepare
    const to = newRecipient();
    network.sandbox.injectFault({ kind: '5xx', path: 'messages' });
    const first = await template({ to, templateName: 'hello_world', apiReference: 'maybe-sent' });
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    const replay = await template({ to, templateName: 'hello_world', apiReference: 'maybe-sent' });
    // Assess
    expect(first.status).toBe(502);
    expect(replay.status).toBe(502);
    expect(replay.body).toEqual(first.body);
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
  });

  it('leaves a record that says so when the service dies between the send and recording its outcome', async () => {
    // Prepare: the outcome write fails once, as if the function had crashed after the chat network accepted the message
    const to = newRecipient();
    let failed = false;
    const fault = injectFaults((command, input) => {
      const json = JSON.stringify(input);
      if (failed || command !== 'UpdateItemCommand' || !json.includes('SET #sendState = ') || !json.includes('"accepted"')) return undefined;
      failed = true;
      return serviceError('ValidationException');
    });
    const crashed = await template({ to, templateName: 'hello_world', apiReference: 'crash-1' }).finally(() => fault.remove());
    const before = sendRequests(network, tenant.channels[0]);
    // Act
    clock.shift(60_000);
    const replay = await template({ to, templateName: 'hello_world', apiReference: 'crash-1' });
    // Assess
    expect(crashed.status).toBe(500);
    expect(acceptedTo(to)).toHaveLength(1);
    expect(await outboundTo(to)).toEqual([expect.objectContaining({ sendState: 'pending', apiReference: 'crash-1' })]);
    expect(replay.status).toBe(502);
    expect(replay.body).toMatchObject({ error: 'chat_network_error', details: { outcome: 'unknown' } });
    expect(sendRequests(network, tenant.channels[0])).toBe(before);
  });
});
