import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTemplatePayload, buildTextPayload, ChatNetworkError, createGraphClient, type GraphClient } from '../../shared/chat/graph-client';
import type { StatusEvent } from '../../shared/chat/webhook-payload';
import { clock } from '../../shared/clock';
import { SANDBOX_CONTROL_HEADER, type SandboxHandle } from '../../scripts/local/sandbox';
import { NUMBER_A, startTestSandbox, startWebhookReceiver, type WebhookReceiver } from './helpers';

const DAY_MS = 24 * 60 * 60 * 1000;

let sandbox: SandboxHandle;
let receiver: WebhookReceiver;
let graph: GraphClient;
/** A fresh recipient per test, so one test's session window never opens another's. */
let nextRecipient = 4915100000000;

function newRecipient(): string {
  nextRecipient += 1;
  return String(nextRecipient);
}

/** The statuses the service acknowledged for one message, in arrival order. */
function statusesOf(chatmid: string): StatusEvent[] {
  return receiver.acceptedEvents().filter((event): event is StatusEvent => event.kind === 'status' && event.chatmid === chatmid);
}

async function sendText(to: string): Promise<string> {
  const result = await graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload(to, 'Hello'));
  await sandbox.idle();
  return result.chatmid;
}

/** A control API call as the operator CLI makes it from another process (with the run's control token unless `token` says otherwise). */
async function control(path: string, body?: unknown, token: string | null = sandbox.controlToken): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json', ...(token === null ? {} : { [SANDBOX_CONTROL_HEADER]: token }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  sandbox = await startTestSandbox({ webhookUrl: `${receiver.url}/webhooks/whatsapp` });
  graph = createGraphClient({ baseUrl: sandbox.graphBaseUrl });
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.respondWith = [];
  receiver.answerDelayMs = 0;
});

afterEach(() => {
  clock.reset();
});

