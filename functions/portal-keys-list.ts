import * as v from 'valibot';
import { listPortalKeys } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';

export const schema = v.object({});

/** GET /portal/api/keys: the signed-in user's own keys, newest first; never a secret. */
export const handler = portalEndpoint({ name: 'PortalKeysList', schema, handle: (_input, { principal }) => listPortalKeys(principal) });
