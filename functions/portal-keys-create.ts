import * as v from 'valibot';
import { createPortalKey } from '../shared/domain/portal-keys';
import { portalEndpoint } from '../shared/http/portal-handler';
import { keyExpiresAt, keyName } from '../shared/schema/portal-params';
import { PortalCreatedKey, type PortalResponse } from '../shared/domain/portal-views';

export const schema = v.object({ name: keyName(), expiresAt: keyExpiresAt() });

export const response: PortalResponse = { body: PortalCreatedKey, description: 'The new key: its value is shown in this answer only.' };

/** POST /portal/api/keys: a new key of the signed-in user's API user; its value is in this answer only. */
export const handler = portalEndpoint({ name: 'PortalKeysCreate', schema, handle: (input, { principal }) => createPortalKey(principal, input) });
