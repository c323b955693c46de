import { indexItemEntries } from '../../shared/data/contact-index';
import { contactIndexItemOf, keys } from '../../shared/data/keys';
import { queryPartition, scanItems, workspaceItems, type TableItem, type TableTarget } from './table';

/**
 * The table's invariants, checked by reading the table (test code only): the channel
 * partitions of one workspace or channel by Query (every check reads only the channel's
 * own partition), or the whole table by Scan when no scope is given.
 * Run after a fault or a crash, once the documented repair has run
 * (`admin contacts recount --channel CH`, i.e. `repairChannel` below).
 *
 * Checks are grouped per channel partition (`WS#<ws>#CH#<ch>`) and keyed by each
 * item's `entity`, so later entities join by registering a check here:
 *
 *   registerInvariant('every widget has its contact', (channel) => …violations);
 */

export interface ChannelPartition {
  pk: string;
  workspaceId: string;
  channelId: string;
  /** The contact head (sk `CONTACT#`), if any. */
  head?: TableItem;
  /** Contacts by phone. */
  contacts: Map<string, TableItem>;
  /** Index entries (phone → indexed name) and the index item (sort key) each sits in. */
  index: Map<string, { name: string; sk: string }>;
  /** What the index items' layout breaks: an entry in two items, an import chunk not packed (shared/data/contact-index.ts). */
  indexLayout: string[];
  /** Every item of the partition by entity (`label`, `customField`, `message`, `execution`, …). */
  byEntity: Map<string, TableItem[]>;
  items: TableItem[];
}

export interface Violation {
  check: string;
  pk: string;
  detail: string;
}

export type InvariantCheck = (channel: ChannelPartition) => string[];

const checks = new Map<string, InvariantCheck>();

/** Adds a check run on every channel partition (name it as the invariant it proves). */
export function registerInvariant(name: string, check: InvariantCheck): void {
  checks.set(name, check);
}

const entities = (channel: ChannelPartition, entity: string) => channel.byEntity.get(entity) ?? [];

// ---- Contacts: count, index and pending marker ---------------------------------------

registerInvariant('contact head count == contact items == index entries', (channel) => {
  const count = Number(channel.head?.contactCount ?? 0);
  const contacts = channel.contacts.size;
  const indexed = channel.index.size;
  return count === contacts && contacts === indexed ? [] : [`contactCount ${count}, contact items ${contacts}, index entries ${indexed}`];
});

registerInvariant('no contact left indexPending', (channel) =>
  [...channel.contacts.values()].filter((contact) => contact.indexPending).map((contact) => `contact ${contact.phone} (${contact.id}) is indexPending`),
);

registerInvariant('every contact an import ledger created is claimed in it (indexed and counted)', (channel) =>
  entities(channel, 'contactImport').flatMap((ledger) => {
    const id = String(ledger.sk).slice('CIMP#'.length);
    const counted = new Set<string>(ledger.counted ?? []);
    return [...channel.contacts.values()]
      .filter((contact) => contact.importedBy === id && !counted.has(contact.phone))
      .map((contact) => `contact ${contact.phone} created by import ${id} is not claimed`);
  }),
);

registerInvariant('every index entry has its contact, in its own bucket', (channel) => {
  const problems: string[] = [];
  for (const [phone, entry] of channel.index) {
    const contact = channel.contacts.get(phone);
    if (!contact) problems.push(`index entry ${phone} has no contact`);
    // Its phone's hash bucket, or its id group's chunk for an imported contact (keys.ts, contactIndexItemOf).
    const own = contact && contactIndexItemOf(channel, { id: contact.id, phone }).sk;
    if (own && entry.sk !== own) problems.push(`index entry ${phone} sits in ${entry.sk}, belongs in ${own}`);
  }
  return problems;
});

registerInvariant('each index entry is in one item, and every import chunk is packed', (channel) => channel.indexLayout);

registerInvariant('every contact is in the index', (channel) =>
  [...channel.contacts.keys()].filter((phone) => !channel.index.has(phone)).map((phone) => `contact ${phone} is not in the index`),
);

