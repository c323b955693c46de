import { afterEach, describe, expect, it } from 'vitest';
import { handler as listMessages } from '../../functions/chat-messages-list';
import { handler as messageStatus } from '../../functions/chat-message-status';
import { handler as sendMessage } from '../../functions/chat-message-send';
import { handler as sweep } from '../../functions/message-content-sweep';
import { clock } from '../../shared/clock';
import { batchGetAll, batchPutAll, queryAll } from '../../shared/data/batch';
import { tagged } from '../../shared/data/entity';
import { retentionIndexAttributes } from '../../shared/data/message-retention';
import { MessageItem } from '../../shared/data/messages';
import { keys, RETENTION_PARTITIONS, retentionShardOf } from '../../shared/data/keys';
import { getChatmidRecord } from '../../shared/data/messages';
import { callApi } from '../support/api';
import { newRecipient, openWindow, useChatTenant, type ChatNetwork, type ChatTenant } from '../support/chat';
import { AnyItem } from '../support/table';

let network: ChatNetwork;
let tenant: ChatTenant;

useChatTenant(1, (started, created) => {
  network = started;
  tenant = created;
});

afterEach(() => {
  delete process.env.MESSAGE_CONTENT_RETENTION_DAYS;
});

const DAY = 24 * 60 * 60 * 1000;
const list = (phone: string) => callApi(listMessages, { apiKey: tenant.adminKey, params: { phoneNumber: phone } });
const status = (chatmid: string) => callApi(messageStatus, { apiKey: tenant.adminKey, params: { chatmid } });

/** The channel's items of one kind (message items or history entries) for one phone. */
async function stored(prefix: 'MSG#' | 'HIST#', phone: string) {
  const { pk } = keys.contactPrefix({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] });
  const items = await queryAll(pk, prefix, AnyItem, { consistent: true });
  return items.filter((item) => item.phone === phone || String(item.sk).startsWith(`HIST#${phone}#`));
}

/** An inbound message and a reply: what a retention period applies to. */
async function conversation(phone: string) {
  const inbound = await openWindow(network, tenant.channels[0], phone, 'my private question');
  const reply = await callApi(sendMessage, { apiKey: tenant.adminKey, params: { to: phone, body: 'my private answer' } });
  await network.sandbox.idle();
  return [inbound, reply.body.data.chatmid as string];
}

describe('message content retention', () => {
  it('is off by default: contents stay, and no message is put up for the sweep', async () => {
    // Prepare
    const phone = newRecipient();
    await conversation(phone);
    // Act
    clock.shift(400 * DAY);
    const page = await list(phone);
    const result = await sweep();
    // Assess
    expect(result.retentionDays).toBeNull();
    expect(page.body.data.map((message: { content: unknown }) => message.content)).toEqual([{ body: 'my private answer' }, { body: 'my private question' }]);
    expect((await stored('MSG#', phone)).every((item) => item.outboxShard === undefined)).toBe(true);
  });

  it('hides contents older than MESSAGE_CONTENT_RETENTION_DAYS at once, and the sweep blanks them, keeping statuses', async () => {
    // Prepare
    process.env.MESSAGE_CONTENT_RETENTION_DAYS = '2';
    const phone = newRecipient();
    const chatmids = await conversation(phone);
    clock.shift(DAY);
    const young = await list(phone);
    // Act
    clock.shift(DAY + 1000);
    const expired = await list(phone);
    const expiredStatus = await status(chatmids[1]);
    const result = await sweep();
    const again = await sweep();
    delete process.env.MESSAGE_CONTENT_RETENTION_DAYS;
    // Assess
    expect(young.body.data.map((message: { content: unknown }) => message.content)).toEqual([{ body: 'my private answer' }, { body: 'my private question' }]);
    expect(expired.body.data.map((message: { content: unknown; status: string }) => [message.content, message.status])).toEqual([
      [null, 'delivered'],
      [null, 'received'],
    ]);
    expect(expiredStatus.body.data).toMatchObject({ content: null, status: 'delivered' });
    expect(result.blanked).toBeGreaterThanOrEqual(2);
    expect(again.blanked).toBe(0);
    // Stored contents are gone too (shown even with retention switched off again).
    const items = [...(await stored('MSG#', phone)), ...(await stored('HIST#', phone))];
    expect(items).toHaveLength(4);
    for (const item of items) {
      expect(item.content).toBeUndefined();
      expect(item.outboxShard).toBeUndefined();
    }
    for (const chatmid of chatmids) expect((await getChatmidRecord(chatmid))?.content).toBeUndefined();
    expect((await list(phone)).body.data.map((message: { content: unknown }) => message.content)).toEqual([null, null]);
    expect((await status(chatmids[0])).body.data).toMatchObject({ content: null, status: 'received' });
  });

  it('blanks every due message of a shard in one run, page after page, and starts no page once the deadline is near', async () => {
    // Prepare: 450 due messages in one RETAIN# shard (more than two index pages of 200)
    const channel = { workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] };
    const ids: string[] = [];
    for (let i = 0; ids.length < 450; i++) {
      const id = `msg_sweep${String(i).padStart(6, '0')}`;
      if (retentionShardOf(id) === RETENTION_PARTITIONS[0]) ids.push(id);
    }
    const at = clock.now() - DAY;
    const message = (id: string) => ({
      ...tagged(MessageItem, keys.message(channel, id), {
        id,
        direction: 'inbound',
        type: 'text',
        content: { body: `secret ${id}` },
        sendState: 'received',
        at,
        createdAt: new Date(at).toISOString(),
        updatedAt: new Date(at).toISOString(),
      }),
      ...retentionIndexAttributes(id, at + 1000),
    });
    await batchPutAll(ids.map(message));
    // Act
    const nearDeadline = await sweep(undefined, { getRemainingTimeInMillis: () => 1_000 });
    const result = await sweep(undefined, { getRemainingTimeInMillis: () => 600_000 });
    // Assess
    expect(nearDeadline).toMatchObject({ blanked: 0, done: false });
    expect(result.done).toBe(true);
    expect(result.blanked).toBeGreaterThanOrEqual(ids.length);
    const stored = await batchGetAll(
      ids.map((id) => keys.message(channel, id)),
      AnyItem,
      true,
    );
    expect(stored).toHaveLength(ids.length);
    expect(stored.filter((item) => item.content !== undefined || item.outboxShard !== undefined)).toEqual([]);
  }, 300_000);
});
