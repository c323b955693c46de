import { createContact, firstContactPage, getContactsByPhone, updateContact, type ContactRecord } from '../data/contacts';
import { contactSearchKey } from '../data/contact-index';
import { readOptedOut, type ContactStatus } from '../data/contact-status';
import type { ChannelRef } from '../identity';
import { clock } from '../clock';
import { selectDeepPage, selectFromIndex } from './contact-index-select';
import { changesForCreate, checkedChanges, type ManageContactInput } from './contact-values';
import { contactView, labelsFor, toContactView, type ContactView } from './contact-view';
import { changeContactStatus } from './opt-out';

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
}

export interface ContactPage {
  contacts: ContactView[];
  total: number;
}

/**
 * contacts/list, ordered by phone number. Page 1 without a search is one query
 * (head item + first page); deeper pages and searches read the compact index, then
 * fetch only the page's contacts.
 */
export async function listContacts(channel: ChannelRef, input: ListContactsInput): Promise<ContactPage> {
  const offset = (input.page - 1) * input.limit;
  if (input.page === 1 && input.search === undefined && input.status === undefined) {
    const { head, contacts: page } = await firstContactPage(channel, input.limit);
    // A contact being erased is already out of the count and the index; hide it here too.
    const contacts = page.filter((contact) => contact.erasing === undefined);
    const labels = await labelsFor(channel, contacts, head.defsVersion);
    return { contacts: contacts.map((contact) => toContactView(contact, labels)), total: head.contactCount };
  }
  // Without a status filter or search: a deep page from this container's phone order when current; otherwise the
  // index streamed keeping only the page (docs/PERFORMANCE.md, "Large channels"), tested against the search and the
  // channel's opted-out sets (one query); `opted_out` without a search needs only the sets.
  let phones: string[];
  let total: number;
  const bySearch = input.search === undefined ? undefined : matcher(input.search);
  if (input.status === undefined && bySearch === undefined) {
    ({ phones, total } = await selectDeepPage(channel, offset, input.limit));
  } else if (input.status === 'opted_out' && bySearch === undefined) {
    const optedOut = [...(await readOptedOut(channel))].sort();
    phones = optedOut.slice(offset, offset + input.limit);
    total = optedOut.length;
  } else {
    const optedOut = input.status === undefined ? undefined : await readOptedOut(channel);
    const wantOptedOut = input.status === 'opted_out';
    const matches = (phone: string, name: string) => (!bySearch || bySearch(phone, name)) && (!optedOut || optedOut.has(phone) === wantOptedOut);
    ({ phones, total } = await selectFromIndex(channel, { offset, limit: input.limit, matches }));
  }
  const contacts = (phones.length ? await getContactsByPhone(channel, phones) : []).filter((contact) => contact.erasing === undefined);
  const labels = await labelsFor(channel, contacts);
  return { contacts: contacts.map((contact) => toContactView(contact, labels)), total };
}

/** Case-insensitive substring of the name, or substring of the phone digits (`+`, spaces and dashes ignored). */
function matcher(search: string) {
  const needle = contactSearchKey(search);
  const digits = search.replace(/[\s+\-().]/g, '');
  const phoneSearch = /^\d+$/.test(digits);
  return (phone: string, name: string) => name.includes(needle) || (phoneSearch && phone.includes(digits));
}
