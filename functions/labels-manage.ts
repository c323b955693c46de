import * as v from 'valibot';
import { upsertLabel } from '../shared/data/definitions';
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
  handle: async ({ name, description, color, displayOrder }, { principal, channelId }) => {
    const changes = { description: description === undefined ? undefined : description || null, color, displayOrder };
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const { label, created } = await upsertLabel(principal.workspaceId, channelId, name, defined);
    return { data: { ...label, created }, message: created ? 'Label created' : 'Label updated' };
  },
});
