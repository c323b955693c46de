import { dueOutboxKeys } from './batch';
import { update, when } from './client';
import { channelOfKey, keys, retentionShardOf } from './keys';

/** The `RETAIN#` shards of the outbox index, each swept on its own. */
export { RETENTION_PARTITIONS } from './keys';
import type { Key } from '../identity';
import { removeEventContent } from './events';
import { ChatmidItem, MessageItem } from './messages';
import { OUTBOX_INDEX } from './table-schema';

/**
 * Content expiry (`MESSAGE_CONTENT_RETENTION_DAYS`): a message written while retention
 * is on carries `outboxShard = RETAIN#<n>` and `outboxAt` = when its content expires,
 * so the sparse `outbox` index (keys only) lists the due ones without a Scan; the
 * automation re-drive reads only its own `OUTBOX#<n>` shards. Blanking removes the
 * message from the index.
 */

/** The attributes that put a new message into the retention part of the sparse index, due at `expiresAt` (ms). */
export function retentionIndexAttributes(messageId: string, expiresAt: number): { outboxShard: string; outboxAt: number } {
  return { outboxShard: retentionShardOf(messageId), outboxAt: expiresAt };
}

/** Message keys of one `RETAIN#` shard whose content expired before `now`, oldest first, at most `limit`. */
export async function dueForBlanking(shard: string, now: number, limit: number): Promise<Key[]> {
  return dueOutboxKeys([shard], now, limit);
}

/**
 * Blanks an expired message's content: the message item, then its history entry, its
 * chatmid pointer and the `message.received` event in the events log, and only then does the item leave the index, so a crash halfway is
 * finished by the next sweep. Returns false when it was already blanked or is gone.
 */
export async function blankExpiredMessage(key: Key, now: number): Promise<boolean> {
  const message = await update(key).set('contentRemovedAt', now).remove('content').when(when.exists(OUTBOX_INDEX.partitionKey)).sendReturning(MessageItem);
  if (!message) return false;
  if (typeof message.phone === 'string' && typeof message.at === 'number') {
    await removeContent(keys.messageHistory(channelOfKey(key), message.phone, message.at, message.id), now);
  }
  if (message.chatmid) {
    const pointer = await update(keys.messageByChatmid(message.chatmid))
      .set('contentRemovedAt', now)
      .remove('content')
      .when(when.itemExists())
      .sendReturning(ChatmidItem);
    if (pointer?.receivedEventId) await removeEventContent(channelOfKey(key), pointer.receivedEventId);
  }
  await update(key).remove(OUTBOX_INDEX.partitionKey, OUTBOX_INDEX.sortKey).send();
  return true;
}

async function removeContent(key: Key, now: number): Promise<void> {
  await update(key).set('contentRemovedAt', now).remove('content').when(when.itemExists()).send();
}
