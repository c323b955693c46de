import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { ConflictError, NotFoundError } from '../errors';
import { accessTokenFor } from '../chat/access-tokens';
import { ChatNetworkError, MediaTooLargeError } from '../chat/graph-client';
import { MEDIA_LIMITS, mediaRefusal, type MediaMessageType } from '../chat/media-types';
import { chatNetwork } from '../chat/network';
import { clock } from '../clock';
import { MAX_RECEIVES } from '../config';
import { getChannel } from '../data/channels';
import { deleteMedia, getMedia, mediaObjectKey, recordMediaAttempt, recordPendingMedia, type MediaStatus } from '../data/media';
import type { ChannelRef } from '../identity';
import { mediaStore } from '../media/media-store';
import { logger } from '../observability/logger';
import { enqueueMediaFetch, type MediaFetchMessage } from '../queue/step-queue';

/** What the automation queue carries: automation steps and media fetches (its consumer tells them apart). */
export { isMediaFetch, type StepQueueMessage } from '../queue/step-queue';
import { described } from '../schema/docs';
import { component } from '../schema/responses';

/**
 * Inbound media (docs/MESSAGING.md, "Inbound media"): the chat network's webhook names a
 * media id that only the channel's token opens, through URLs that expire within minutes.
 * The inbound message's processing records the media as `pending` and hands a fetch to
 * the queue, before the delivery counts as processed (so a failed hand-off fails the
 * webhook and the chat network delivers again); the fetch runs off the webhook's path,
 * checks the bytes against WhatsApp's limits for the type, stores them and records the
 * outcome. A failed attempt is retried by the queue's redelivery and is final (`failed`)
 * after the queue's last receive.
 */

export type InboundMedia = { mediaId: string; messageId: string; phone: string; type: string; mimeType?: string; sha256?: string };

/** Records the media as pending and queues its fetch. Idempotent: a repeated delivery queues a fetch that finds nothing pending. */
export async function queueMediaFetch(channel: ChannelRef, media: InboundMedia): Promise<void> {
  await recordPendingMedia(channel, media, clock.nowIso());
  await enqueueMediaFetch({ kind: 'media', ...channel, mediaId: media.mediaId, notBefore: clock.now() });
}

/** One attempt; throws to have the queue retry it, until the last receive records `failed`. */
export async function fetchInboundMedia(message: MediaFetchMessage, receiveCount: number): Promise<MediaStatus | 'skipped'> {
  const channel = { workspaceId: message.workspaceId, channelId: message.channelId };
  const media = await getMedia(channel, message.mediaId);
  if (media?.status !== 'pending') return 'skipped';
  const type = media.type as MediaMessageType;
  const record = (outcome: Parameters<typeof recordMediaAttempt>[2]) => recordMediaAttempt(channel, media.mediaId, outcome, clock.nowIso());
  try {
    const channelRecord = await getChannel(channel);
    if (!channelRecord) return 'skipped';
    const token = await accessTokenFor(channelRecord);
    const { bytes, mimeType, sha256: declared } = await chatNetwork().downloadMedia(media.mediaId, token, MEDIA_LIMITS[type].maxBytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const refusal =
      mediaRefusal(type, mimeType, bytes.length) ?? (declared && declared !== sha256 ? 'the bytes do not match the SHA-256 the chat network gave' : undefined);
    if (refusal) {
      await record({ status: 'refused', mimeType, fileSize: bytes.length, error: refusal });
      return 'refused';
    }
    const key = mediaObjectKey(channel, media.mediaId);
    await mediaStore().put(key, bytes, mimeType);
    // Not pending any more means erased meanwhile: the bytes just stored must go too.
    if (!(await record({ status: 'stored', mimeType, fileSize: bytes.length, sha256 }))) await mediaStore().remove(key);
    return 'stored';
  } catch (error) {
    if (error instanceof MediaTooLargeError) {
      await record({ status: 'refused', error: `${type} media may be at most ${MEDIA_LIMITS[type].maxBytes} bytes; it has ${error.size} or more.` });
      return 'refused';
    }
    const last = receiveCount >= MAX_RECEIVES || (error instanceof ChatNetworkError && error.outcome === 'rejected' && error.httpStatus !== 429);
    const reason = error instanceof ChatNetworkError ? error.message : 'an internal error';
    await record({ status: last ? 'failed' : 'pending', error: reason });
    logger.warn('inbound media fetch failed', { mediaId: media.mediaId, attempt: receiveCount, final: last, error: reason });
    if (last) return 'failed';
    throw error;
  }
}

/**
 * Erases a media: the record first, so a fetch still in flight finds nothing pending and
 * removes the bytes it stored itself; then the stored bytes (absent bytes are no error).
 */
export async function eraseMedia(channel: ChannelRef, mediaId: string): Promise<void> {
  await deleteMedia(channel, mediaId);
  await mediaStore().remove(mediaObjectKey(channel, mediaId));
}

/** What chat/media/get answers. */
export const MediaLink = component(
  'MediaLink',
  v.strictObject({
    url: described(
      v.string(),
      'Opens the bytes without an API key until `expiresAt` (at least 5 minutes): a presigned link in AWS, a signed link on the local gateway.',
      'https://media.example/…',
    ),
    mimeType: described(v.string(), 'The media type of the bytes, as the chat network gave it.', 'image/jpeg'),
    fileSize: described(v.number(), 'Size of the bytes.', 48213),
    sha256: described(v.string(), 'Hex SHA-256 of the bytes.', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'),
    expiresAt: described(v.string(), 'When `url` stops opening the bytes (ISO 8601); ask again for a new link.', '2026-01-01T12:15:00.000Z'),
  }),
);

/**
 * chat/media/get: a link to an inbound media of the caller's channel. Media of another
 * channel or workspace are not found (the record lives in its channel's partition); media
 * not stored (yet) are a 409 naming their `mediaStatus`.
 */
export async function getMediaLink(channel: ChannelRef, mediaId: string): Promise<v.InferOutput<typeof MediaLink>> {
  const media = await getMedia(channel, mediaId);
  if (!media) throw new NotFoundError('No media with that id in this channel (an inbound message names it in content.mediaId).', { parameter: 'mediaId' });
  if (media.status !== 'stored' || media.fileSize === undefined || !media.sha256 || !media.mimeType) {
    const why =
      media.status === 'pending'
        ? 'is still being fetched from the chat network; ask again in a few seconds'
        : `could not be kept (${media.status}${media.error ? `: ${media.error}` : ''})`;
    throw new ConflictError(`The media ${why}.`, { parameter: 'mediaId', mediaStatus: media.status });
  }
  const link = await mediaStore().link(mediaObjectKey(channel, mediaId), media.mimeType);
  return { url: link.url, mimeType: media.mimeType, fileSize: media.fileSize, sha256: media.sha256, expiresAt: new Date(link.expiresAt).toISOString() };
}
