import * as v from 'valibot';
import { batchGetAll } from './batch';
import { deleteItem, getItem, putIfAbsent, update, when } from './client';
import { entity, tagged, type Stored } from './entity';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

/**
 * The media of inbound messages (`MEDIA#<mediaId>` in the channel's partition): where the
 * fetch from the chat network stands (`mediaStatus`) and, once stored, what was stored.
 * The message's own content keeps what the webhook said (mediaId, MIME type, caption);
 * this item adds what only the fetch knows (size, the bytes' SHA-256) and is read beside
 * the message by chat/messages/list and chat/media/get. Written once as `pending` by the
 * inbound message's processing, then moved forward only: `stored`, `refused` and
 * `failed` are final, so a repeated fetch after success changes nothing.
 */
export const MEDIA_STATUSES = ['pending', 'stored', 'refused', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

export const MediaItem = entity('media', {
  mediaId: v.string(),
  messageId: v.string(),
  /** The contact's phone: erasure finds the contact's media by its messages. */
  phone: v.string(),
  type: v.string(),
  mimeType: v.optional(v.string()),
  sha256: v.optional(v.string()),
  fileSize: v.optional(v.number()),
  status: v.picklist(MEDIA_STATUSES),
  /** Why the last attempt failed, or why the media was refused (size, type). */
  error: v.optional(v.string()),
  attempts: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type MediaRecord = Stored<typeof MediaItem>;

/** The object key of stored bytes: their tenant first, so a key names its channel. */
export const mediaObjectKey = (channel: ChannelRef, mediaId: string) => `${channel.workspaceId}/${channel.channelId}/${mediaId}`;

/** Records an inbound message's media as pending unless it is already recorded (a repeated delivery). */
export async function recordPendingMedia(
  channel: ChannelRef,
  media: { mediaId: string; messageId: string; phone: string; type: string; mimeType?: string; sha256?: string },
  now: string,
): Promise<void> {
  await putIfAbsent(tagged(MediaItem, keys.media(channel, media.mediaId), { ...media, status: 'pending', attempts: 0, createdAt: now, updatedAt: now }));
}

export function getMedia(channel: ChannelRef, mediaId: string): Promise<MediaRecord | undefined> {
  return getItem(keys.media(channel, mediaId), MediaItem);
}

export function getMediaMany(channel: ChannelRef, mediaIds: string[]): Promise<MediaRecord[]> {
  return batchGetAll(
    [...new Set(mediaIds)].map((id) => keys.media(channel, id)),
    MediaItem,
  );
}

/**
 * Moves a pending media forward: an attempt's outcome (`pending` again with the error of
 * a failed attempt that will be retried). False when it is no longer pending (already
 * final, or erased: the item is gone).
 */
export function recordMediaAttempt(
  channel: ChannelRef,
  mediaId: string,
  outcome: { status: MediaStatus; fileSize?: number; sha256?: string; mimeType?: string; error?: string },
  now: string,
): Promise<boolean> {
  return update(keys.media(channel, mediaId))
    .setAll({ status: outcome.status, fileSize: outcome.fileSize, sha256: outcome.sha256, mimeType: outcome.mimeType, updatedAt: now })
    .setOrRemove('error', outcome.error ?? null)
    .add('attempts', 1)
    .when(when.eq('status', 'pending'))
    .send();
}

export async function deleteMedia(channel: ChannelRef, mediaId: string): Promise<void> {
  await deleteItem(keys.media(channel, mediaId));
}
