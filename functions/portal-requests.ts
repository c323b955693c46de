import * as v from 'valibot';
import { keyRequests } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';
import { keyId } from '../shared/schema/portal-params';
import { PortalRequest, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object({ keyId: keyId() });

export const response: PortalResponse = {
  body: v.array(PortalRequest),
  description: 'The key’s last 100 requests of the last 7 days, newest first.',
  errors: [404],
};

/** GET /portal/api/requests?keyId=: one key's last 100 requests, newest first (no bodies, no phone numbers). */
export const handler = portalEndpoint({ name: 'PortalRequests', schema, handle: (input, { principal }) => keyRequests(principal, input.keyId) });
