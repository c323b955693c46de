import type * as v from 'valibot';
import { clock } from '../clock';
import { inboundMediaOf, type InboundContent } from '../chat/inbound-content';
import { getMediaMany, type MediaRecord } from '../data/media';
import { getChatmidRecords, queryHistoryPage } from '../data/message-history';
import type { ChatmidRecord, HistoryEntry } from '../data/messages';
import type { ChannelRef } from '../identity';
import { InvalidInputError } from '../errors';
import { resolveContact, type ContactRef } from './contact-ref';
import { decodeCursor, encodeCursor } from './cursors';
import { HistoryMessage } from './message-view';
import { contentVisible } from './retention';

/** Largest page of chat/messages/list. */
export const MAX_MESSAGE_PAGE = 100;

/** A message as chat/messages/list shows it. */
export type MessageView = v.InferOutput<typeof HistoryMessage>;

export interface MessagePage {
  messages: MessageView[];
  nextCursor: string | null;
}

export interface ListMessagesInput extends ContactRef {
  limit: number;
  cursor?: string;
}

/**
 * chat/messages/list: one contact's messages in the channel, inbound and outbound,
 * newest first. A page is one read of the contact, one Query of its history entries
 * (`Limit` = the page) and one BatchGetItem of the page's chatmid pointers (statuses):
 * the same cost with 10 or 100,000 messages in the channel; a page with inbound media
 * adds one BatchGetItem of their media records (shared/domain/media.ts). The cursor holds the last
 * entry's position, bound to the workspace, channel and contact.
 */
export async function listMessages(channel: ChannelRef, input: ListMessagesInput): Promise<MessagePage> {
  const contact = await resolveContact(channel, input);
  const query = `chat/messages/list:${contact.phone}`;
  const after = input.cursor === undefined ? undefined : await decodeCursor(input.cursor, channel.channelId, query);
  const page = await queryHistoryPage(channel, contact.phone, input.limit, after);
  if (!page) throw new InvalidInputError('Invalid parameter cursor: not a cursor of this query.', 'cursor');
  const chatmids = page.entries.filter((entry) => entry.direction === 'outbound' && entry.chatmid !== undefined).map((entry) => entry.chatmid!);
  const pointers = chatmids.length > 0 ? await getChatmidRecords(chatmids) : new Map<string, ChatmidRecord>();
  const mediaIds = page.entries.flatMap((entry) => {
    const named = entry.content && inboundMediaOf(entry.type, entry.content as InboundContent);
    return named ? [named.mediaId] : [];
  });
  const media = new Map((mediaIds.length > 0 ? await getMediaMany(channel, mediaIds) : []).map((record) => [record.mediaId, record]));
  const messages = page.entries.map((entry) => withMedia(toMessageView(entry, entry.chatmid === undefined ? undefined : pointers.get(entry.chatmid)), media));
  const nextCursor = page.nextPosition === undefined ? null : await encodeCursor(channel.channelId, query, page.nextPosition);
  return { messages, nextCursor };
}

function toMessageView(entry: HistoryEntry, pointer: ChatmidRecord | undefined): MessageView {
  const visible = entry.content !== undefined && contentVisible(entry.at, clock.now());
  return {
    chatmid: entry.chatmid ?? null,
    direction: entry.direction,
    type: entry.type,
    content: visible ? (entry.content as Record<string, unknown>) : null,
    status: statusOf(entry, pointer),
    timestamp: new Date(entry.at).toISOString(),
    deliveredAt: iso(pointer?.deliveredAt),
    readAt: iso(pointer?.readAt),
    apiReference: entry.apiReference ?? null,
    error: pointer?.error ?? entry.error ?? null,
  };
}

/** An inbound media message's content with what the fetch learnt: `mediaStatus`, and once stored `fileSize` and the bytes' `sha256`. */
function withMedia(view: MessageView, media: Map<string, MediaRecord>): MessageView {
  const record = view.content && typeof view.content.mediaId === 'string' ? media.get(view.content.mediaId) : undefined;
  if (!record || !view.content) return view;
  const stored = record.status === 'stored' ? { fileSize: record.fileSize, sha256: record.sha256 } : {};
  return { ...view, content: { ...view.content, mediaStatus: record.status, ...stored } };
}

function statusOf(entry: HistoryEntry, pointer: ChatmidRecord | undefined): MessageView['status'] {
  if (entry.direction === 'inbound') return 'received';
  if (pointer) return pointer.status;
  return entry.sendState;
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
