import * as v from 'valibot';
import { keyUsage } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';
import { keyId } from '../shared/schema/portal-params';
import { PortalKeyUsage, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object({ keyId: keyId() });

export const response: PortalResponse = {
  body: PortalKeyUsage,
  description: 'The key’s requests by rate class over 24 hours and 7 days, its 429s, and a day-by-day count.',
  errors: [404],
};

/** GET /portal/api/usage?keyId=: one key's requests by rate class over 24 hours and 7 days, its 429s, and a day-by-day count. */
export const handler = portalEndpoint({ name: 'PortalUsage', schema, handle: (input, { principal }) => keyUsage(principal, input.keyId) });
