import * as v from 'valibot';
import { messageStatus } from '../shared/domain/message-status';
import { MessageStatus } from '../shared/domain/message-view';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { CHAT_LIMITS } from '../shared/schema/chat-params';
import { text } from '../shared/schema/params';

/**
 * chat/message/status: not channel-scoped by parameter; the message's own channel
 * is checked against the key's channels (one pointer read plus the rate limiter).
 */
export const schema = v.object({
  chatmid: described(text(CHAT_LIMITS.chatmid), 'The chat network message id a send answered (`data.chatmid`).', 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0'),
});

export const response = endpointResponse({
  data: MessageStatus,
  description: 'The message and its delivery status.',
});

export const handler = apiEndpoint({
  path: 'chat/message/status',
  schema,
  response,
  channelScoped: false,
  handle: async (input, { principal }) => ({ data: await messageStatus(principal, input.chatmid) }),
});
