import * as v from 'valibot';
import { MediaUploadResult, uploadMedia } from '../shared/domain/media-upload';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { CHAT_LIMITS } from '../shared/schema/chat-params';
import { channelId, text } from '../shared/schema/params';
import { endpointResponse } from '../shared/schema/responses';

/** chat/media/upload: a file (base64) uploaded to the chat network, answered by the media id sends take. */
export const schema = v.object({
  channelId: channelId(),
  mimeType: described(
    text(CHAT_LIMITS.mimeType),
    "The file's MIME type, one WhatsApp supports (image/jpeg, image/png, video/mp4, audio/ogg, application/pdf, …).",
    'image/jpeg',
  ),
  data: described(
    // No longer than the body it travels in (the route's maxBodyBytes).
    v.pipe(v.string('must be a string'), v.maxLength(6 * 1024 * 1024, 'must be at most 6 MB of base64')),
    'The file as standard base64. The whole request may be at most 6 MB (the invocation payload limit), so about 4.7 MB decoded; less where WhatsApp limits the type (stickers 500 KB).',
    '/9j/4AAQSkZJRgABAQ==',
  ),
  filename: v.optional(described(text(CHAT_LIMITS.filename), 'The file name the chat network keeps with the media.', 'receipt.pdf')),
});

export const response = endpointResponse({
  data: MediaUploadResult,
  errors: [404, 502],
  description: 'The file is uploaded; send it with chat/message/send and this mediaId.',
});

export const handler = apiEndpoint({
  path: 'chat/media/upload',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => ({ data: await uploadMedia(channel, input) }),
});
