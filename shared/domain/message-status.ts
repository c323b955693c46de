import type * as v from 'valibot';
import type { Principal } from '../auth/principal';
import { getChatmidRecord, type ChatmidRecord } from '../data/messages';
import { clock } from '../clock';
import { ForbiddenError } from '../errors';
import { MessageStatus } from './message-view';
import { contentVisible } from './retention';

/**
 * chat/message/status: one consistent read of the chatmid's pointer item. A chatmid
 * that is unknown, of another workspace, or of a channel the key may not use is the
 * same 403, so message ids cannot be probed across workspaces.
 */
export async function messageStatus(principal: Principal, chatmid: string): Promise<v.InferOutput<typeof MessageStatus>> {
  const record = await chatmidOfCaller(principal, chatmid);
  return {
    chatmid: record.chatmid,
    status: record.status,
    direction: record.direction ?? null,
    type: record.type ?? null,
    // Blanked by erasure or by the retention sweep; past the retention period even before the sweep ran.
    content: record.at !== undefined && !contentVisible(record.at, clock.now()) ? null : (record.content ?? null),
    timestamp: iso(record.at),
    deliveredAt: iso(record.deliveredAt),
    readAt: iso(record.readAt),
    error: record.error ?? null,
  };
}

/** The pointer of a chatmid on one of the key's channels; anything else is the same 403. */
export async function chatmidOfCaller(principal: Principal, chatmid: string): Promise<ChatmidRecord & { workspaceId: string; channelId: string }> {
  const record = await getChatmidRecord(chatmid);
  if (!record?.workspaceId || record.workspaceId !== principal.workspaceId || !principal.channelIds.includes(record.channelId ?? '')) {
    throw new ForbiddenError('This API key may not read that message, or no such message exists.', { parameter: 'chatmid' });
  }
  return record as ChatmidRecord & { workspaceId: string; channelId: string };
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
