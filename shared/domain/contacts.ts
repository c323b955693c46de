import { createContact, firstContactPage, getContactsByPhone, updateContact, type ContactRecord } from '../data/contacts';
import { contactSearchKey } from '../data/contact-index';
import { readOptedOut, type ContactStatus } from '../data/contact-status';
import type { ChannelRef } from '../identity';
import { clock } from '../clock';
import { selectDeepPage, selectFromIndex } from './contact-index-select';
import { changesForCreate, checkedChanges, type ManageContactInput } from './contact-values';
import { contactView, labelsFor, toContactView, type ContactView } from './contact-view';
import { decodeCursor, encodeCursor } from './cursors';
import { changeContactStatus } from './opt-out';
import { fitPage } from './page-bytes';

/**
 * contacts/manage: creates the contact of a phone number or updates it. Labels and
 * custom fields are checked against the channel's definitions before anything is
 * written; required fields are enforced only when this call creates the contact.
 *
 * Definitions are read only when needed (docs/ARCHITECTURE.md, "DynamoDB calls per
 * request"): a request naming no labels and no custom fields skips them on an update.
 * Where they are needed, an update validates against definitions cached in this warm
 * container (`DEFINITIONS_CACHE_MS`) and re-reads them before refusing anything, so a
 * label or field created a moment ago elsewhere is never refused. A create always
 * reads them (consistently): required fields, and the values checked against the
 * current definitions, exactly as without a cache.
 */
export async function manageContact(channel: ChannelRef, input: ManageContactInput, actor?: { userId: string }): Promise<ContactView & { created: boolean }> {
  let checked = await checkedChanges(channel, input);
  let written: { contact: ContactRecord; created: boolean } | undefined;
  // Concurrent calls for one number converge on one item: an update, a conditional create when there is
  // none (after the create rules, which may refuse it before any write), an update again when a concurrent create won.
  while (!written) {
    const updated = await updateContact(channel, input.phoneNumber, checked.changes);
    if (updated) written = { contact: updated, created: false };
    else {
      checked = await changesForCreate(channel, input, checked);
      const created = await createContact(channel, input.phoneNumber, checked.changes);
      if (created) written = { contact: created, created: true };
    }
  }
  if (input.status !== undefined) {
    const change = { status: input.status, source: 'api' as const, at: clock.now(), userId: actor?.userId };
    written.contact = (await changeContactStatus(channel, written.contact, change)) ?? written.contact;
  }
  return { ...(await contactView(channel, written.contact, checked.definitions)), created: written.created };
}

export interface ListContactsInput {
  page: number;
  limit: number;
  search?: string;
  /** Only contacts with this opt-out status. */
  status?: ContactStatus;
  /** A previous page's `nextCursor`: the page starts at the contact it names instead of at `page`. */
  cursor?: string;
}

export interface ContactPage {
  contacts: ContactView[];
  total: number;
  /** The page of `limit` the first contact lies on. */
  page: number;
  /** Where the next page starts (null after the last contact); it also continues a page the byte bound ended early. */
  nextCursor: string | null;
}

/**
 * contacts/list, ordered by phone number: `limit` contacts from the page's position, or
 * fewer when they would not fit the answer's byte bound (shared/domain/page-bytes.ts).
 * The position is `page`'s, or the cursor's, which holds the place in the listing of
 * the first contact a previous page left out, signed and bound to the channel and the
 * filter (shared/domain/cursors.ts), so following `nextCursor` reaches every contact
 * exactly once (while none is added or erased meanwhile, as with page numbers).
 */
export async function listContacts(channel: ChannelRef, input: ListContactsInput): Promise<ContactPage> {
  const query = `contacts:${JSON.stringify([input.search ?? null, input.status ?? null])}`;
  const offset = input.cursor === undefined ? (input.page - 1) * input.limit : positionOf(await decodeCursor(input.cursor, channel.channelId, query));
  const { slots, total, defsVersion } = await selectContacts(channel, { ...input, offset });
  const contacts = slots.filter((contact) => contact !== undefined);
  const labels = await labelsFor(channel, contacts, defsVersion);
  const { items, used } = fitPage(slots.map((contact) => contact && toContactView(contact, labels)));
  const next = offset + used;
  return {
    contacts: items,
    total,
    page: Math.floor(offset / input.limit) + 1,
    nextCursor: next < total ? await encodeCursor(channel.channelId, query, String(next)) : null,
  };
}

const positionOf = (position: string) => (/^\d{1,15}$/.test(position) ? Number(position) : 0);

/**
 * The contacts of the listing's places `offset` to `offset + limit`, one slot a place (empty for a contact erased or
 * being erased meanwhile). Page 1 without a search is one query (head item + first page); deeper pages and searches
 * read the compact index, then fetch only the page's contacts.
 */
async function selectContacts(
  channel: ChannelRef,
  input: Omit<ListContactsInput, 'page' | 'cursor'> & { offset: number },
): Promise<{ slots: (ContactRecord | undefined)[]; total: number; defsVersion?: number }> {
  const { offset, limit } = input;
  if (offset === 0 && input.search === undefined && input.status === undefined) {
    const { head, contacts } = await firstContactPage(channel, limit);
    // A contact being erased is already out of the count and the index (so it holds no place); hide it here too.
    return { slots: contacts.filter((contact) => contact.erasing === undefined), total: head.contactCount, defsVersion: head.defsVersion };
  }
  // Without a status filter or search: a deep page from this container's phone order when current; otherwise the
  // index streamed keeping only the page (docs/PERFORMANCE.md, "Large channels"), tested against the search and the
  // channel's opted-out sets (one query); `opted_out` without a search needs only the sets.
  let phones: string[];
  let total: number;
  const bySearch = input.search === undefined ? undefined : matcher(input.search);
  if (input.status === undefined && bySearch === undefined) {
    ({ phones, total } = await selectDeepPage(channel, offset, limit));
  } else if (input.status === 'opted_out' && bySearch === undefined) {
    const optedOut = [...(await readOptedOut(channel))].sort();
    phones = optedOut.slice(offset, offset + limit);
    total = optedOut.length;
  } else {
    const optedOut = input.status === undefined ? undefined : await readOptedOut(channel);
    const wantOptedOut = input.status === 'opted_out';
    const matches = (phone: string, name: string) => (!bySearch || bySearch(phone, name)) && (!optedOut || optedOut.has(phone) === wantOptedOut);
    ({ phones, total } = await selectFromIndex(channel, { offset, limit, matches }));
  }
  const byPhone = new Map((phones.length ? await getContactsByPhone(channel, phones) : []).map((contact) => [contact.phone, contact]));
  return { slots: phones.map((phone) => byPhone.get(phone)).map((contact) => (contact?.erasing === undefined ? contact : undefined)), total };
}

/** Case-insensitive substring of the name, or substring of the phone digits (`+`, spaces and dashes ignored). */
function matcher(search: string) {
  const needle = contactSearchKey(search);
  const digits = search.replace(/[\s+\-().]/g, '');
  const phoneSearch = /^\d+$/.test(digits);
  return (phone: string, name: string) => name.includes(needle) || (phoneSearch && phone.includes(digits));
}
