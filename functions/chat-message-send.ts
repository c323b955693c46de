import * as v from 'valibot';
import { REPLAYED_SEND_MESSAGE, sendRegularMessage } from '../shared/domain/messaging';
import { apiEndpoint } from '../shared/http/api-handler';
import { apiReference, CHAT_LIMITS } from '../shared/schema/chat-params';
import { channelId, httpUrl, LIMITS, phone, text } from '../shared/schema/params';

/**
 * chat/message/send: a text or media message, valid inside the 24-hour session
 * window (outside it: 400 `outside_session_window`, before any chat-network call).
 */
export const schema = v.object({
  to: phone(),
  channelId: channelId(),
  type: v.optional(v.picklist(['text', 'image', 'video', 'document', 'audio'], 'must be one of text, image, video, document, audio'), 'text'),
  body: v.optional(text(LIMITS.messageBody)),
  url: v.optional(httpUrl()),
  caption: v.optional(text(CHAT_LIMITS.caption)),
  filename: v.optional(text(CHAT_LIMITS.filename)),
  apiReference: v.optional(apiReference()),
});

export const handler = apiEndpoint({
  path: 'chat/message/send',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { data, replayed } = await sendRegularMessage(channel, input);
    return { data, message: replayed ? REPLAYED_SEND_MESSAGE : 'Message accepted by the chat network' };
  },
});
