import * as v from 'valibot';
import { listContacts } from '../shared/domain/contacts';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, contactStatus, integer, LIMITS, optionalText } from '../shared/schema/params';

/** Largest page size; a larger `limit` is clamped to it (and `pagination.limit` says so). */
export const MAX_PAGE_SIZE = 200;

export const schema = v.object({
  channelId: channelId(),
  page: v.optional(integer(1, 1_000_000), 1),
  limit: v.pipe(
    v.optional(integer(1, Number.MAX_SAFE_INTEGER), 50),
    v.transform((limit) => Math.min(limit, MAX_PAGE_SIZE)),
  ),
  /** An empty search is no filter, as in a search box. */
  search: v.pipe(
    v.optional(optionalText(LIMITS.search)),
    v.transform((s) => (s ? s : undefined)),
  ),
  /** Only contacts with this opt-out status. */
  status: v.optional(contactStatus()),
});

export const handler = apiEndpoint({
  path: 'contacts/list',
  schema,
  channelScoped: true,
  handle: async ({ page, limit, search, status }, { channel }) => {
    const { contacts, total } = await listContacts(channel, { page, limit, search, status });
    const data = contacts.map(({ id, name, phone, email, labels, customFields, status }) => ({ id, name, phone, email, labels, customFields, status }));
    return { data, pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
  },
});
