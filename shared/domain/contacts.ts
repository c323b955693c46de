import { TtlCache } from '../cache/ttl-cache';
import { clock } from '../clock';
import {
  createContact,
  firstContactPage,
  getContactsByPhone,
  updateContact,
  type ContactChanges,
  type ContactRecord,
  type CustomFieldValue,
} from '../data/contacts';
import { readOptedOut, type ContactStatus } from '../data/contact-status';
import { listDefinitions, listLabels, type CustomFieldRecord, type LabelRecord } from '../data/definitions';
import { contactSearchKey } from '../data/contact-index';
import { matchKey, type ChannelRef } from '../identity';
import { InvalidInputError } from '../errors';
import { selectDeepPage, selectFromIndex } from './contact-index-select';
import { missingRequiredFields, validateCustomFieldValues } from './custom-field-values';
import { changeContactStatus } from './opt-out';

export interface ContactView {
  id: string;
  name: string | null;
  phone: string;
  email: string | null;
  profilePictureUrl: string | null;
  labels: Array<{ id: string; name: string; color: string }>;
  customFields: Record<string, CustomFieldValue>;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export interface ManageContactInput {
  phoneNumber: string;
  name?: string;
  email?: string;
  profilePictureUrl?: string;
  customFieldsData?: Record<string, string | number | boolean | null>;
  labelNames?: string[];
  /** Opt-out status (`active` or `opted_out`): applied and recorded by shared/domain/opt-out.ts. */
  status?: ContactStatus;
}

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
  const checked = await checkValues(channel, input, namesDefinitions(input) ? await cachedDefinitions(channel) : undefined);
  let { definitions } = checked;
  let changes = contactChanges(input, checked.values);
  let written: { contact: ContactRecord; created: boolean } | undefined;
  // Concurrent calls for one number converge on one item: an update, a conditional create when there is
  // none (after the create rules), an update again when a concurrent create won.
  while (!written) {
    const updated = await updateContact(channel, input.phoneNumber, changes);
    if (updated) written = { contact: updated, created: false };
    else {
      // The create rules, before any write: the current definitions (read once; a create never stores what cached
      // definitions made of a value, e.g. of a field whose type just changed), and every required field (a 400).
      if (!definitions?.current) {
        definitions = await readDefinitions(channel);
        changes = contactChanges(input, definedValues(input, definitions));
      }
      const missing = missingRequiredFields(definitions.fields, changes.customFields ?? {});
      if (missing.length > 0) throw missingFieldsError(missing);
      const created = await createContact(channel, input.phoneNumber, changes);
      if (created) written = { contact: created, created: true };
    }
  }
  if (input.status !== undefined) {
    const change = { status: input.status, source: 'api' as const, at: clock.now(), userId: actor?.userId };
    written.contact = (await changeContactStatus(channel, written.contact, change)) ?? written.contact;
  }
  const labels = await labelsToShow(channel, written.contact, definitions);
  return { ...toContactView(written.contact, labels), created: written.created };
}

/** The refusal of a create that lacks required custom fields. */
export const missingFieldsError = (missing: string[]) =>
  new InvalidInputError(`Missing required custom fields for a new contact: ${missing.join(', ')}.`, 'customFieldsData', 'missing_parameter', { missing });

/** The request's label ids and custom-field values, and the definitions they were checked against (none when it names neither). */
interface Checked {
  definitions?: Definitions;
  values: DefinedValues;
}

export interface DefinedValues {
  labelIds?: string[];
  customFields?: Record<string, CustomFieldValue | null>;
}

export interface Definitions {
  labels: LabelRecord[];
  fields: CustomFieldRecord[];
  /** Read by this request (consistently), not taken from the cache. */
  current: boolean;
}

const NO_DEFINITIONS: Definitions = { labels: [], fields: [], current: false };

/** Whether the request's own values need the definitions: a label name, or a custom-field key. */
const namesDefinitions = (input: ManageContactInput) => (input.labelNames?.length ?? 0) > 0 || Object.keys(input.customFieldsData ?? {}).length > 0;

/** What a contacts/manage request (or a contacts/import row) writes, given its checked label ids and custom-field values. */
export function contactChanges(input: ManageContactInput, values: DefinedValues): ContactChanges {
  return { name: input.name, email: input.email, profilePictureUrl: input.profilePictureUrl, ...values };
}

/** The label ids and custom-field values the request sets, checked against `definitions` (400 naming what they lack). */
export function definedValues(input: ManageContactInput, definitions: Definitions): DefinedValues {
  return {
    labelIds: input.labelNames && resolveLabelIds(input.labelNames, definitions.labels),
    customFields: input.customFieldsData && validateCustomFieldValues(input.customFieldsData, definitions.fields, definitions.labels),
  };
}

/** Checks the request against `definitions`; a refusal by cached definitions is checked again against a fresh read first. */
async function checkValues(channel: ChannelRef, input: ManageContactInput, definitions: Definitions | undefined): Promise<Checked> {
  try {
    return { definitions, values: definedValues(input, definitions ?? NO_DEFINITIONS) };
  } catch (error) {
    if (!(error instanceof InvalidInputError) || !definitions || definitions.current) throw error;
    const fresh = await readDefinitions(channel);
    return { definitions: fresh, values: definedValues(input, fresh) };
  }
}

