import * as v from 'valibot';
import { clock } from '../clock';
import { InvalidInputError } from '../errors';
import { newId } from '../ids';
import { queryAll } from './batch';
import { getItem, putIfAbsent, update, when } from './client';
import { entity, parseItem, type Stored } from './entity';
import { keys } from './keys';
import type { ChannelRef, Key } from '../identity';

/**
 * Labels and custom field definitions of a channel. Both are matched by name,
 * case-insensitively (the lowercased name is the sort key), and stored with the case
 * first given. Every change bumps the channel's definitions version on the contact
 * head item, which lets readers cache definitions per warm container.
 */

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'email', 'phone', 'date', 'label', 'dropdown'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A label as stored: matched by its lowercased name (the sort key), shown with the case first given. */
export const LabelItem = entity('label', {
  id: v.string(),
  channelId: v.string(),
  name: v.string(),
  /** null when cleared. */
  description: v.optional(v.nullable(v.string()), null),
  color: v.string(),
  displayOrder: v.pipe(v.number(), v.integer()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type LabelRecord = Stored<typeof LabelItem>;

/** A custom field definition as stored, matched by name as labels are. */
export const CustomFieldItem = entity('customField', {
  id: v.string(),
  channelId: v.string(),
  name: v.string(),
  type: v.picklist(CUSTOM_FIELD_TYPES),
  isRequired: v.boolean(),
  /** A dropdown field's allowed values. */
  options: v.optional(v.array(v.string()), () => []),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type CustomFieldRecord = Stored<typeof CustomFieldItem>;

/** What a query of a channel's definitions reads: either kind, told apart by its tag. */
const DefinitionItem = v.variant('entity', [LabelItem, CustomFieldItem]);

export const DEFAULT_LABEL_COLOR = '#9E9E9E';

type Fields = Record<string, unknown>;

/**
 * Most labels, and most custom fields, one channel may define. Sized with the value
 * limits (LIMITS.name, LIMITS.labelDescription, LIMITS.optionEntries, LIMITS.optionLength
 * in shared/schema/params.ts) so that labels/list and custom-fields/list stay one 1 MB
 * query page even at the longest values, in 3-byte UTF-8 characters: 500 of the largest
 * labels, or 100 of the largest dropdown fields, are under 1 MB in DynamoDB's item-size
 * rules (test/shared/definition-sizes.test.ts writes them through the real handlers,
 * measures them and fails when a cap or limit grows past that).
 */
export const MAX_LABELS_PER_CHANNEL = 500;
export const MAX_FIELDS_PER_CHANNEL = 100;

/** What tells labels and custom fields apart in storage; everything else they share. */
interface DefinitionKind<S extends typeof LabelItem | typeof CustomFieldItem> {
  schema: S;
  idPrefix: string;
  key: (channel: ChannelRef, name: string) => Key;
  /** The attributes a new definition has where a manage call gives none (a fresh object each call). */
  defaults: () => Fields;
  /** The head item's counter of this kind. */
  counter: 'labelCount' | 'fieldCount';
  max: number;
  noun: string;
  parameter: string;
}

const LABELS: DefinitionKind<typeof LabelItem> = {
  schema: LabelItem,
  idPrefix: 'lb',
  key: keys.label,
  defaults: () => ({ description: null, color: DEFAULT_LABEL_COLOR, displayOrder: 0 }),
  counter: 'labelCount',
  max: MAX_LABELS_PER_CHANNEL,
  noun: 'labels',
  parameter: 'name',
};
const FIELDS: DefinitionKind<typeof CustomFieldItem> = {
  schema: CustomFieldItem,
  idPrefix: 'cf',
  key: keys.customField,
  defaults: () => ({ type: 'text', isRequired: false, options: [] }),
  counter: 'fieldCount',
  max: MAX_FIELDS_PER_CHANNEL,
  noun: 'custom fields',
  parameter: 'name',
};

/**
 * Creates the definition of `kind` named `name` or updates the given fields of the existing one:
 * an update first (the common case for a manage call), a conditional create when
 * nothing is there, and an update again if a concurrent call created it meanwhile.
 * Every change bumps the channel's definitions version; a create first takes a place
 * under the channel's limit in the same head-item write (given back if the create
 * loses a race).
 */
async function upsertDefinition<S extends typeof LabelItem | typeof CustomFieldItem>(
  channel: ChannelRef,
  kind: DefinitionKind<S>,
  name: string,
  changes: Fields,
): Promise<{ record: Stored<S>; created: boolean }> {
  const key = kind.key(channel, name);
  for (;;) {
    const updated = await update(key).set('updatedAt', clock.nowIso()).setAll(changes).when(when.itemExists()).sendReturning(kind.schema);
    if (updated) {
      await bumpHead(channel);
      return { record: updated, created: false };
    }
    await takePlace(channel, kind);
    const item = {
      ...key,
      entity: kind.schema.tag,
      id: newId(kind.idPrefix),
      channelId: channel.channelId,
      name,
      ...kind.defaults(),
      ...changes,
      createdAt: clock.nowIso(),
      updatedAt: clock.nowIso(),
    };
    let created = false;
    try {
      created = (await putIfAbsent(item)) === 'created';
    } finally {
      // Lost the race (or the write failed): give the place back.
      if (!created) await bumpHead(channel, { [kind.counter]: -1 });
    }
    if (created) return { record: parseItem(kind.schema, item), created: true };
  }
}

/** Counts one more definition of `kind` (and bumps the version) unless the channel is at its limit: 400 then. */
async function takePlace(channel: ChannelRef, kind: DefinitionKind<typeof LabelItem | typeof CustomFieldItem>): Promise<void> {
  const placed = await update(keys.contactHead(channel))
    .add('defsVersion', 1)
    .add(kind.counter, 1)
    .when(when.or(when.notExists(kind.counter), when.lt(kind.counter, kind.max)))
    .send();
  if (!placed)
    throw new InvalidInputError(
      `This channel already has the maximum of ${kind.max} ${kind.noun}; update an existing one instead.`,
      kind.parameter,
      'limit_reached',
    );
}

/** Bumps the channel's definitions version so cached label and field definitions are refreshed (plus any counter changes). */
async function bumpHead(channel: ChannelRef, counters: Record<string, number> = {}): Promise<void> {
  const headUpdate = update(keys.contactHead(channel)).add('defsVersion', 1);
  for (const [counter, change] of Object.entries(counters)) headUpdate.add(counter, change);
  await headUpdate.send();
}

/** The label attributes a manage call may set. */
type LabelChanges = Partial<Pick<LabelRecord, 'description' | 'color' | 'displayOrder'>>;
/** The custom field attributes a manage call may set. */
type CustomFieldChanges = Partial<Pick<CustomFieldRecord, 'type' | 'isRequired' | 'options'>>;

/** Creates or updates a label matched by name. Only given fields change. */
export async function upsertLabel(channel: ChannelRef, name: string, changes: LabelChanges): Promise<{ label: LabelRecord; created: boolean }> {
  const { record, created } = await upsertDefinition(channel, LABELS, name, changes);
  return { label: record, created };
}

/** Creates or updates a custom field definition matched by name. */
export async function upsertCustomField(
  channel: ChannelRef,
  name: string,
  changes: CustomFieldChanges,
): Promise<{ field: CustomFieldRecord; created: boolean }> {
  const { record, created } = await upsertDefinition(channel, FIELDS, name, changes);
  return { field: record, created };
}

/** Reads one custom field definition by name (consistent), or undefined. */
export async function getCustomField(channel: ChannelRef, name: string): Promise<CustomFieldRecord | undefined> {
  return getItem(keys.customField(channel, name), CustomFieldItem, { consistent: true });
}

/** All labels of a channel, ordered by displayOrder then name. */
export async function listLabels(channel: ChannelRef): Promise<LabelRecord[]> {
  const { pk, skPrefix } = keys.labelPrefix(channel);
  return sortLabels(await queryAll(pk, skPrefix, LabelItem));
}

/** All custom field definitions of a channel, ordered by name. */
export async function listCustomFields(channel: ChannelRef): Promise<CustomFieldRecord[]> {
  const { pk, skPrefix } = keys.customFieldPrefix(channel);
  return queryAll(pk, skPrefix, CustomFieldItem);
}

/** Labels and custom fields of a channel in one query (what contacts/manage validates against). */
export async function listDefinitions(channel: ChannelRef): Promise<{ labels: LabelRecord[]; fields: CustomFieldRecord[] }> {
  const { pk, skPrefix } = keys.definitionsPrefix(channel);
  const labels: LabelRecord[] = [];
  const fields: CustomFieldRecord[] = [];
  for (const item of await queryAll(pk, skPrefix, DefinitionItem, { consistent: true })) {
    if (item.entity === LabelItem.tag) labels.push(item);
    else fields.push(item);
  }
  return { labels: sortLabels(labels), fields };
}

function sortLabels(labels: LabelRecord[]): LabelRecord[] {
  return labels.sort((a, b) => a.displayOrder - b.displayOrder || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
