import * as v from 'valibot';
import { manageWebhook } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { boolean, channelId, LIMITS, nameList, optionalText, text } from '../shared/schema/params';

export const schema = v.object({
  url: text(LIMITS.url),
  channelId: channelId(),
  /** Event types, `*` or absent for every type. */
  events: v.optional(nameList(10, 64)),
  isActive: v.optional(boolean()),
  /** An empty description clears it. */
  description: v.optional(optionalText(LIMITS.shortText)),
  rotateSecret: v.optional(boolean()),
});

export const handler = apiEndpoint({
  path: 'webhooks/manage',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const webhook = await manageWebhook(channel, input);
    const message = webhook.created
      ? 'Webhook created; store the secret now, it is not shown again'
      : webhook.secret
        ? 'Webhook secret rotated; the previous secret signs too for 24 hours'
        : 'Webhook updated';
    return { data: webhook, message };
  },
});
