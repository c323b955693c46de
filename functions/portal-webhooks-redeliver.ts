import * as v from 'valibot';
import { portalRedeliver } from '../shared/domain/portal-webhooks';
import { portalEndpoint } from '../shared/http/portal-handler';
import { redeliverParameters } from '../shared/schema/webhook-params';
import { Redelivery, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object(redeliverParameters);

export const response: PortalResponse = {
  body: Redelivery,
  description: 'The event is queued for the subscription again, with the same webhook-id.',
  errors: [404, 409],
};
/** POST /portal/api/webhooks/redeliver {webhookId, eventId}: the event goes to the subscription again (same webhook-id), as the API's webhooks/redeliver. */
export const handler = portalEndpoint({ name: 'PortalWebhooksRedeliver', schema, handle: (input, { principal }) => portalRedeliver(principal, input) });
