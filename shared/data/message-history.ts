import * as v from 'valibot';
import { batchGetAll, queryAll, queryUpTo } from './batch';
import { deleteItem, update, when } from './client';
import { keyed, parseItems } from './entity';
import { ExpressionScope } from './expressions';
import { keys } from './keys';
import type { ChannelRef, Key } from '../identity';
import { ChatmidItem, HistoryItem, MessageItem, namesItsContact, putHistoryEntry, type ChatmidRecord, type HistoryEntry } from './messages';

/** A history entry as a page reads it, with its key (the next page starts after it). */
const KeyedHistoryItem = keyed(HistoryItem);

/**
 * Reads of the conversation history (its entries are written with their messages,
 * messages.ts): one entry per message beside the message item, in the channel's
 * partition under `HIST#<phone>#<time>#<messageId>`, so one contact's messages come
 * newest first from one query whatever else the channel holds. The entry holds what
 * chat/messages/list shows except the delivery status, which lives on the chatmid
 * pointer (one conditional write per webhook): a page reads it with one BatchGetItem of
 * the page's pointers. Erasure and repair of the history live here too.
 * docs/MESSAGING.md ("Conversation history").
 */

export interface HistoryPage {
  entries: HistoryEntry[];
  /** Where the next page starts (the page's last entry's place in the history, keys.ts `messageHistoryAt`) when one follows. */
  nextPosition?: string;
}

/**
 * One page of a contact's history, newest first: a Query with `Limit` = the page + 1
 * (the extra item only tells whether a next page exists), starting after the place
 * `afterPosition` (an earlier page's `nextPosition`), continued past DynamoDB's 1 MB
 * only until the page is full. It reads exactly the page, whatever else the channel or
 * the contact holds. Undefined, without a read, when `afterPosition`
 * is not a place in a history.
 */
export async function queryHistoryPage(channel: ChannelRef, phone: string, limit: number, afterPosition?: string): Promise<HistoryPage | undefined> {
  const { pk, skPrefix } = keys.messageHistoryPrefix(channel, phone);
  const after = afterPosition === undefined ? undefined : keys.messageHistoryAt(channel, phone, afterPosition);
  if (afterPosition !== undefined && !after) return undefined;
  const scope = new ExpressionScope();
  const found = await queryUpTo(
    {
      KeyConditionExpression: `${scope.path('pk')} = ${scope.value(pk)} AND begins_with(${scope.path('sk')}, ${scope.value(skPrefix)})`,
      ScanIndexForward: false,
      ExclusiveStartKey: after,
      ...scope.attributes(),
    },
    limit + 1,
  );
  const items = parseItems(KeyedHistoryItem, found);
  const entries = items.slice(0, limit);
  const last = items.length > limit ? entries[entries.length - 1].sk : undefined;
  return { entries, nextPosition: last?.startsWith(skPrefix) ? last.slice(skPrefix.length) : undefined };
}

/** The chatmid pointers of a page's messages (status and delivery times), by chatmid; one BatchGetItem per 100. */
export async function getChatmidRecords(chatmids: string[]): Promise<Map<string, ChatmidRecord>> {
  const found = await batchGetAll(
    chatmids.map((chatmid) => keys.messageByChatmid(chatmid)),
    ChatmidItem,
  );
  return new Map(found.map((record) => [record.chatmid, record]));
}

/** Every history entry of a contact (erasure): keys and ids only. */
export async function allHistoryEntries(
  channel: ChannelRef,
  phone: string,
): Promise<Array<Key & Pick<HistoryEntry, 'messageId' | 'chatmid' | 'type' | 'content'>>> {
  const { pk, skPrefix } = keys.messageHistoryPrefix(channel, phone);
  return queryAll(pk, skPrefix, keyed(v.pick(HistoryItem, ['messageId', 'chatmid', 'type', 'content'])), {
    attributes: ['pk', 'sk', 'messageId', 'chatmid', 'type', 'content'],
    consistent: true,
  });
}

/** Deletes one item by key (an erasure step). */
export async function deleteByKey(key: Key): Promise<void> {
  await deleteItem(key);
}

/**
 * Blanks what a message carried about its contact, keeping its skeleton (type,
 * direction, times, send state and delivery status, for delivery counts): the message
 * item loses content, phone, wa_id, apiReference and its contact and conversation ids;
 * its chatmid pointer loses content and phone. Idempotent; an absent item stays absent.
 */
export async function eraseMessageContent(channel: ChannelRef, messageId: string, chatmid: string | undefined, erasedAt: number): Promise<void> {
  await update(keys.message(channel, messageId))
    .set('erasedAt', erasedAt)
    .remove('content', 'phone', 'waId', 'apiReference', 'contactId', 'conversationId')
    .when(when.itemExists())
    .send();
  // Its events not yet handed off name the contact too; the event re-drive finds nothing left to hand off.
  if (chatmid !== undefined)
    await update(keys.messageByChatmid(chatmid))
      .set('erasedAt', erasedAt)
      .remove('content', 'phone', 'apiReference', 'pendingEvents', 'outboxShard', 'outboxAt')
      .when(when.itemExists())
      .send();
}

/**
 * Writes the history entry of every message of the channel that has a contact phone
 * and no erasure (repair, `admin contacts recount`): messages stored before history
 * entries existed, and an entry a crash left behind its message (the message item is
 * the source of truth). Reads every message of the channel: an operator's tool.
 */
export async function rebuildHistoryEntries(channel: ChannelRef): Promise<number> {
  const { pk, skPrefix } = keys.messagePrefix(channel);
  const messages = await queryAll(pk, skPrefix, MessageItem, { consistent: true });
  let written = 0;
  for (const message of messages) {
    if (!namesItsContact(message) || message.erasedAt !== undefined) continue;
    await putHistoryEntry(channel, message);
    written += 1;
  }
  return written;
}