describe('sandbox status webhooks', () => {
  it('posts signed sent then delivered statuses in the Meta shape', async () => {
    // Prepare
    const to = newRecipient();
    await sandbox.deliverInbound({ phoneNumberId: NUMBER_A.phoneNumberId, from: to, text: 'Hi' });

    // Act
    const chatmid = await sendText(to);

    // Assess
    expect(statusesOf(chatmid).map((event) => event.status)).toEqual(['sent', 'delivered']);
    expect(statusesOf(chatmid)[0]).toMatchObject({ phoneNumberId: NUMBER_A.phoneNumberId, recipientId: to });
    expect(receiver.received.every((hook) => hook.validSignature)).toBe(true);
    const delivery = receiver.received.at(-1)!.body as { entry: Array<{ changes: Array<{ value: { statuses: Array<{ timestamp: string }> } }> }> };
    expect(delivery).toMatchObject({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: NUMBER_A.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: NUMBER_A.displayPhoneNumber, phone_number_id: NUMBER_A.phoneNumberId },
                statuses: [{ id: chatmid, status: 'delivered', recipient_id: to }],
              },
            },
          ],
        },
      ],
    });
    expect(delivery.entry[0].changes[0].value.statuses[0].timestamp).toMatch(/^\d+$/);
  });

  it('accepts a free-form message outside the 24-hour window and then fails it with 131047', async () => {
    // Prepare
    const to = newRecipient();

    // Act
    const chatmid = await sendText(to);

    // Assess
    const statuses = statusesOf(chatmid);
    expect(statuses.map((event) => event.status)).toEqual(['failed']);
    expect(statuses[0].error).toMatchObject({ code: 131047, title: 'Re-engagement message' });
  });

  it('delivers free-form messages once an inbound message opened the window', async () => {
    // Prepare
    const to = newRecipient();
    await sandbox.deliverInbound({ phoneNumberId: NUMBER_A.phoneNumberId, from: to, text: 'Hi' });

    // Act
    const chatmid = await sendText(to);

    // Assess
    expect(receiver.acceptedEvents().filter((event) => event.kind === 'status' && event.status === 'failed')).toEqual([]);
    expect(statusesOf(chatmid).map((event) => event.status)).toEqual(['sent', 'delivered']);
  });

  it('closes the window 24 hours after the last inbound message, by the injectable clock', async () => {
    // Prepare
    const to = newRecipient();
    await sandbox.deliverInbound({ phoneNumberId: NUMBER_A.phoneNumberId, from: to, text: 'Hi' });
    clock.shift(DAY_MS + 1000);

    // Act
    const chatmid = await sendText(to);

    // Assess
    expect(statusesOf(chatmid).map((event) => [event.status, event.error?.code])).toEqual([['failed', 131047]]);
  });

  it('delivers templates outside the window', async () => {
    // Prepare
    const payload = buildTemplatePayload(newRecipient(), { name: 'order_update', languageCode: 'en', bodyVariables: ['Ann', '42'] });

    // Act
    const { chatmid } = await graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, payload);
    await sandbox.idle();

    // Assess
    expect(statusesOf(chatmid).map((event) => event.status)).toEqual(['sent', 'delivered']);
  });

  it.each([
    ['a newline', 'Line\nbreak'],
    ['a carriage return', 'Line\rbreak'],
    ['a tab', 'Tab\there'],
    ['five consecutive spaces', 'five     spaces'],
  ])('refuses a template text parameter with %s with error 132018, as the Cloud API does', async (_case, value) => {
    // Prepare
    const payload = buildTemplatePayload(newRecipient(), { name: 'order_update', languageCode: 'en', bodyVariables: [value, '42'] });
    const fine = buildTemplatePayload(newRecipient(), { name: 'order_update', languageCode: 'en', bodyVariables: ['four    spaces', '42'] });
    // Act
    const refused = await graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, payload).catch((error: unknown) => error);
    const accepted = await graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, fine);
    // Assess
    expect(refused).toBeInstanceOf(ChatNetworkError);
    expect(refused).toMatchObject({ httpStatus: 400, metaCode: 132018 });
    expect(accepted.chatmid).toMatch(/^wamid\./);
  });

  it.each([
    ['an empty', ['', '42']],
    ['a whitespace-only', ['Bo', ' \u00a0 ']],
  ])('refuses %s template text parameter with error 131008, as the Cloud API does', async (_case, bodyVariables) => {
    // Prepare
    const payload = buildTemplatePayload(newRecipient(), { name: 'order_update', languageCode: 'en', bodyVariables });
    // Act
    const refused = await graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, payload).catch((error: unknown) => error);
    // Assess
    expect(refused).toBeInstanceOf(ChatNetworkError);
    expect(refused).toMatchObject({ httpStatus: 400, metaCode: 131008 });
  });

  it('fails every message to a number marked by failNumber with its code', async () => {
    // Prepare
    const to = newRecipient();
    sandbox.failNumber(`+${to}`, 131026);
    const payload = buildTemplatePayload(to, { name: 'hello_world', languageCode: 'en_US', bodyVariables: [] });

    // Act
    const { chatmid } = await graph.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, payload);
    await sandbox.idle();

    // Assess
    expect(statusesOf(chatmid).map((event) => [event.status, event.error?.code])).toEqual([['failed', 131026]]);
  });

  it('retries a delivery the service did not acknowledge', async () => {
    // Prepare
    const to = newRecipient();
    await sandbox.deliverInbound({ phoneNumberId: NUMBER_A.phoneNumberId, from: to, text: 'Hi' });
    receiver.received.length = 0;
    receiver.respondWith = [500, 503];

    // Act
    const chatmid = await sendText(to);

    // Assess
    expect(receiver.received.map((hook) => hook.answeredWith)).toEqual([500, 503, 200, 200]);
    expect(statusesOf(chatmid).map((event) => event.status)).toEqual(['sent', 'delivered']);
  });

  it('keeps the window of the canonical wa_id for Brazilian numbers written with or without the 9', async () => {
    // Prepare
    await sandbox.deliverInbound({ phoneNumberId: NUMBER_A.phoneNumberId, from: '5521912345678', text: 'Oi' });

    // Act
    const chatmid = await sendText('552112345678');

    // Assess
    const inbound = receiver.acceptedEvents().find((event) => event.kind === 'inbound');
    expect(inbound).toMatchObject({ from: '552112345678', waId: '552112345678' });
    expect(statusesOf(chatmid).map((event) => event.status)).toEqual(['sent', 'delivered']);
  });
});

