import { accessTokenFor } from '../chat/access-tokens';
import { ChatNetworkError, MediaTooLargeError } from '../chat/graph-client';
import { MEDIA_LIMITS, mediaRefusal, type MediaMessageType } from '../chat/media-types';
import { chatNetwork } from '../chat/network';
import { clock } from '../clock';
import { MAX_RECEIVES } from '../config';
import { getChannel } from '../data/channels';
import { getMedia, mediaObjectKey, recordMediaAttempt, recordPendingMedia, type MediaStatus } from '../data/media';
import type { ChannelRef } from '../identity';
import { mediaStore } from '../media/media-store';
import { logger } from '../observability/logger';
import { enqueueMediaFetch, type MediaFetchMessage } from '../queue/step-queue';
import { createHash } from 'node:crypto';

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
