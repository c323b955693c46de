import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin, sandboxInbound, startStack, type RunningStack } from '../support/local-stack';
import { until as waitUntil } from '../support/eventually';
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

/** {@link waitUntil} with this file's bound, checking every 50 ms (a check may be a request to the stack). */
const until = (condition: () => boolean | Promise<boolean>, what: string, ms = 60_000) => waitUntil(condition, what, ms, 50);

async function subscribe(keyAndChannel: { adminKey: string; channelId: string }, answer: 200 | 'hang', events = ['message.received']) {
  const receiver = await startReceiver(`/hook-${receivers.length}`);
  receivers.push(receiver);
  if (answer === 'hang') receiver.script.push(...Array<'hang'>(1000).fill('hang'));
  const created = await stack.call('webhooks/manage', {
    apiKey: keyAndChannel.adminKey,
    params: { channelId: keyAndChannel.channelId, url: receiver.url, events },
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
      await sandboxInbound(stack, channelId, phone, 'one');
      await until(() => hanging.hanging === 1 && texts(healthy, phone).length === 1, 'the first message at both receivers');
      // Act: the same contact writes again while the first attempt to the hanging receiver is open
      await sandboxInbound(stack, channelId, phone, 'two');
      await until(() => texts(healthy, phone).length === 2 || hanging.hanging === 0, 'the second message at the healthy receiver');
      // Assess
      expect(texts(healthy, phone)).toEqual(['one', 'two']);
      expect(hanging.hanging).toBe(1);
      expect(texts(hanging, phone)).toEqual(['one']);
    },
  );

  it(
    "one workspace's flood — 10 hanging subscriptions, a 300-row opt-out import — does not delay another workspace's message.received: it arrives while every attempt of the flood is still open",
    { timeout: 180_000 },
    async () => {
      // Prepare: workspace A subscribes 10 receivers that never answer to every event; workspace B one that answers
      const a = { adminKey: stack.demo.workspaces[1].keys.find((key) => key.role === 'admin')!.apiKey, channelId: stack.demo.workspaces[1].channels[0].id };
      const flood: Receiver[] = [];
      for (let i = 0; i < 10; i++) flood.push(await subscribe(a, 'hang', ['*']));
      const quiet = await subscribe({ adminKey, channelId }, 200);
      // Act: A imports 300 opted-out contacts (300 events, 3,000 deliveries); once its flood reaches its receivers, a contact writes to B
      const contacts = Array.from({ length: 300 }, (_, i) => ({ phoneNumber: `1415556${String(i).padStart(4, '0')}`, status: 'opted_out' }));
      // (Whether the import answers in time on a loaded machine is issue 23's bounded-work part; here only its events matter.)
      await stack.call('contacts/import', { apiKey: a.adminKey, params: { channelId: a.channelId, contacts } });
      await until(() => flood.filter((receiver) => receiver.hanging > 0).length >= 5, "A's flood at its receivers");
      await sandboxInbound(stack, channelId, '14155550172', 'hello B');
      const attemptsEnded = () => flood.reduce((sum, receiver) => sum + receiver.received.length - receiver.hanging, 0);
      await until(() => texts(quiet, '14155550172').length === 1 || attemptsEnded() > 0, "B's message");
      // Assess: B's delivery came while none of A's attempts had ended (each waits out its full timeout)
      expect(texts(quiet, '14155550172')).toEqual(['hello B']);
      expect(attemptsEnded()).toBe(0);
    },
  );
});