registerInvariant('contacts are keyed by their normalized number and have unique ids', (channel) => {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const contact of channel.contacts.values()) {
    if (contact.sk !== `CONTACT#${contact.phone}`) problems.push(`contact ${contact.id} under ${contact.sk} has phone ${contact.phone}`);
    if (!/^\d{8,15}$/.test(String(contact.phone))) problems.push(`contact ${contact.id} has phone ${contact.phone}, not 8-15 digits`);
    if (ids.has(contact.id)) problems.push(`contact id ${contact.id} is used twice`);
    ids.add(contact.id);
  }
  return problems;
});

registerInvariant('contacts reference existing labels and defined custom fields', (channel) => {
  const labelIds = new Set(entities(channel, 'label').map((label) => label.id));
  const fieldNames = new Set(entities(channel, 'customField').map((field) => field.name));
  const problems: string[] = [];
  for (const contact of channel.contacts.values()) {
    for (const id of contact.labelIds ?? []) if (!labelIds.has(id)) problems.push(`contact ${contact.phone} has unknown label ${id}`);
    for (const name of Object.keys(contact.customFields ?? {}))
      if (!fieldNames.has(name)) problems.push(`contact ${contact.phone} has undefined custom field ${name}`);
  }
  return problems;
});

/** The two definition kinds: their entity, sort-key prefix and head-item counter. */
const DEFINITION_KINDS = [
  { entity: 'label', prefix: 'DEF#LABEL#', counter: 'labelCount' },
  { entity: 'customField', prefix: 'DEF#FIELD#', counter: 'fieldCount' },
] as const;

registerInvariant('label and custom-field names are unique case-insensitively', (channel) => {
  const problems: string[] = [];
  for (const { entity, prefix } of DEFINITION_KINDS) {
    const ids = new Set<string>();
    for (const item of entities(channel, entity)) {
      if (item.sk !== `${prefix}${String(item.name).trim().toLowerCase()}`) problems.push(`${entity} ${item.name} is stored under ${item.sk}`);
      if (ids.has(item.id)) problems.push(`${entity} id ${item.id} is used twice`);
      ids.add(item.id);
    }
  }
  return problems;
});

registerInvariant('head label and custom-field counts == their items (where counted)', (channel) => {
  const problems: string[] = [];
  for (const { counter, entity } of DEFINITION_KINDS) {
    const counted = channel.head?.[counter];
    const items = entities(channel, entity).length;
    if (counted !== undefined && Number(counted) !== items) problems.push(`${counter} ${counted}, ${entity} items ${items}`);
  }
  return problems;
});

// ---- Messaging and automations (run when such items exist) ---------------------------

registerInvariant('every message has a contact, or is an erased skeleton without content or phone', (channel) =>
  entities(channel, 'message')
    .filter((message) => (message.erasedAt === undefined ? !channel.contacts.has(message.phone) : message.content !== undefined || message.phone !== undefined))
    .map((message) => `message ${message.id} to/from ${message.phone} has no contact`),
);

// ---- Two-way: history, contact ids, opt-out, erasure -----------------------------------

registerInvariant('every history entry has its message and its contact, with the same content', (channel) => {
  const messages = new Map(entities(channel, 'message').map((message) => [message.id, message]));
  const problems: string[] = [];
  for (const entry of entities(channel, 'history')) {
    const phone = entry.sk.split('#')[1];
    const message = messages.get(entry.messageId);
    if (!channel.contacts.has(phone)) problems.push(`history entry ${entry.sk} has no contact`);
    if (!message) problems.push(`history entry ${entry.sk} has no message`);
    else if (JSON.stringify(message.content) !== JSON.stringify(entry.content)) problems.push(`history entry ${entry.sk} shows other content than its message`);
  }
  return problems;
});

registerInvariant('every contact has its id pointer, and every pointer its contact', (channel) => {
  const pointers = new Map(entities(channel, 'contactId').map((pointer) => [pointer.contactId, pointer.phone]));
  // An id group's item (contacts/import): attribute `s<2>` → phone for the id `<group><2>`.
  for (const group of entities(channel, 'contactIds'))
    for (const [attribute, phone] of Object.entries(group))
      if (/^s[0-9a-z]{2}$/.test(attribute)) pointers.set(`${group.sk.slice('CTID#'.length)}${attribute.slice(1)}`, phone);
  const problems: string[] = [];
  for (const contact of channel.contacts.values())
    if (pointers.get(contact.id) !== contact.phone) problems.push(`contact ${contact.id} has no id pointer to ${contact.phone}`);
  for (const [id, phone] of pointers) if (channel.contacts.get(String(phone))?.id !== id) problems.push(`id pointer ${id} names no contact`);
  return problems;
});

