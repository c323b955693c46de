import * as v from 'valibot';
import { revokePortalKey } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';
import { keyId } from '../shared/schema/portal-params';
import { PortalRevokedKey, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object({ keyId: keyId() });

export const response: PortalResponse = { body: PortalRevokedKey, description: 'The key is revoked: the API refuses it within 10 seconds.', errors: [404] };

/** POST /portal/api/keys/revoke: the key stops working within 10 seconds (the authorizer's key cache). */
export const handler = portalEndpoint({ name: 'PortalKeysRevoke', schema, handle: (input, { principal }) => revokePortalKey(principal, input.keyId) });
