import * as v from 'valibot';
import { listEvents } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, integer, text } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId(), limit: v.optional(integer(1, 100)), cursor: v.optional(text(1024)) });

export const handler = apiEndpoint({
  path: 'events/list',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { events, nextCursor } = await listEvents(channel, input);
    return { data: events, nextCursor, message: `Found ${events.length} event(s)` };
  },
});
