import * as v from 'valibot';
import { listPortalKeys } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';
import { PortalKey, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object({});

export const response: PortalResponse = { body: v.array(PortalKey), description: 'The user’s own keys, newest first; never a secret.' };

/** GET /portal/api/keys: the signed-in user's own keys, newest first; never a secret. */
export const handler = portalEndpoint({ name: 'PortalKeysList', schema, handle: (_input, { principal }) => listPortalKeys(principal) });
