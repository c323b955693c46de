import * as v from 'valibot';
import { markMessageRead, MessageReadResult } from '../shared/domain/message-read';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { CHAT_LIMITS } from '../shared/schema/chat-params';
import { boolean, text } from '../shared/schema/params';

/**
 * chat/message/read: marks a message the contact sent as read (the contact sees blue
 * ticks), optionally with the typing indicator while an answer is written. Not
 * channel-scoped by parameter: the message's own channel is checked against the key's.
 */
export const schema = v.object({
  chatmid: described(
    text(CHAT_LIMITS.chatmid),
    'The chatmid of an inbound message (message.received, chat/messages/list).',
    'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI0',
  ),
  typingIndicator: v.optional(
    described(boolean(), 'Also show the contact the typing indicator, until the next message is sent (at most 25 seconds).', true),
    false,
  ),
});

export const response = endpointResponse({
  data: MessageReadResult,
  message: 'Message marked read',
  errors: [502],
  description: 'The message is marked read on the chat network.',
});

export const handler = apiEndpoint({
  path: 'chat/message/read',
  schema,
  response,
  channelScoped: false,
  handle: async (input, { principal }) => ({ data: await markMessageRead(principal, input), message: 'Message marked read' }),
});
