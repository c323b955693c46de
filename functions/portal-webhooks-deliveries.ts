import * as v from 'valibot';
import { portalWebhookDeliveries } from '../shared/domain/portal-webhooks';
import { portalEndpoint } from '../shared/http/portal-handler';
import { deliveriesParameters } from '../shared/schema/webhook-params';
import { PortalDeliveries, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object(deliveriesParameters);

export const response: PortalResponse = {
  body: PortalDeliveries,
  description: 'The subscription’s deliveries, newest event first, as webhooks/deliveries shows them.',
  errors: [404],
};

/** GET /portal/api/webhooks/deliveries?webhookId=: one subscription's deliveries, newest first, as the API's webhooks/deliveries: {deliveries, nextCursor}. */
export const handler = portalEndpoint({
  name: 'PortalWebhooksDeliveries',
  schema,
  handle: (input, { principal }) => portalWebhookDeliveries(principal, input),
});
