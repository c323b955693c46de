import * as v from 'valibot';
import { listMessages, MAX_MESSAGE_PAGE } from '../shared/domain/message-history';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, identifier, integer, phone } from '../shared/schema/params';

/** Longest cursor accepted (a real one is about 90 characters). */
const MAX_CURSOR_LENGTH = 512;

export const schema = v.object({
  channelId: channelId(),
  /** One of phoneNumber and contactId names the contact. */
  phoneNumber: v.optional(phone()),
  contactId: v.optional(identifier()),
  limit: v.optional(integer(1, MAX_MESSAGE_PAGE), 50),
  cursor: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.nonEmpty('must not be empty'),
      v.maxLength(MAX_CURSOR_LENGTH, `must be at most ${MAX_CURSOR_LENGTH} characters`),
      v.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'is not a cursor: pass nextCursor of the previous page as it was returned'),
    ),
  ),
});

export const handler = apiEndpoint({
  path: 'chat/messages/list',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { messages, nextCursor } = await listMessages(channel, input);
    return { data: messages, nextCursor, message: `Found ${messages.length} message(s)` };
  },
});
