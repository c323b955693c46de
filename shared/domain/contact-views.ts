import * as v from 'valibot';
import { described } from '../schema/docs';
import { component, created, timestamp } from '../schema/responses';
import { Label } from './definitions';

/** What the contact endpoints answer (contacts/manage, contacts/list, contacts/import, contacts/delete). */

const customFieldValues = described(v.record(v.string(), v.union([v.string(), v.number()])), 'Custom field values by field name', {
  city: 'Oakland',
  tier: 'gold',
});

const contactEntries = {
  id: described(v.string(), 'Contact id', 'ct_01jhx3k8m0'),
  name: described(v.nullable(v.string()), 'Display name, or null', 'Bo Example'),
  phone: described(v.string(), 'Phone number: digits with country code, no plus', '14155550123'),
  email: described(v.nullable(v.string()), 'Email address, or null', 'bo@example.com'),
  labels: described(v.array(v.pick(Label, ['id', 'name', 'color'])), 'Labels attached to the contact'),
  customFields: customFieldValues,
  status: described(
    v.picklist(['active', 'opted_out']),
    'Opt-out status: opted_out after an opt-out keyword (STOP, …) or contacts/manage status; sends to it are refused (403 contact_opted_out)',
    'active',
  ),
};

/** A contact as contacts/list shows it. */
export const ContactSummary = component('ContactSummary', v.strictObject(contactEntries));

/** A contact as contacts/manage answers it. */
export const ContactResult = component(
  'ContactResult',
  v.strictObject({
    ...contactEntries,
    profilePictureUrl: described(v.nullable(v.string()), 'Profile picture URL, or null', 'https://example.com/bo.jpg'),
    createdAt: timestamp('When the contact was created'),
    updatedAt: timestamp('When the contact was last changed'),
    created,
  }),
);

const ImportRowError = v.strictObject({
  index: described(v.pipe(v.number(), v.integer()), 'Position of the row in `contacts` (from 0)', 7),
  phoneNumber: described(v.nullable(v.string()), 'The row’s phone number (normalized when it could be), or null', '14155550123'),
  error: described(v.string(), 'The error code contacts/manage would answer for this row', 'invalid_parameter'),
  message: described(v.string(), 'What is wrong with the row', 'Unknown labels: Nope. Create them with labels/manage first.'),
  parameter: v.optional(described(v.string(), 'The row’s parameter at fault', 'labelNames')),
});

/** What contacts/import answers: the rows applied, and each refused row by its index. */
export const ImportResult = v.strictObject({
  created: described(v.pipe(v.number(), v.integer()), 'Contacts this call created', 998),
  updated: described(v.pipe(v.number(), v.integer()), 'Existing contacts this call updated (a re-run of the same rows only updates)', 1),
  failed: described(v.pipe(v.number(), v.integer()), 'Rows not applied; each is in `errors`', 1),
  errors: described(v.array(ImportRowError), 'The rows not applied, by index'),
});

/** What contacts/delete answers. */
export const ContactDeleted = component(
  'ContactDeleted',
  v.strictObject({
    id: described(v.string(), 'The erased contact’s id', 'ct_01jhx3k8m0'),
    deleted: described(v.literal(true), 'Always true', true),
  }),
);
