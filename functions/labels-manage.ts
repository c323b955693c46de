import * as v from 'valibot';
import { manageLabel } from '../shared/domain/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, hexColor, integer, LIMITS, optionalText, text } from '../shared/schema/params';

export const schema = v.object({
  name: text(LIMITS.name),
  channelId: channelId(),
  /** An empty description clears it. */
  description: v.optional(optionalText(LIMITS.labelDescription)),
  color: v.optional(hexColor()),
  displayOrder: v.optional(integer(-1_000_000, 1_000_000)),
});

export const handler = apiEndpoint({
  path: 'labels/manage',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const label = await manageLabel(channel, input);
    return { data: label, message: label.created ? 'Label created' : 'Label updated' };
  },
});
