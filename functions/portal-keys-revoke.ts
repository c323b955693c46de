import * as v from 'valibot';
import { revokePortalKey } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';
import { keyId } from '../shared/schema/portal-params';

export const schema = v.object({ keyId: keyId() });

/** POST /portal/api/keys/revoke: the key stops working within 10 seconds (the authorizer's key cache). */
export const handler = portalEndpoint({ name: 'PortalKeysRevoke', schema, handle: (input, { principal }) => revokePortalKey(principal, input.keyId) });
