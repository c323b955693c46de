import * as v from 'valibot';
import { portalRedeliver } from '../shared/domain/portal-webhooks';
import { portalEndpoint } from '../shared/http/portal-handler';
import { redeliverParameters } from '../shared/schema/webhook-params';

export const schema = v.object(redeliverParameters);

/** POST /portal/api/webhooks/redeliver {webhookId, eventId}: the event goes to the subscription again (same webhook-id), as the API's webhooks/redeliver. */
export const handler = portalEndpoint({ name: 'PortalWebhooksRedeliver', schema, handle: (input, { principal }) => portalRedeliver(principal, input) });
