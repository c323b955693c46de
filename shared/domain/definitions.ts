import {
  getCustomField,
  listCustomFields,
  listLabels,
  upsertCustomField,
  upsertLabel,
  type CustomFieldRecord,
  type CustomFieldType,
  type LabelRecord,
} from '../data/definitions';
import { InvalidInputError } from '../errors';
import type { ChannelRef } from '../identity';

export { CUSTOM_FIELD_TYPES } from '../data/definitions';

/** labels/list: the channel's labels. */
export function channelLabels(channel: ChannelRef): Promise<LabelRecord[]> {
  return listLabels(channel);
}

/** custom-fields/list: the channel's custom field definitions. */
export function channelCustomFields(channel: ChannelRef): Promise<CustomFieldRecord[]> {
  return listCustomFields(channel);
}

export interface ManageLabelInput {
  name: string;
  /** An empty string clears the description. */
  description?: string;
  color?: string;
  displayOrder?: number;
}

/** labels/manage: creates the label, or updates the one with that name (case-insensitively). */
export async function manageLabel(channel: ChannelRef, input: ManageLabelInput): Promise<LabelRecord & { created: boolean }> {
  const { name, description, color, displayOrder } = input;
  const changes = { description: description === undefined ? undefined : description || null, color, displayOrder };
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const { label, created } = await upsertLabel(channel, name, defined);
  return { ...label, created };
}

export interface ManageCustomFieldInput {
  name: string;
  type?: CustomFieldType;
  isRequired?: boolean;
  options?: string[];
}

/**
 * custom-fields/manage: creates the field, or updates the one with that name. Whether
 * options fit depends on the stored field when the call leaves type or options out, so
 * the stored field is read only then.
 */
export async function manageCustomField(channel: ChannelRef, input: ManageCustomFieldInput): Promise<CustomFieldRecord & { created: boolean }> {
  const { name, type, isRequired, options } = input;
  const needsStored = (type === 'dropdown' && !options?.length) || (options?.length && type === undefined);
  const existing = needsStored ? await getCustomField(channel, name) : undefined;
  const finalType = type ?? existing?.type ?? 'text';
  if (finalType === 'dropdown' && !options?.length && !existing?.options.length) {
    throw new InvalidInputError('A dropdown field needs options: pass options as a JSON array or comma-separated.', 'options', 'missing_parameter');
  }
  if (options?.length && finalType !== 'dropdown') {
    throw new InvalidInputError(`Options apply only to dropdown fields, not to ${finalType} fields.`, 'options');
  }
  const changes = Object.fromEntries(Object.entries({ type, isRequired, options }).filter(([, value]) => value !== undefined));
  const { field, created } = await upsertCustomField(channel, name, changes);
  return { ...field, created };
}
