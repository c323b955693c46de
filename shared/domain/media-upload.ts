import * as v from 'valibot';
import { accessTokenFor } from '../chat/access-tokens';
import { ChatNetworkError, toCallerError } from '../chat/graph-client';
import { baseMimeType, MEDIA_LIMITS, type MediaMessageType } from '../chat/media-types';
import { chatNetwork } from '../chat/network';
import { getChannel } from '../data/channels';
import { InvalidInputError, NotFoundError } from '../errors';
import type { ChannelRef } from '../identity';
import { described } from '../schema/docs';
import { component } from '../schema/responses';

/** What chat/media/upload answers. */
export const MediaUploadResult = component(
  'MediaUploadResult',
  v.strictObject({
    mediaId: described(
      v.string(),
      "The chat network's media id: pass it as chat/message/send's mediaId (the chat network keeps it 30 days)",
      '1037543291543636',
    ),
    type: described(v.picklist(['image', 'video', 'audio', 'document', 'sticker']), 'The message type the file can be sent as', 'image'),
    fileSize: described(v.number(), 'The decoded size in bytes', 52_214),
  }),
);

// A plain character class: a grouped repetition would exhaust the stack on megabytes.
const BASE64_CHARS = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * chat/media/upload: checks the file against WhatsApp's supported types and per-type size
 * limits before the chat network is called (the request body, base64 in JSON, is capped by
 * the invocation payload limit: about 4.7 MB decoded arrive, never more than 5 MB), then uploads it with the channel's token.
 * Nothing is stored here: the chat network keeps the media and its id.
 */
export async function uploadMedia(
  channelRef: ChannelRef,
  input: { mimeType: string; data: string; filename?: string },
): Promise<v.InferOutput<typeof MediaUploadResult>> {
  const type = messageTypeOf(input.mimeType);
  const bytes = decodeBase64(input.data);
  // The request body's limit (the invocation payload) keeps every upload below 5 MB decoded: only
  // the types WhatsApp limits further (stickers) can be refused here.
  const { maxBytes } = MEDIA_LIMITS[type];
  if (bytes.length > maxBytes) {
    throw new InvalidInputError(`Invalid parameter data: ${type} media may be at most ${maxBytes} bytes; got ${bytes.length}.`, 'data', 'payload_too_large');
  }
  const channel = await getChannel(channelRef);
  if (!channel) throw new NotFoundError('No such channel in this workspace.', { parameter: 'channelId' });
  const mimeType = baseMimeType(input.mimeType);
  try {
    const mediaId = await chatNetwork().uploadMedia(channel.phoneNumberId, await accessTokenFor(channel), {
      bytes,
      mimeType,
      filename: input.filename ?? `upload.${type}`,
    });
    return { mediaId, type, fileSize: bytes.length };
  } catch (error) {
    throw error instanceof ChatNetworkError ? toCallerError(error) : error;
  }
}

/** The one message type a supported MIME type belongs to. */
function messageTypeOf(mimeType: string): MediaMessageType {
  const base = baseMimeType(mimeType);
  const type = (Object.keys(MEDIA_LIMITS) as MediaMessageType[]).find((candidate) => MEDIA_LIMITS[candidate].mimeTypes.includes(base));
  if (type) return type;
  const supported = Object.values(MEDIA_LIMITS).flatMap((limits) => limits.mimeTypes);
  throw new InvalidInputError(`Invalid parameter mimeType: WhatsApp takes ${supported.join(', ')}; got ${mimeType}.`, 'mimeType', 'unsupported_media_type');
}

/** What wraps base64 (MIME and PEM break it into lines): taken out before decoding. Any other character outside the alphabet refuses the data. */
const BASE64_WRAPPING = /[\r\n\t ]+/g;

function decodeBase64(data: string): Buffer {
  const compact = data.replace(BASE64_WRAPPING, '');
  if (compact.length % 4 !== 0 || !BASE64_CHARS.test(compact))
    throw new InvalidInputError('Invalid parameter data: must be the file as standard base64 (RFC 4648, padded).', 'data');
  return Buffer.from(compact, 'base64');
}