describe('sandbox inbound messages', () => {
  it('posts a signed inbound message with the sender profile and returns its wamid', async () => {
    // Act
    const { chatmid } = await sandbox.deliverInbound({
      phoneNumberId: NUMBER_A.phoneNumberId,
      from: '+4915199999999',
      text: 'Hello there',
      profileName: 'Ann',
    });

    // Assess
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].validSignature).toBe(true);
    expect(receiver.received[0].events).toEqual([
      expect.objectContaining({ kind: 'inbound', chatmid, from: '4915199999999', profileName: 'Ann', type: 'text', text: 'Hello there' }),
    ]);
  });

  it('answers the control API only after the webhook answered 200', async () => {
    // Prepare
    receiver.answerDelayMs = 100;

    // Act
    const response = await control('inbound', { phoneNumberId: NUMBER_A.phoneNumberId, from: newRecipient(), text: 'Hi' });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.chatmid).toMatch(/^wamid\./);
    expect(receiver.received.map((hook) => hook.events[0]?.chatmid)).toEqual([response.body.chatmid]);
  });

  it("answers 502 with the webhook's status when the service keeps refusing", async () => {
    // Prepare
    receiver.respondWith = [403, 403, 403];

    // Act
    const response = await control('inbound', { phoneNumberId: NUMBER_A.phoneNumberId, from: newRecipient(), text: 'Hi' });

    // Assess
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ webhookStatus: 403 });
    expect(receiver.received).toHaveLength(3);
  });

  it('refuses an inbound message for an unknown number or without text', async () => {
    // Act
    const unknown = await control('inbound', { phoneNumberId: '999', from: newRecipient(), text: 'Hi' });
    const noText = await control('inbound', { phoneNumberId: NUMBER_A.phoneNumberId, from: newRecipient() });

    // Assess
    expect(unknown.status).toBe(404);
    expect(noText.status).toBe(400);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('sandbox control API', () => {
  it('registers numbers, marks failing numbers, injects faults and lists sends', async () => {
    // Prepare
    const number = { phoneNumberId: '100000000000009', wabaId: '200000000000009', accessToken: 'token-9', displayPhoneNumber: '15550000009' };
    const to = newRecipient();

    // Act
    const registered = await control('phone-numbers', number);
    const marked = await control('fail-number', { to, code: 131026 });
    const faulted = await control('fault', { kind: 'meta_error', code: 131000, path: 'messages' });
    const refused = await graph.sendMessage(number.phoneNumberId, number.accessToken, buildTextPayload(to, 'x')).catch((error) => error);
    const accepted = await graph.sendMessage(number.phoneNumberId, number.accessToken, buildTextPayload(to, 'x'));
    await sandbox.idle();
    const sent = await control('sent');

    // Assess
    expect([registered.status, marked.status, faulted.status]).toEqual([200, 200, 200]);
    expect(refused).toMatchObject({ outcome: 'rejected', metaCode: 131000 });
    expect(sent.body).toContainEqual(
      expect.objectContaining({ phoneNumberId: number.phoneNumberId, chatmid: accepted.chatmid, body: expect.objectContaining({ to }) }),
    );
    expect(statusesOf(accepted.chatmid).map((event) => event.error?.code)).toEqual([131026]);
  });

  it('refuses every control call without the run’s token, as a tenant’s webhook to loopback would make it', async () => {
    // Prepare: what an integrator's webhook subscription at the control URL would post
    const to = newRecipient();

    // Act
    const faultWithout = await control('fault', { kind: '5xx', count: 100 }, null);
    const failWithWrong = await control('fail-number', { to, code: 131026 }, 'guessed');
    const sentWithout = await control('sent', undefined, null);
    const accepted = await graph.sendMessage(
      NUMBER_A.phoneNumberId,
      NUMBER_A.accessToken,
      buildTemplatePayload(to, { name: 'hello_world', languageCode: 'en_US', bodyVariables: [] }),
    );
    await sandbox.idle();

    // Assess: refused, and nothing injected: the send went through and was reported delivered without error
    expect([faultWithout.status, failWithWrong.status, sentWithout.status]).toEqual([403, 403, 403]);
    expect(faultWithout.body.error).toContain(SANDBOX_CONTROL_HEADER);
    expect(statusesOf(accepted.chatmid).map((event) => [event.status, event.error])).toEqual([
      ['sent', undefined],
      ['delivered', undefined],
    ]);
  });

  it('refuses malformed control calls', async () => {
    // Act
    const badFault = await control('fault', { kind: 'explode' });
    const badNumber = await control('phone-numbers', { phoneNumberId: '1' });
    const unknown = await control('nothing', {});

    // Assess
    expect(badFault.status).toBe(400);
    expect(badNumber.status).toBe(400);
    expect(unknown.status).toBe(404);
  });
});

describe('sandbox lifecycle', () => {
  it('closes promptly while a request hangs on an injected timeout', async () => {
    // Prepare
    const own = await startTestSandbox();
    own.injectFault({ kind: 'timeout' });
    const slowClient = createGraphClient({ baseUrl: own.graphBaseUrl, timeoutMs: 30_000 });
    const hanging = slowClient.sendMessage(NUMBER_A.phoneNumberId, NUMBER_A.accessToken, buildTextPayload('4915112345678', 'x')).catch((error) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Act
    const started = Date.now();
    await own.close();

    // Assess
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await hanging).toMatchObject({ outcome: 'unknown' });
  });

  it('serves the Graph API under the configured version only', async () => {
    // Act
    const response = await fetch(`${sandbox.url}/v1.0/${NUMBER_A.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${NUMBER_A.accessToken}` },
      body: '{}',
    });

    // Assess
    expect(sandbox.graphBaseUrl).toBe(`${sandbox.url}/v21.0`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 100 } });
  });
});
