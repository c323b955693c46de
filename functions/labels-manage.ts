import * as v from 'valibot';
import { LabelResult, manageLabel } from '../shared/domain/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { channelId, hexColor, integer, LIMITS, optionalText, text } from '../shared/schema/params';

export const schema = v.object({
  name: described(text(LIMITS.name), 'Label name: the match key (case-insensitive); the case first given is kept.', 'Customer'),
  channelId: channelId(),
  description: v.optional(described(optionalText(LIMITS.labelDescription), 'Free text; an empty string clears it.', 'Paying customer')),
  color: v.optional(described(hexColor(), 'Hex color: `#` and six hex digits (stored upper-case).', '#1E88E5')),
  displayOrder: v.optional(described(integer(-1_000_000, 1_000_000), 'Sort order in lists (ascending).', 3)),
});

export const response = endpointResponse({
  data: LabelResult,
  message: 'Label created',
  description: 'The label as stored; `created` tells a create from an update.',
});

export const handler = apiEndpoint({
  path: 'labels/manage',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const label = await manageLabel(channel, input);
    return { data: label, message: label.created ? 'Label created' : 'Label updated' };
  },
});
