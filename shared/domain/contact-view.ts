import { TtlCache } from '../cache/ttl-cache';
import type { ContactRecord, CustomFieldValue } from '../data/contacts';
import { listLabels, type LabelRecord } from '../data/definitions';
import type { ChannelRef } from '../identity';
import { channelDefinitions, isYoung, type Definitions } from './contact-values';

/** A contact as contacts/manage and contacts/list show it: its labels by name and color, nulls for what it lacks. */
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
