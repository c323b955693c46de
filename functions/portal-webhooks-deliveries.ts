import * as v from 'valibot';
import { portalWebhookDeliveries } from '../shared/domain/portal-webhooks';
import { portalEndpoint } from '../shared/http/portal-handler';
import { deliveriesParameters } from '../shared/schema/webhook-params';

export const schema = v.object(deliveriesParameters);

/** GET /portal/api/webhooks/deliveries?webhookId=: one subscription's deliveries, newest first, as the API's webhooks/deliveries: {deliveries, nextCursor}. */
export const handler = portalEndpoint({
  name: 'PortalWebhooksDeliveries',
  schema,
  handle: (input, { principal }) => portalWebhookDeliveries(principal, input),
});
