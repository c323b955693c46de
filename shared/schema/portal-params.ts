import * as v from 'valibot';
import { described } from './docs';
import { identifier, text } from './params';

/** The portal API's parameters (INTERFACE §17). */
export const keyName = () => described(text(100), 'A name for the key, to tell it apart in the keys list.', 'CRM sync');
export const keyExpiresAt = () =>
  v.optional(described(text(40), 'When the key stops working (ISO 8601, in the future); none = never.', '2027-01-31T00:00:00Z'));
export const keyId = () => described(identifier(), 'Id of one of your keys (GET /portal/api/keys).', 'key_01jhx3k8m0');
