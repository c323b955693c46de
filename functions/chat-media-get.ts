import * as v from 'valibot';
import { getMediaLink, MediaLink } from '../shared/domain/media';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { channelId, text } from '../shared/schema/params';
import { endpointResponse } from '../shared/schema/responses';

/** chat/media/get: a short-lived link to an inbound message's media, for the key's own channel. */
export const schema = v.object({
  channelId: channelId(),
  mediaId: described(text(128), "The media id of an inbound message's `content.mediaId` (image, video, audio, document, sticker).", '1234567890123456'),
});

export const response = endpointResponse({
  data: MediaLink,
  errors: [404, 409],
  description: 'A link to the bytes that needs no API key, and what the bytes are.',
});

export const handler = apiEndpoint({
  path: 'chat/media/get',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => ({ data: await getMediaLink(channel, input.mediaId) }),
});
