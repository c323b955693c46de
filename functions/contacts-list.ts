import * as v from 'valibot';
import { listContacts } from '../shared/domain/contacts';
import { ContactSummary } from '../shared/domain/contact-view';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse, viewOf } from '../shared/schema/responses';
import { channelId, contactStatus, cursorOf, integer, LIMITS, optionalText, text } from '../shared/schema/params';

/** Largest page size; a larger `limit` is clamped to it (and `pagination.limit` says so). */
export const MAX_PAGE_SIZE = 200;

export const schema = v.object({
  channelId: channelId(),
  page: described(v.optional(integer(1, 1_000_000), 1), 'Page number, from 1.', 1),
  limit: v.pipe(
    v.optional(integer(1, Number.MAX_SAFE_INTEGER), 50),
    v.transform((limit) => Math.min(limit, MAX_PAGE_SIZE)),
    v.description(`Page size. Values above ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE} (\`pagination.limit\` then says ${MAX_PAGE_SIZE}).`),
    // The effective maximum of the clamped value.
    v.metadata({ maximum: MAX_PAGE_SIZE }),
    v.examples([20]),
  ),
  /** An empty search is no filter, as in a search box. */
  search: v.pipe(
    v.optional(optionalText(LIMITS.search)),
    v.transform((s) => (s ? s : undefined)),
    v.description('Case-insensitive substring of the name, or digits of the phone number (a `+` and spaces are ignored). Empty means no filter.'),
    v.examples(['example']),
  ),
  status: v.optional(described(contactStatus(), 'Only contacts with this opt-out status (`active` or `opted_out`).', 'opted_out')),
  cursor: v.optional(cursorOf(text(1024))),
});

export const response = endpointResponse({
  data: v.array(ContactSummary),
  envelope: 'pagination',
  description:
    'One page of the contacts, ordered by phone number; `pagination` counts all matches. A page holds `limit` contacts unless they would pass 5 MB of answer: it then ends early, and `pagination.nextCursor` (given on every page but the last) continues exactly after its last contact.',
});

export const handler = apiEndpoint({
  path: 'contacts/list',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { contacts, total, page, nextCursor } = await listContacts(channel, input);
    const { limit } = input;
    return {
      data: contacts.map((contact) => viewOf(ContactSummary, contact)),
      pagination: { page, limit, total, pages: Math.ceil(total / limit), nextCursor },
    };
  },
});