registerInvariant('no contact left half-erased, and the opted-out sets match the contacts', (channel) => {
  const problems = [...channel.contacts.values()].filter((contact) => contact.erasing !== undefined).map((contact) => `contact ${contact.id} is still erasing`);
  const optedOut = new Set(
    channel.items.filter((item) => item.sk.startsWith('OPTOUT#')).flatMap((item) => Object.keys(item).filter((key) => key !== 'pk' && key !== 'sk')),
  );
  for (const contact of channel.contacts.values()) {
    if ((contact.status === 'opted_out') !== optedOut.has(contact.phone))
      problems.push(`contact ${contact.phone} is ${contact.status ?? 'active'} but ${optedOut.has(contact.phone) ? 'in' : 'not in'} the opted-out set`);
  }
  for (const phone of optedOut) if (!channel.contacts.has(phone)) problems.push(`opted-out entry ${phone} has no contact`);
  return problems;
});

registerInvariant('every conversation has its contact', (channel) =>
  entities(channel, 'conversation')
    .filter((conversation) => !channel.contacts.has(conversation.phone))
    .map((conversation) => `conversation ${conversation.id} of ${conversation.phone} has no contact`),
);

registerInvariant('every execution has its automation and contact', (channel) => {
  const automations = new Set(entities(channel, 'automation').map((automation) => automation.id));
  const problems: string[] = [];
  for (const execution of entities(channel, 'execution')) {
    if (!automations.has(execution.automationId)) problems.push(`execution ${execution.id} has no automation ${execution.automationId}`);
    if (execution.phone !== undefined && !channel.contacts.has(execution.phone)) problems.push(`execution ${execution.id} has no contact ${execution.phone}`);
  }
  return problems;
});

// ---- Acknowledged writes: nothing answered 200 was dropped ----------------------------

/** What a contacts/manage call set, as sent (own keys; a `__proto__` key is a key here). */
export interface SentContactValues {
  customFieldsData?: Record<string, unknown>;
  labelNames?: string[];
}

/**
 * Values a 200 from contacts/manage acknowledged that the stored contact lacks: every
 * customFieldsData key sent must be on the contact under its field's defined name
 * (matched case-insensitively), unless its value cleared it (null or empty), and every
 * label named must be among the contact's labels. Object internals (`constructor`,
 * `valueOf`, …) are checked as own keys, never found on a prototype.
 */
export function droppedValues(sent: SentContactValues, contact: TableItem | undefined, channel: Pick<ChannelPartition, 'byEntity'>): string[] {
  if (!contact) return ['the contact was not stored'];
  const problems: string[] = [];
  const fields = channel.byEntity.get('customField') ?? [];
  const stored: Record<string, unknown> = contact.customFields ?? {};
  for (const [key, value] of Object.entries(sent.customFieldsData ?? {})) {
    const field = fields.find((candidate) => String(candidate.name).toLowerCase() === key.trim().toLowerCase());
    if (!field) problems.push(`customFieldsData key ${JSON.stringify(key)} has no field definition`);
    else if (value === null || value === '') {
      if (Object.hasOwn(stored, field.name)) problems.push(`custom field ${JSON.stringify(field.name)} was cleared but is still stored`);
    } else if (!Object.hasOwn(stored, field.name))
      problems.push(`custom field ${JSON.stringify(field.name)} (sent as ${JSON.stringify(key)}) is not on the stored contact`);
  }
  const labels = channel.byEntity.get('label') ?? [];
  const labelIds: string[] = contact.labelIds ?? [];
  for (const name of sent.labelNames ?? []) {
    const label = labels.find((candidate) => String(candidate.name).toLowerCase() === name.trim().toLowerCase());
    if (!label || !labelIds.includes(label.id)) problems.push(`label ${JSON.stringify(name)} is not on the stored contact`);
  }
  return problems;
}

/** Reads the channel and the contact of `phone` (digits) and returns what a 200 for `sent` dropped. */
export async function checkNothingDropped(
  options: TableTarget & { workspaceId: string; channelId: string; phone: string; sent: SentContactValues },
): Promise<string[]> {
  const items = await workspaceItems(options, options.workspaceId, { channelId: options.channelId });
  const channel = channelPartitions(items).find((partition) => partition.channelId === options.channelId);
  return droppedValues(options.sent, channel?.contacts.get(options.phone), channel ?? { byEntity: new Map() });
}

