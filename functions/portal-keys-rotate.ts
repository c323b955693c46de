import * as v from 'valibot';
import { rotatePortalKey } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';
import { keyId } from '../shared/schema/portal-params';

export const schema = v.object({ keyId: keyId() });

/** POST /portal/api/keys/rotate: a new key with the old one's name (its value in this answer only), then the old one revoked. */
export const handler = portalEndpoint({ name: 'PortalKeysRotate', schema, handle: (input, { principal }) => rotatePortalKey(principal, input.keyId) });
