import * as v from 'valibot';
import { messageStatus } from '../shared/domain/message-status';
import { apiEndpoint } from '../shared/http/api-handler';
import { CHAT_LIMITS } from '../shared/schema/chat-params';
import { text } from '../shared/schema/params';

/**
 * chat/message/status: not channel-scoped by parameter; the message's own channel
 * is checked against the key's channels (one pointer read plus the rate limiter).
 */
export const schema = v.object({
  chatmid: text(CHAT_LIMITS.chatmid),
});

export const handler = apiEndpoint({
  path: 'chat/message/status',
  schema,
  channelScoped: false,
  handle: async (input, { principal }) => ({ data: await messageStatus(principal, input.chatmid) }),
});
