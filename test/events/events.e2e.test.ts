import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/data/keys';
import type { StackInfo } from '../../scripts/local/store';
import { queryPartition } from '../support/table';
import { demoAdmin, sandboxInbound, startStack, type RunningStack } from '../support/local-stack';
import { until as waitUntil } from '../support/eventually';
import { startReceiver, type Receiver } from '../support/receiver';

/**
 * Events over HTTP against `npm start`'s program: the README's walkthrough (a local
 * receiver verifies signed deliveries with the standardwebhooks library; retries while
 * it is down; the same events from events/list), and a SIGKILL of the stack in the
 * middle of the retries, after which the delivery still arrives, with the same webhook-id.
 */

const ENV = { WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1' };
let stack: RunningStack;
let adminKey: string;
let channelId: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startStack({ env: ENV });
  ({ adminKey, channelId } = demoAdmin(stack));
});

afterAll(async () => {
  await stack?.stop();
  for (const receiver of receivers) await receiver.close();
});

/** {@link waitUntil} with this file's bound, checking every 100 ms (a check may be a request to the stack). */
const until = (condition: () => boolean | Promise<boolean>, what: string, ms = 60_000) => waitUntil(condition, what, ms, 100);

async function subscribe(events: string[]) {
  const receiver = await startReceiver(`/hook-${receivers.length}`);
  receivers.push(receiver);
  const created = await stack.call('webhooks/manage', { apiKey: adminKey, params: { channelId, url: receiver.url, events } });
  expect(created.status).toBe(200);
  receiver.secrets.push(created.body.data.secret);
  return { receiver, webhookId: created.body.data.id as string };
}

/**
 * Whether the subscription's lane holds an event waiting for its retry with no deliverer holding
 * its lock (read from the stack's store): between two attempts, not within one.
 */
async function betweenAttempts(webhookId: string): Promise<boolean> {
  const { dynamodbEndpoint } = JSON.parse(await readFile(join(stack.dataDir, 'stack.json'), 'utf8')) as StackInfo;
  const { pk, skPrefix } = keys.deliveryLanePrefix({ workspaceId: stack.demo.workspaces[0].id, channelId }, webhookId);
  const lanes = (await queryPartition({ endpoint: dynamodbEndpoint }, pk)).filter((item) => item.sk.startsWith(skPrefix));
  return lanes.length === 1 && lanes[0].waiting?.size > 0 && lanes[0].lockOwner === undefined;
}

describe('events on the local stack', () => {
  it(
    'delivers signed message.status and message.received events, retries while the receiver is down, and lists the same events',
    { timeout: 120_000 },
    async () => {
      // Prepare
      const { receiver, webhookId } = await subscribe(['message.status', 'message.received']);
      const phone = '14155550161';
      // Act: a template, then the customer's reply
      const sent = await stack.call('chat/templates/send', { apiKey: adminKey, params: { channelId, to: phone, templateName: 'hello_world' } });
      const inbound = await sandboxInbound(stack, channelId, phone, 'Thanks');
      await until(() => receiver.received.filter((d) => d.answered === 200).length >= 3, 'three deliveries');
      // The receiver goes down: the next event is retried
      receiver.fallback = 503;
      await sandboxInbound(stack, channelId, phone, 'Still there?');
      await until(() => receiver.received.filter((d) => d.answered === 503).length >= 2, 'two failed attempts');
      const pending = await stack.call('webhooks/deliveries', { apiKey: adminKey, method: 'GET', params: { channelId, webhookId, status: 'pending' } });
      receiver.fallback = 200;
      const retried = receiver.received.find((d) => d.answered === 503)!;
      await until(() => receiver.received.some((d) => d.answered === 200 && d.webhookId === retried.webhookId), 'the retry delivered');
      const feed = await stack.call('events/list', { apiKey: adminKey, method: 'GET', params: { channelId, limit: 100 } });
      // Assess
      expect(sent.status).toBe(200);
      expect(inbound.chatmid).toMatch(/^wamid\./);
      const delivered = receiver.received.filter((d) => d.answered === 200);
      expect(delivered.every((d) => d.verifiedBy.length === 1 && d.webhookId === d.event.id)).toBe(true);
      expect(delivered.map((d) => d.event.type).sort()).toEqual(['message.received', 'message.received', 'message.status', 'message.status']);
      expect(delivered.filter((d) => d.event.type === 'message.status').map((d) => d.event.data.status)).toEqual(['sent', 'delivered']);
      expect(pending.body.data).toEqual([expect.objectContaining({ eventId: retried.webhookId, status: 'pending', lastStatusCode: 503 })]);
      const feedIds = feed.body.data.map((event: { id: string }) => event.id);
      for (const d of delivered) expect(feedIds).toContain(d.event.id);
      expect(feed.body.data.find((event: { id: string }) => event.id === retried.webhookId)).toEqual(JSON.parse(retried.body));
    },
  );

  it('loses no delivery when the stack is killed with SIGKILL in the middle of the retries', { timeout: 180_000 }, async () => {
    // Prepare
    const { receiver, webhookId } = await subscribe(['message.received']);
    receiver.fallback = 500;
    await sandboxInbound(stack, channelId, '14155550162', 'Crash test');
    await until(() => receiver.received.length >= 2, 'two failed attempts');
    // Killed while the delivery waits for its next retry: a kill within an attempt would leave the lane's lock to its
    // lease (test/events/lanes.test.ts takes over such a lock), which the restarted stack would wait out first.
    await until(() => betweenAttempts(webhookId), 'the lane between two attempts');
    // Act
    await stack.stop('SIGKILL');
    receiver.fallback = 200;
    stack = await startStack({ dataDir: stack.dataDir, env: ENV });
    await until(() => receiver.received.some((d) => d.answered === 200), 'the delivery after the restart', 120_000);
    await until(
      async () =>
        (await stack.call('webhooks/deliveries', { apiKey: adminKey, method: 'GET', params: { channelId, webhookId } })).body.data[0]?.status === 'succeeded',
      'the delivery log',
    );
    const log = await stack.call('webhooks/deliveries', { apiKey: adminKey, method: 'GET', params: { channelId, webhookId } });
    // Assess
    expect(new Set(receiver.received.map((d) => d.webhookId)).size).toBe(1);
    expect(receiver.received.filter((d) => d.answered === 200)).toHaveLength(1);
    expect(receiver.received.every((d) => d.verifiedBy.length === 1)).toBe(true);
    expect(log.body.data).toEqual([expect.objectContaining({ status: 'succeeded', lastStatusCode: 200 })]);
  });
});