/** The labels needed to show the contact's labels: none without labels, else the definitions at hand, re-read once if they lack one. */
async function labelsToShow(channel: ChannelRef, contact: ContactRecord, definitions: Definitions | undefined): Promise<LabelRecord[]> {
  const ids = contact.labelIds ?? [];
  if (ids.length === 0) return [];
  let labels = definitions ?? (await cachedDefinitions(channel));
  if (!labels.current && ids.some((id) => !labels.labels.some((label) => label.id === id))) labels = await readDefinitions(channel);
  return labels.labels;
}

/**
 * How long definitions cached per warm container are used without a read (contacts/manage;
 * contacts/list where no version is at hand). A change less than this long ago may be
 * missed by a container that cached the definitions before it: see docs/ARCHITECTURE.md.
 */
const DEFINITIONS_CACHE_MS = 5_000;

/** Fetched less than `DEFINITIONS_CACHE_MS` ago (and not in the future: tests move the clock). */
const isYoung = (fetchedAt: number) => {
  const age = clock.now() - fetchedAt;
  return age >= 0 && age < DEFINITIONS_CACHE_MS;
};

/**
 * Label and custom-field definitions for contacts/manage, per warm container and
 * channel, for `DEFINITIONS_CACHE_MS` (no version is at hand without a read). Bounded:
 * the channel loaded longest ago goes first.
 */
const definitionsCache = new TtlCache<string, { labels: LabelRecord[]; fields: CustomFieldRecord[] }>({ maxAgeMs: DEFINITIONS_CACHE_MS, maxEntries: 256 });

/** The channel's definitions from this container's cache (not `current`), else read now (`current`). */
async function cachedDefinitions(channel: ChannelRef): Promise<Definitions> {
  let read = false;
  const { labels, fields } = await definitionsCache.get(`${channel.workspaceId}#${channel.channelId}`, () => {
    read = true;
    return listDefinitions(channel);
  });
  return { labels, fields, current: read };
}

/** The channel's definitions read now (a create, or a re-read before refusing); the cache keeps them. */
async function readDefinitions(channel: ChannelRef): Promise<Definitions> {
  const { labels, fields } = await definitionsCache.reload(`${channel.workspaceId}#${channel.channelId}`, () => listDefinitions(channel));
  return { labels, fields, current: true };
}

/** Maps label names to ids; names the channel lacks are a 400 naming them (typos must not create labels). */
function resolveLabelIds(names: string[], labels: LabelRecord[]): string[] {
  const byKey = new Map(labels.map((label) => [matchKey(label.name), label.id]));
  const unknown = names.filter((name) => !byKey.has(matchKey(name)));
  if (unknown.length > 0) {
    throw new InvalidInputError(`Unknown labels: ${unknown.join(', ')}. Create them with labels/manage first.`, 'labelNames', 'invalid_parameter', { unknown });
  }
  return names.map((name) => byKey.get(matchKey(name))!);
}

/** Label definitions by id, built once per page (not once per contact: a channel may have thousands). */
const labelsById = (labels: LabelRecord[]): ReadonlyMap<string, LabelRecord> => new Map(labels.map((label) => [label.id, label]));

export function toContactView(contact: ContactRecord, labels: LabelRecord[] | ReadonlyMap<string, LabelRecord>): ContactView {
  const byId = labels instanceof Map ? labels : labelsById(labels as LabelRecord[]);
  return {
    id: contact.id,
    name: contact.name ?? null,
    phone: contact.phone,
    email: contact.email ?? null,
    profilePictureUrl: contact.profilePictureUrl ?? null,
    labels: (contact.labelIds ?? []).flatMap((id) => {
      const label = byId.get(id);
      return label ? [{ id: label.id, name: label.name, color: label.color }] : [];
    }),
    customFields: contact.customFields ?? {},
    status: contact.status ?? 'active',
    createdAt: contact.createdAt,
    updatedAt: contact.updatedAt,
  };
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
    const byId = labelsById(labels);
    return { contacts: contacts.map((contact) => toContactView(contact, byId)), total: head.contactCount };
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
  const byId = labelsById(labels);
  return { contacts: contacts.map((contact) => toContactView(contact, byId)), total };
}

/** Case-insensitive substring of the name, or substring of the phone digits (`+`, spaces and dashes ignored). */
function matcher(search: string) {
  const needle = contactSearchKey(search);
  const digits = search.replace(/[\s+\-().]/g, '');
  const phoneSearch = /^\d+$/.test(digits);
  return (phone: string, name: string) => name.includes(needle) || (phoneSearch && phone.includes(digits));
}

/**
 * Label definitions for rendering contacts, cached per warm container: reused while
 * the channel's definitions version (read with page 1 at no extra cost) is unchanged,
 * or for `DEFINITIONS_CACHE_MS` where the version is not at hand.
 */
const labelCache = new TtlCache<string, { version?: number; labels: LabelRecord[] }>({ maxAgeMs: Infinity, maxEntries: 256 });

async function labelsFor(channel: ChannelRef, contacts: ContactRecord[], version?: number): Promise<LabelRecord[]> {
  if (!contacts.some((contact) => contact.labelIds?.length)) return [];
  const cached = await labelCache.get(
    `${channel.workspaceId}#${channel.channelId}`,
    async () => ({ version, labels: await listLabels(channel) }),
    (entry) => (version !== undefined ? entry.value.version === version : isYoung(entry.loadedAt)),
  );
  return cached.labels;
}
