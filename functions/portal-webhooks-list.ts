import * as v from 'valibot';
import { listPortalWebhooks } from '../shared/domain/portal-webhooks';
import { portalEndpoint } from '../shared/http/portal-handler';
import { described } from '../shared/schema/docs';
import { identifier } from '../shared/schema/params';
import { Webhook, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object({
  channelId: v.optional(described(identifier(), 'Only this channel’s subscriptions; absent = every channel you may use.', 'ch_demoacmesupport')),
});

export const response: PortalResponse = {
  body: v.array(Webhook),
  description: 'The subscriptions of the user’s channels, as webhooks/list shows them; never a secret.',
};

/** GET /portal/api/webhooks: the subscriptions of the user's channels, as the API's webhooks/list shows them (with channelId); never a secret. */
export const handler = portalEndpoint({ name: 'PortalWebhooksList', schema, handle: (input, { principal }) => listPortalWebhooks(principal, input) });
