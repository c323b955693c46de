import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin, startStack, type RunningStack } from '../support/local-stack';
import { startReceiver, type Receiver } from '../support/receiver';

/**
 * Isolation in the event pipeline against `npm start`'s program (docs/EVENTS.md, "What a
 * failing or busy receiver costs others"): a receiver that hangs holds only its own
 * lane. Its attempts run far longer than any test waits (WEBHOOK_DELIVERY_TIMEOUT_MS), so
 * every assertion is an order of events — what arrived while the hanging attempt was
 * still open — never a duration.
 */

const ENV = { WEBHOOK_DELIVERY_TIMEOUT_MS: '40000', WEBHOOK_RETRY_SCHEDULE: '600,600' };
let stack: RunningStack;
let adminKey: string;
let channelId: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startStack({ env: ENV });
  ({ adminKey, channelId } = demoAdmin(stack));
});

afterAll(async () => {
  // Receivers first: their hanging connections close, so no attempt holds the stack's stop.
  for (const receiver of receivers) await receiver.close();
  await stack?.stop();
});

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function subscribe(keyAndChannel: { adminKey: string; channelId: string }, answer: 200 | 'hang') {
  const receiver = await startReceiver(`/hook-${receivers.length}`);
  receivers.push(receiver);
  if (answer === 'hang') receiver.script.push(...Array<'hang'>(1000).fill('hang'));
  const created = await stack.call('webhooks/manage', {
    apiKey: keyAndChannel.adminKey,
    params: { channelId: keyAndChannel.channelId, url: receiver.url, events: ['message.received'] },
  });
  expect(created.status).toBe(200);
  receiver.secrets.push(created.body.data.secret);
  return receiver;
}

const texts = (receiver: Receiver, phone: string) =>
  receiver.received.filter((delivery) => delivery.event.data.contact.phone === phone).map((delivery) => delivery.event.data.content.body);

describe('isolation in the event pipeline', () => {
  it(
    "a hanging receiver holds no other subscription's deliveries: the contact's next message reaches a healthy one while the hanging attempt is still open",
    { timeout: 120_000 },
    async () => {
      // Prepare: one subscription whose receiver never answers, one that answers at once
      const hanging = await subscribe({ adminKey, channelId }, 'hang');
      const healthy = await subscribe({ adminKey, channelId }, 200);
      const phone = '14155550171';
      await stack.admin('inbound', '--channel', channelId, '--from', phone, '--text', 'one');
      await until(() => hanging.hanging === 1 && texts(healthy, phone).length === 1, 'the first message at both receivers');
      // Act: the same contact writes again while the first attempt to the hanging receiver is open
      await stack.admin('inbound', '--channel', channelId, '--from', phone, '--text', 'two');
      await until(() => texts(healthy, phone).length === 2 || hanging.hanging === 0, 'the second message at the healthy receiver');
      // Assess
      expect(texts(healthy, phone)).toEqual(['one', 'two']);
      expect(hanging.hanging).toBe(1);
      expect(texts(hanging, phone)).toEqual(['one']);
    },
  );
});
