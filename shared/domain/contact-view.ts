import * as v from 'valibot';
import { TtlCache } from '../cache/ttl-cache';
import { ContactItem, type ContactRecord } from '../data/contacts';
import { listLabels, type LabelRecord } from '../data/definitions';
import type { ChannelRef } from '../identity';
import { described } from '../schema/docs';
import { component, created, timestamp } from '../schema/responses';
import { channelDefinitions, isYoung, type Definitions } from './contact-values';
import { Label } from './definitions';

const contactEntries = {
  id: described(ContactItem.entries.id, 'Contact id', 'ct_01jhx3k8m0'),
  name: described(v.nullable(v.string()), 'Display name, or null', 'Bo Example'),
  phone: described(ContactItem.entries.phone, 'Phone number: digits with country code, no plus', '14155550123'),
  email: described(v.nullable(v.string()), 'Email address, or null', 'bo@example.com'),
  labels: described(v.array(v.pick(Label, ['id', 'name', 'color'])), 'Labels attached to the contact'),
  customFields: described(v.record(v.string(), v.union([v.string(), v.number()])), 'Custom field values by field name', { city: 'Oakland', tier: 'gold' }),
  status: described(
    ContactItem.entries.status.wrapped,
    'Opt-out status: opted_out after an opt-out keyword (STOP, …) or contacts/manage status; sends to it are refused (403 contact_opted_out)',
    'active',
  ),
};

/** A contact as contacts/list shows it. */
export const ContactSummary = component('ContactSummary', v.strictObject(contactEntries));

const contactViewEntries = {
  ...contactEntries,
  profilePictureUrl: described(v.nullable(v.string()), 'Profile picture URL, or null', 'https://example.com/bo.jpg'),
  createdAt: timestamp('When the contact was created'),
  updatedAt: timestamp('When the contact was last changed'),
};

/** A contact as contacts/manage answers it. */
export const ContactResult = component('ContactResult', v.strictObject({ ...contactViewEntries, created }));

/** A contact as contacts/manage and contacts/list show it: its labels by name and color, nulls for what it lacks. */
export type ContactView = v.InferOutput<v.StrictObjectSchema<typeof contactViewEntries, undefined>>;

/** Label definitions by id, built once per page (not once per contact: a channel may have thousands). */
export const labelsById = (labels: LabelRecord[]): ReadonlyMap<string, LabelRecord> => new Map(labels.map((label) => [label.id, label]));

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

/**
 * One contact as contacts/manage answers with it: its labels from the definitions the
 * request already has (none needed without labels), re-read once if they lack one of
 * the contact's labels (a label created in another container a moment ago).
 */
export async function contactView(channel: ChannelRef, contact: ContactRecord, definitions: Definitions | undefined): Promise<ContactView> {
  const ids = contact.labelIds ?? [];
  if (ids.length === 0) return toContactView(contact, []);
  let labels = definitions ?? (await channelDefinitions(channel));
  if (!labels.current && ids.some((id) => !labels.labels.some((label) => label.id === id))) labels = await channelDefinitions(channel, { current: true });
  return toContactView(contact, labels.labels);
}

/**
 * Label definitions for rendering contacts, cached per warm container: reused while
 * the channel's definitions version (read with page 1 at no extra cost) is unchanged,
 * or for `DEFINITIONS_CACHE_MS` where the version is not at hand.
 */
const labelCache = new TtlCache<string, { version?: number; labels: LabelRecord[] }>({ maxAgeMs: Infinity, maxEntries: 256 });

/** The labels a page of contacts shows, by id (none read when no contact has a label). */
export async function labelsFor(channel: ChannelRef, contacts: ContactRecord[], version?: number): Promise<ReadonlyMap<string, LabelRecord>> {
  if (!contacts.some((contact) => contact.labelIds?.length)) return new Map();
  const cached = await labelCache.get(
    `${channel.workspaceId}#${channel.channelId}`,
    async () => ({ version, labels: await listLabels(channel) }),
    (entry) => (version !== undefined ? entry.value.version === version : isYoung(entry.loadedAt)),
  );
  return labelsById(cached.labels);
}