// ---- Reading the table ------------------------------------------------------------------

const CHANNEL_PK = /^WS#([^#]+)#CH#([^#]+)$/;

/** Groups a scan into channel partitions. */
export function channelPartitions(items: TableItem[]): ChannelPartition[] {
  const partitions = new Map<string, ChannelPartition>();
  for (const item of items) {
    const match = CHANNEL_PK.exec(item.pk);
    if (!match) continue;
    let channel = partitions.get(item.pk);
    if (!channel) {
      channel = {
        pk: item.pk,
        workspaceId: match[1],
        channelId: match[2],
        contacts: new Map(),
        index: new Map(),
        indexLayout: [],
        byEntity: new Map(),
        items: [],
      };
      partitions.set(item.pk, channel);
    }
    channel.items.push(item);
    if (item.sk === 'CONTACT#') channel.head = item;
    else if (item.sk.startsWith('CONTACT#')) channel.contacts.set(String(item.phone ?? item.sk.slice('CONTACT#'.length)), item);
    else if (item.sk.startsWith('CIDX#')) {
      const { entries, unpacked } = indexItemEntries(item);
      if (unpacked.length) channel.indexLayout.push(`import chunk ${item.sk} holds ${unpacked.length} entries one attribute each`);
      for (const [phone, name] of entries) {
        const seen = channel.index.get(phone);
        if (seen) channel.indexLayout.push(`index entry ${phone} is in ${seen.sk} and ${item.sk}`);
        channel.index.set(phone, { name, sk: item.sk });
      }
    }
    if (typeof item.entity === 'string') {
      const list = channel.byEntity.get(item.entity) ?? [];
      list.push(item);
      channel.byEntity.set(item.entity, list);
    }
  }
  return [...partitions.values()];
}

export interface InvariantReport {
  violations: Violation[];
  channels: number;
  contacts: number;
  indexEntries: number;
  items: number;
  checks: number;
}

/** The workspace a channel belongs to, from its pointer item (`keys.channelById`); undefined if there is none. */
async function workspaceOfChannel(target: TableTarget, channelId: string): Promise<string | undefined> {
  const pointer = keys.channelById(channelId);
  const [item] = (await queryPartition(target, pointer.pk)).filter((candidate) => candidate.sk === pointer.sk);
  return item?.workspaceId;
}

/** What `checkInvariants` reads: one workspace's (or channel's) partitions by Query, else the whole table. */
async function itemsInScope(options: TableTarget & { workspaceId?: string; channelId?: string }): Promise<TableItem[]> {
  const workspaceId = options.workspaceId ?? (options.channelId === undefined ? undefined : await workspaceOfChannel(options, options.channelId));
  return workspaceId === undefined ? scanItems(options) : workspaceItems(options, workspaceId, { channelId: options.channelId });
}

/**
 * Checks every registered invariant on every channel partition of the table, or of
 * one workspace / one channel. `items` skips the read (for items already read).
 */
export async function checkInvariants(options: TableTarget & { workspaceId?: string; channelId?: string; items?: TableItem[] } = {}): Promise<InvariantReport> {
  const items = options.items ?? (await itemsInScope(options));
  const channels = channelPartitions(items).filter(
    (channel) => (!options.workspaceId || channel.workspaceId === options.workspaceId) && (!options.channelId || channel.channelId === options.channelId),
  );
  const violations: Violation[] = [];
  for (const channel of channels) {
    for (const [name, check] of checks) for (const detail of check(channel)) violations.push({ check: name, pk: channel.pk, detail });
  }
  return {
    violations,
    channels: channels.length,
    contacts: channels.reduce((sum, channel) => sum + channel.contacts.size, 0),
    indexEntries: channels.reduce((sum, channel) => sum + channel.index.size, 0),
    items: channels.reduce((sum, channel) => sum + channel.items.length, 0),
    checks: checks.size,
  };
}

/** The repair the runbook prescribes before checking: `admin contacts recount --channel CH` (in-process). */
export async function repairChannel(channelId: string): Promise<number> {
  const { contactsRecount } = await import('../../scripts/admin/commands');
  return (await contactsRecount(channelId)).contactCount;
}
