import * as v from 'valibot';
import {
  CustomFieldItem,
  getCustomField,
  LabelItem,
  listCustomFields,
  listLabels,
  upsertCustomField,
  upsertLabel,
  type CustomFieldType,
} from '../data/definitions';
import { InvalidInputError } from '../errors';
import type { ChannelRef } from '../identity';
import { described } from '../schema/docs';
import { component, created, viewOf } from '../schema/responses';

export { CUSTOM_FIELD_TYPES } from '../data/definitions';

/** Hex color as stored: # and six upper-case hex digits. */
export const hexColorView = described(v.pipe(LabelItem.entries.color, v.regex(/^#[0-9A-F]{6}$/)), 'Hex color: # and six upper-case hex digits', '#1E88E5');

const labelEntries = {
  id: described(LabelItem.entries.id, 'Label id', 'lb_01jhx3k8m0'),
  channelId: described(LabelItem.entries.channelId, 'The channel the label belongs to', 'ch_demoacmesupport'),
  name: described(LabelItem.entries.name, 'Label name (matched case-insensitively)', 'Customer'),
  description: described(v.nullable(v.string()), 'Description, or null', 'Paying customer'),
  color: hexColorView,
  displayOrder: described(LabelItem.entries.displayOrder, 'Sort order', 3),
};
/** A label as labels/list shows it. */
export const Label = component('Label', v.strictObject(labelEntries));
/** A label as labels/manage answers it. */
export const LabelResult = component('LabelResult', v.strictObject({ ...labelEntries, created }));

const customFieldEntries = {
  id: described(CustomFieldItem.entries.id, 'Custom field id', 'cf_01jhx3k8m0'),
  channelId: described(CustomFieldItem.entries.channelId, 'The channel the field belongs to', 'ch_demoacmesupport'),
  name: described(CustomFieldItem.entries.name, 'Field name (matched case-insensitively); the key in customFieldsData', 'plan'),
  type: described(CustomFieldItem.entries.type, 'Value type', 'dropdown'),
  isRequired: described(CustomFieldItem.entries.isRequired, 'Whether contacts/manage requires it when it creates a contact', false),
  options: described(v.array(v.string()), 'Allowed values of a dropdown field', ['free', 'pro']),
};
/** A custom field definition as custom-fields/list shows it. */
export const CustomField = component('CustomField', v.strictObject(customFieldEntries));
/** A custom field definition as custom-fields/manage answers it. */
export const CustomFieldResult = component('CustomFieldResult', v.strictObject({ ...customFieldEntries, created }));

/** labels/list: the channel's labels. */
export async function channelLabels(channel: ChannelRef): Promise<v.InferOutput<typeof Label>[]> {
  return (await listLabels(channel)).map((label) => viewOf(Label, label));
}

/** custom-fields/list: the channel's custom field definitions. */
export async function channelCustomFields(channel: ChannelRef): Promise<v.InferOutput<typeof CustomField>[]> {
  return (await listCustomFields(channel)).map((field) => viewOf(CustomField, field));
}

export interface ManageLabelInput {
  name: string;
  /** An empty string clears the description. */
  description?: string;
  color?: string;
  displayOrder?: number;
}

/** labels/manage: creates the label, or updates the one with that name (case-insensitively). */
export async function manageLabel(channel: ChannelRef, input: ManageLabelInput): Promise<v.InferOutput<typeof LabelResult>> {
  const { name, description, color, displayOrder } = input;
  const changes = { description: description === undefined ? undefined : description || null, color, displayOrder };
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const { label, created } = await upsertLabel(channel, name, defined);
  return viewOf(LabelResult, { ...label, created });
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
export async function manageCustomField(channel: ChannelRef, input: ManageCustomFieldInput): Promise<v.InferOutput<typeof CustomFieldResult>> {
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
  return viewOf(CustomFieldResult, { ...field, created });
}
