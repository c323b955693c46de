import * as v from 'valibot';
import { REPLAYED_SEND_MESSAGE, sendRegularMessage } from '../shared/domain/messaging';
import { MESSAGE_TYPES, MessageSendResult } from '../shared/domain/message-view';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { apiReference, CHAT_LIMITS, mediaId, recipient } from '../shared/schema/chat-params';
import { channelId, httpUrl, LIMITS, text } from '../shared/schema/params';
import { interactive, location, reaction, replyTo } from '../shared/domain/rich-message-params';

/**
 * chat/message/send: a text, media, interactive, location or reaction message, optionally
 * quoting one (`replyTo`), valid inside the 24-hour session window (outside it: 400
 * `outside_session_window`, before any chat-network call).
 */
export const schema = v.pipe(
  v.object({
    to: recipient(),
    channelId: channelId(),
    type: described(
      v.optional(v.picklist(MESSAGE_TYPES, `must be one of ${MESSAGE_TYPES.join(', ')}`), 'text'),
      'Message type; media types (image, video, document, audio, sticker) need `url` or `mediaId`, the others the parameter of their name (`interactive`, `location`, `reaction`).',
      'text',
    ),
    body: v.optional(described(text(LIMITS.messageBody), 'Message text (required when type is text).', 'Hello from the Workspace API')),
    url: v.optional(described(httpUrl(), 'Media URL (http or https): a media type needs this or `mediaId`, not both.', 'https://example.com/photo.jpg')),
    mediaId: v.optional(
      described(
        mediaId(),
        'The media id chat/media/upload answered (uploaded to this channel): a media type needs this or `url`, not both.',
        '1037543291543636',
      ),
    ),
    caption: v.optional(described(text(CHAT_LIMITS.caption), 'Caption of a media message.', 'Your receipt')),
    filename: v.optional(described(text(CHAT_LIMITS.filename), 'File name shown for a document message.', 'receipt.pdf')),
    interactive: v.optional(interactive()),
    location: v.optional(location()),
    reaction: v.optional(reaction()),
    replyTo: v.optional(replyTo()),
    apiReference: v.optional(apiReference()),
  }),
  // A request that makes sense (every parameter's example at once would name a media url for a text).
  v.examples([{ channelId: 'ch_demoacmesupport', to: '+14155550123', type: 'text', body: 'Hello from the Workspace API' }]),
);

export const response = endpointResponse({
  data: MessageSendResult,
  message: 'Message accepted by the chat network',
  errors: [404, 409, 502],
  description: 'The send was accepted by the chat network; poll chat/message/status with `chatmid`.',
});

export const handler = apiEndpoint({
  path: 'chat/message/send',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { data, replayed } = await sendRegularMessage(channel, input);
    return { data: data as v.InferInput<typeof MessageSendResult>, message: replayed ? REPLAYED_SEND_MESSAGE : 'Message accepted by the chat network' };
  },
});
