import * as v from 'valibot';
import { listMessages, MAX_MESSAGE_PAGE } from '../shared/domain/message-history';
import { HistoryMessage } from '../shared/domain/message-view';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { channelId, contactId, cursorOf, integer, phone } from '../shared/schema/params';

/** Longest cursor accepted (a real one is about 90 characters). */
const MAX_CURSOR_LENGTH = 512;

export const schema = v.pipe(
  v.object({
    channelId: channelId(),
    phoneNumber: v.optional(described(phone(), 'Phone number of the contact whose messages to list, with country code (or pass contactId).', '+14155550123')),
    contactId: contactId(),
    limit: described(v.optional(integer(1, MAX_MESSAGE_PAGE), 50), `Page size, 1 to ${MAX_MESSAGE_PAGE}.`, 20),
    cursor: v.optional(
      cursorOf(
        v.pipe(
          v.string('must be a string'),
          v.trim(),
          v.nonEmpty('must not be empty'),
          v.maxLength(MAX_CURSOR_LENGTH, `must be at most ${MAX_CURSOR_LENGTH} characters`),
          v.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'is not a cursor: pass nextCursor of the previous page as it was returned'),
        ),
      ),
    ),
  }),
  // One of phoneNumber and contactId names the contact (the domain refuses neither).
  v.metadata({ anyOf: [{ required: ['phoneNumber'] }, { required: ['contactId'] }] }),
  v.examples([{ channelId: 'ch_demoacmesupport', phoneNumber: '+14155550123', limit: 20 }]),
);

export const response = endpointResponse({
  data: v.array(HistoryMessage),
  message: 'Found 2 message(s)',
  envelope: 'nextCursor',
  errors: [404],
  description: 'One page of the contact’s messages in the channel, inbound and outbound, newest first; `nextCursor` fetches the next page.',
});

export const handler = apiEndpoint({
  path: 'chat/messages/list',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { messages, nextCursor } = await listMessages(channel, input);
    return { data: messages, nextCursor, message: `Found ${messages.length} message(s)` };
  },
});
