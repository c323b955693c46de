import * as v from 'valibot';
import { Event, listEvents } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { channelId, integer, text } from '../shared/schema/params';

export const schema = v.object({
  channelId: channelId(),
  limit: v.optional(described(integer(1, 100), 'Page size (default 50).', 50)),
  cursor: v.optional(
    described(
      text(1024),
      'Opaque cursor from a previous `nextCursor`; absent = the oldest event kept (events are kept at least 7 days).',
      'eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8',
    ),
  ),
});

export const response = endpointResponse({
  data: v.array(Event),
  envelope: 'nextCursor',
  description:
    "The channel's events oldest first, each exactly the body webhooks deliver; `nextCursor` is null at the head (ask again later with the same cursor).",
});

export const handler = apiEndpoint({
  path: 'events/list',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { events, nextCursor } = await listEvents(channel, input);
    return { data: events, nextCursor, message: `Found ${events.length} event(s)` };
  },
});
