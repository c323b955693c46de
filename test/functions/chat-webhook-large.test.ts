import { afterAll, describe, expect, it } from 'vitest';
import type { ChatTenant } from '../support/chat';
import { usePrivateStore } from '../support/private-store';
import { newChatmid } from '../support/chatmid';

/**
 * A large chat-network delivery (more than the inline events, up to the Cloud API's 1,000
 * messages): handed off as waiting parts, then processed by the inbound drain.
 *
 * On a store of this file's own: the drain takes every waiting part of the table, whoever
 * handed it off, and raises its events into the queue of the process that drains. On the
 * run's shared store another file's drain (test/reliability/hostile-abuse.test.ts drains
 * large deliveries of its own) could take this file's parts, or this file's drain its.
 */

const store = await usePrivateStore();
const { handler: webhook } = await import('../../functions/webhook-whatsapp');
const { queryAll } = await import('../../shared/data/batch');
const { INBOUND_PARTITIONS, keys } = await import('../../shared/data/keys');
const { deleteInboundBatch, getInboundBatch, waitingInboundBatches } = await import('../../shared/data/inbound-batches');
const { drainInbound, INLINE_EVENTS, PART_EVENTS } = await import('../../shared/domain/inbound-drain');
const { MessageItem, namesItsContact } = await import('../../shared/data/messages');
const { newRecipient, signedWebhook, useChatTenant } = await import('../support/chat');
const { webhookEnvelope } = await import('../../scripts/local/sandbox-webhooks');

let tenant: ChatTenant;

useChatTenant(1, (_network, created) => {
  tenant = created;
});

afterAll(() => store.close());

const channel = () => tenant.channels[0];
const seconds = (ms: number) => String(Math.floor(ms / 1000));

/** The most messages one Cloud API delivery carries (docs/MESSAGING.md, "Large deliveries"). */
const CLOUD_API_MAX_MESSAGES = 1000;

/** A signed delivery of `count` inbound messages from `senders` numbers, and the chatmids each sender sent. */
function bulkDelivery(count: number, senders: number) {
  const phones = Array.from({ length: senders }, () => newRecipient());
  const sent = new Map(phones.map((from) => [from, [] as string[]]));
  const messages = Array.from({ length: count }, (_, i) => {
    const from = phones[i % phones.length];
    const id = newChatmid();
    sent.get(from)!.push(id);
    return { from, id, timestamp: seconds(Date.now()), type: 'text', text: { body: `bulk ${i}` } };
  });
  const body = webhookEnvelope(
    { phoneNumberId: channel().phoneNumberId, wabaId: channel().wabaId!, displayPhoneNumber: '15550000000' },
    { contacts: phones.map((from) => ({ profile: { name: 'Bulk Sender' }, wa_id: from })), messages },
  );
  return { sent, body };
}

async function inboundMessages(phone: string) {
  const { pk } = keys.contactPrefix({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });
  return (await queryAll(pk, 'MSG#', MessageItem, { consistent: true }))
    .filter(namesItsContact)
    .filter((message) => message.phone === phone && message.direction === 'inbound');
}

/** The waiting parts (any shard) that hold one of `chatmids`, with the chatmids each holds: only this test's delivery. */
async function waitingPartsOf(chatmids: Set<string>) {
  const parts = [];
  for (const key of (await Promise.all(INBOUND_PARTITIONS.map((shard) => waitingInboundBatches(shard, 1000)))).flat()) {
    const held = (JSON.parse((await getInboundBatch(key)) ?? '[]') as Array<{ chatmid: string }>).map((event) => event.chatmid);
    if (held.some((chatmid) => chatmids.has(chatmid))) parts.push({ key, chatmids: held });
  }
  return parts;
}

describe("a large delivery (more than the inline events, up to the Cloud API's 1,000 messages)", () => {
  // The full size is the hand-off's claim (≈ 2 table calls before the 200, every message durable); what the drain
  // does with a part does not depend on how many parts wait, so it is shown on a delivery of two parts.
  it('is handed off durably at full size and acknowledged: every message in exactly one waiting part, none processed within the request', async () => {
    // Prepare: the Cloud API's largest delivery, from 10 senders
    const { sent, body } = bulkDelivery(CLOUD_API_MAX_MESSAGES, 10);
    const chatmids = new Set([...sent.values()].flat());
    // Act
    const answer = await webhook(signedWebhook(body));
    const beforeDrain = await Promise.all([...sent.keys()].map(inboundMessages));
    const parts = await waitingPartsOf(chatmids);
    // Assess
    expect(answer.statusCode).toBe(200);
    expect(beforeDrain.flat()).toEqual([]);
    expect(parts).toHaveLength(Math.ceil(CLOUD_API_MAX_MESSAGES / PART_EVENTS));
    expect(parts.flatMap((part) => part.chatmids).sort()).toEqual([...chatmids].sort());
    // Not drained here (the test below drains its own delivery): the parts go.
    for (const { key } of parts) await deleteInboundBatch(key);
  });

  it('is processed by the inbound drain exactly once, a redelivery included', async () => {
    // Prepare: one event more than a part holds (two parts), from 3 senders
    const { sent, body } = bulkDelivery(PART_EVENTS + 1, 3);
    const chatmids = new Set([...sent.values()].flat());
    expect(PART_EVENTS + 1).toBeGreaterThan(INLINE_EVENTS);
    // Act
    const answer = await webhook(signedWebhook(body));
    const beforeDrain = await Promise.all([...sent.keys()].map(inboundMessages));
    const waiting = await waitingPartsOf(chatmids);
    const drained = await drainInbound();
    const redelivered = await webhook(signedWebhook(body));
    const drainedAgain = await drainInbound();
    // Assess: nothing processed within the request, everything once after the drain
    expect(answer.statusCode).toBe(200);
    expect(beforeDrain.flat()).toEqual([]);
    expect(waiting).toHaveLength(2);
    expect(drained).toMatchObject({ done: true });
    expect(drained.events).toBe(PART_EVENTS + 1);
    expect(redelivered.statusCode).toBe(200);
    expect(drainedAgain.events).toBe(PART_EVENTS + 1);
    for (const [from, chatmids] of sent) {
      const stored = await inboundMessages(from);
      expect(stored.map((message) => message.chatmid).sort()).toEqual([...chatmids].sort());
    }
    expect(await waitingPartsOf(chatmids)).toEqual([]);
  });
});
