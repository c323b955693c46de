import { clock } from '../clock';
import {
  firstContactPage,
  getContactsByPhone,
  readContactIndex,
  upsertContact,
  type ContactRecord,
  type CustomFieldValue,
} from '../data/contacts';
import { listDefinitions, listLabels, type LabelRecord } from '../data/definitions';
import { matchKey } from '../data/keys';
import { BadRequestError } from '../http/errors';
import { missingRequiredFields, validateCustomFieldValues } from './custom-field-values';

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
}

/**
 * contacts/manage: creates the contact of a phone number or updates it. Labels and
 * custom fields are checked against the channel's definitions before anything is
 * written; required fields are enforced only when this call creates the contact.
 */
export async function manageContact(workspaceId: string, channelId: string, input: ManageContactInput): Promise<ContactView & { created: boolean }> {
  const { labels, fields } = await listDefinitions(workspaceId, channelId);
  const labelIds = input.labelNames && resolveLabelIds(input.labelNames, labels);
  const customFields = input.customFieldsData && validateCustomFieldValues(input.customFieldsData, fields, labels);
  const missing = missingRequiredFields(fields, customFields ?? {});
  const result = await upsertContact(
    workspaceId,
    channelId,
    input.phoneNumber,
    { name: input.name, email: input.email, profilePictureUrl: input.profilePictureUrl, labelIds, customFields },
    () => missing.length === 0,
  );
  if (!result) {
    throw new BadRequestError(`Missing required custom fields for a new contact: ${missing.join(', ')}.`, 'customFieldsData', 'missing_parameter', { missing });
  }
  return { ...toContactView(result.contact, labels), created: result.created };
}

/** Maps label names to ids; names the channel lacks are a 400 naming them (typos must not create labels). */
function resolveLabelIds(names: string[], labels: LabelRecord[]): string[] {
  const byKey = new Map(labels.map((label) => [matchKey(label.name), label.id]));
  const unknown = names.filter((name) => !byKey.has(matchKey(name)));
  if (unknown.length > 0) {
    throw new BadRequestError(`Unknown labels: ${unknown.join(', ')}. Create them with labels/manage first.`, 'labelNames', 'invalid_parameter', { unknown });
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
export async function listContacts(workspaceId: string, channelId: string, input: ListContactsInput): Promise<ContactPage> {
  const offset = (input.page - 1) * input.limit;
  if (input.page === 1 && input.search === undefined) {
    const { head, contacts } = await firstContactPage(workspaceId, channelId, input.limit);
    const labels = await labelsFor(workspaceId, channelId, contacts, head.defsVersion);
    const byId = labelsById(labels);
    return { contacts: contacts.map((contact) => toContactView(contact, byId)), total: head.contactCount };
  }
  const index = await readContactIndex(workspaceId, channelId);
  const matches = input.search === undefined ? index : index.filter(matcher(input.search));
  const phones = matches.slice(offset, offset + input.limit).map((entry) => entry.phone);
  const contacts = phones.length ? await getContactsByPhone(workspaceId, channelId, phones) : [];
  const labels = await labelsFor(workspaceId, channelId, contacts);
  const byId = labelsById(labels);
  return { contacts: contacts.map((contact) => toContactView(contact, byId)), total: matches.length };
}

/** Case-insensitive substring of the name, or substring of the phone digits (`+`, spaces and dashes ignored). */
function matcher(search: string) {
  const needle = search.toLowerCase();
  const digits = search.replace(/[\s+\-().]/g, '');
  const phoneSearch = /^\d+$/.test(digits);
  return (entry: { phone: string; name: string }) => entry.name.includes(needle) || (phoneSearch && entry.phone.includes(digits));
}

/**
 * Label definitions for rendering contacts, cached per warm container: reused while
 * the channel's definitions version (read with page 1 at no extra cost) is unchanged,
 * or for a few seconds where the version is not at hand.
 */
const labelCache = new Map<string, { version?: number; fetchedAt: number; labels: LabelRecord[] }>();
const LABEL_CACHE_MS = 5_000;

async function labelsFor(workspaceId: string, channelId: string, contacts: ContactRecord[], version?: number): Promise<LabelRecord[]> {
  if (!contacts.some((contact) => contact.labelIds?.length)) return [];
  const key = `${workspaceId}#${channelId}`;
  const cached = labelCache.get(key);
  const fresh = cached && (version !== undefined ? cached.version === version : clock.now() - cached.fetchedAt < LABEL_CACHE_MS);
  if (fresh) return cached.labels;
  const labels = await listLabels(workspaceId, channelId);
  labelCache.set(key, { version, fetchedAt: clock.now(), labels });
  return labels;
}
