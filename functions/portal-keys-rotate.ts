import * as v from 'valibot';
import { rotatePortalKey } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';
import { keyId } from '../shared/schema/portal-params';
import { PortalRotatedKey, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object({ keyId: keyId() });

export const response: PortalResponse = {
  body: PortalRotatedKey,
  description: 'The new key (its value shown in this answer only); the old one is revoked.',
  errors: [404],
};
/** POST /portal/api/keys/rotate: a new key with the old one's name (its value in this answer only), then the old one revoked. */
export const handler = portalEndpoint({ name: 'PortalKeysRotate', schema, handle: (input, { principal }) => rotatePortalKey(principal, input.keyId) });
