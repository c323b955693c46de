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

export { CUSTOM_FIELD_TYPES } from '../data/definitions';

/** labels/list: the channel's labels. */
export function channelLabels(workspaceId: string, channelId: string): Promise<LabelRecord[]> {
  return listLabels(workspaceId, channelId);
}

/** custom-fields/list: the channel's custom field definitions. */
export function channelCustomFields(workspaceId: string, channelId: string): Promise<CustomFieldRecord[]> {
  return listCustomFields(workspaceId, channelId);
}

export interface ManageLabelInput {
  name: string;
  /** An empty string clears the description. */
  description?: string;
  color?: string;
  displayOrder?: number;
}

/** labels/manage: creates the label, or updates the one with that name (case-insensitively). */
export async function manageLabel(workspaceId: string, channelId: string, input: ManageLabelInput): Promise<LabelRecord & { created: boolean }> {
  const { name, description, color, displayOrder } = input;
  const changes = { description: description === undefined ? undefined : description || null, color, displayOrder };
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const { label, created } = await upsertLabel(workspaceId, channelId, name, defined);
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
export async function manageCustomField(workspaceId: string, channelId: string, input: ManageCustomFieldInput): Promise<CustomFieldRecord & { created: boolean }> {
  const { name, type, isRequired, options } = input;
  const needsStored = (type === 'dropdown' && !options?.length) || (options?.length && type === undefined);
  const existing = needsStored ? await getCustomField(workspaceId, channelId, name) : undefined;
  const finalType = type ?? existing?.type ?? 'text';
  if (finalType === 'dropdown' && !options?.length && !existing?.options.length) {
    throw new InvalidInputError('A dropdown field needs options: pass options as a JSON array or comma-separated.', 'options', 'missing_parameter');
  }
  if (options?.length && finalType !== 'dropdown') {
    throw new InvalidInputError(`Options apply only to dropdown fields, not to ${finalType} fields.`, 'options');
  }
  const changes = Object.fromEntries(Object.entries({ type, isRequired, options }).filter(([, value]) => value !== undefined));
  const { field, created } = await upsertCustomField(workspaceId, channelId, name, changes);
  return { ...field, created };
}
