import * as v from 'valibot';
import { TtlCache } from '../cache/ttl-cache';
import { clock } from '../clock';
import type { ContactChanges, CustomFieldValue } from '../data/contacts';
import type { ContactStatus } from '../data/contact-status';
import { listDefinitions, type CustomFieldRecord, type LabelRecord } from '../data/definitions';
import { InvalidInputError } from '../errors';
import { matchKey, type ChannelRef } from '../identity';
import { normalizePhone } from '../phone/phone';
import { LIMITS } from '../schema/params';

/**
 * What a contact write sets, checked against the channel's label and custom-field
 * definitions: labels by name (unknown names are a 400: typos must not create labels),
 * custom-field values by type, required fields on a create. contacts/manage, each
 * contacts/import row and the automation runner's steps check here; contacts/manage
 * reads the definitions through this module's per-container cache.
 */

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

type RawValue = string | number | boolean | null;

const emailSchema = v.pipe(v.string(), v.email());
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * Checks `customFieldsData` against the channel's definitions: unknown keys and
 * values of the wrong type are a 400 naming them. Returns the values to store, keyed
 * by each field's defined name (a null value clears the field).
 */
export function validateCustomFieldValues(
  data: Record<string, RawValue>,
  fields: CustomFieldRecord[],
  labels: LabelRecord[],
): Record<string, CustomFieldValue | null> {
  const byKey = new Map(fields.map((field) => [matchKey(field.name), field]));
  const unknown = Object.keys(data).filter((key) => !byKey.has(matchKey(key)));
  if (unknown.length > 0) {
    throw new InvalidInputError(
      `Unknown custom fields: ${unknown.join(', ')}. Define them with custom-fields/manage first.`,
      'customFieldsData',
      'invalid_parameter',
      { unknown },
    );
  }
  // Null prototype: a field named `valueOf` or `constructor` is a key here, never an inherited member.
  const result: Record<string, CustomFieldValue | null> = Object.create(null);
  const invalid: string[] = [];
  for (const [key, raw] of Object.entries(data)) {
    const field = byKey.get(matchKey(key))!;
    if (raw === null || raw === '') {
      result[field.name] = null;
      continue;
    }
    const value = coerce(field, raw, labels);
    if (value === undefined) invalid.push(`${field.name} (expected ${describe(field)})`);
    else result[field.name] = value;
  }
  if (invalid.length > 0) {
    throw new InvalidInputError(`Invalid custom field values: ${invalid.join('; ')}.`, 'customFieldsData', 'invalid_parameter', {
      invalid: invalid.map((s) => s.split(' (')[0]),
    });
  }
  return result;
}

/** Names of required fields that a new contact would lack. */
export function missingRequiredFields(fields: CustomFieldRecord[], values: Record<string, CustomFieldValue | null>): string[] {
  // Own keys only: `values.valueOf` exists on any plain object, but no caller gave it.
  return fields.filter((field) => field.isRequired && (!Object.hasOwn(values, field.name) || values[field.name] === null)).map((field) => field.name);
}

function coerce(field: CustomFieldRecord, raw: string | number | boolean, labels: LabelRecord[]): CustomFieldValue | undefined {
  const text = String(raw).trim();
  if (text.length > LIMITS.customFieldValue) return undefined;
  switch (field.type) {
    case 'text':
      return text;
    case 'number': {
      const number = typeof raw === 'number' ? raw : text === '' ? NaN : Number(text);
      return Number.isFinite(number) ? number : undefined;
    }
    case 'email':
      return v.is(emailSchema, text) ? text.toLowerCase() : undefined;
    case 'phone':
      return normalizePhone(text);
    case 'date':
      return ISO_DATE.test(text) && !Number.isNaN(Date.parse(text)) ? text : undefined;
    case 'label':
      return labels.find((label) => matchKey(label.name) === matchKey(text))?.name;
    case 'dropdown':
      return field.options.find((option) => matchKey(option) === matchKey(text));
  }
}

function describe(field: CustomFieldRecord): string {
  switch (field.type) {
    case 'dropdown':
      return `one of ${field.options.join(', ')}`;
    case 'label':
      return 'a label name of this channel';
    case 'date':
      return 'a date such as 2026-01-31';
    case 'phone':
      return 'a phone number with country code';
    default:
      return `a ${field.type}`;
  }
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

/** The refusal of a create that lacks required custom fields. */
export const missingFieldsError = (missing: string[]) =>
  new InvalidInputError(`Missing required custom fields for a new contact: ${missing.join(', ')}.`, 'customFieldsData', 'missing_parameter', { missing });

export interface Definitions {
  labels: LabelRecord[];
  fields: CustomFieldRecord[];
  /** Read by this request (consistently), not taken from the cache. */
  current: boolean;
}

const NO_DEFINITIONS: Definitions = { labels: [], fields: [], current: false };

/** The label ids and custom-field values the request sets, checked against `definitions` (400 naming what they lack). */
function definedValues(input: ManageContactInput, definitions: Definitions): Pick<ContactChanges, 'labelIds' | 'customFields'> {
  return {
    labelIds: input.labelNames && resolveLabelIds(input.labelNames, definitions.labels),
    customFields: input.customFieldsData && validateCustomFieldValues(input.customFieldsData, definitions.fields, definitions.labels),
  };
}

/** What a contacts/manage request (or a contacts/import row) writes, checked against `definitions`. */
export function contactChanges(input: ManageContactInput, definitions: Definitions): ContactChanges {
  return { name: input.name, email: input.email, profilePictureUrl: input.profilePictureUrl, ...definedValues(input, definitions) };
}

/** A request's changes, and the definitions they were checked against (none when it names no label and no custom field). */
export interface CheckedChanges {
  changes: ContactChanges;
  definitions?: Definitions;
}

/** Whether the request's own values need the definitions: a label name, or a custom-field key. */
const namesDefinitions = (input: ManageContactInput) => (input.labelNames?.length ?? 0) > 0 || Object.keys(input.customFieldsData ?? {}).length > 0;

/**
 * The changes of a contacts/manage request, checked before anything is written. A request
 * naming no labels and no custom fields needs no definitions (no read). Otherwise it is
 * checked against the definitions cached in this warm container
 * (`DEFINITIONS_CACHE_MS`), and whatever they refuse is checked again against a fresh
 * read before the 400, so a label or field created a moment ago elsewhere is never refused.
 */
export async function checkedChanges(channel: ChannelRef, input: ManageContactInput): Promise<CheckedChanges> {
  const definitions = namesDefinitions(input) ? await channelDefinitions(channel) : undefined;
  try {
    return { definitions, changes: contactChanges(input, definitions ?? NO_DEFINITIONS) };
  } catch (error) {
    if (!(error instanceof InvalidInputError) || !definitions || definitions.current) throw error;
    const fresh = await channelDefinitions(channel, { current: true });
    return { definitions: fresh, changes: contactChanges(input, fresh) };
  }
}

/**
 * The create rules, asked only when there is no contact yet and before any write: the
 * current definitions (read now unless this request already did: a create never stores
 * what cached definitions made of a value, e.g. of a field whose type just changed, so
 * its changes are checked again) and every required field (a 400 naming those missing).
 */
export async function changesForCreate(channel: ChannelRef, input: ManageContactInput, checked: CheckedChanges): Promise<Required<CheckedChanges>> {
  const current = checked.definitions?.current ? { definitions: checked.definitions, changes: checked.changes } : undefined;
  const created = current ?? (await currentChanges(channel, input));
  const missing = missingRequiredFields(created.definitions.fields, created.changes.customFields ?? {});
  if (missing.length > 0) throw missingFieldsError(missing);
  return created;
}

async function currentChanges(channel: ChannelRef, input: ManageContactInput): Promise<Required<CheckedChanges>> {
  const definitions = await channelDefinitions(channel, { current: true });
  return { definitions, changes: contactChanges(input, definitions) };
}

/**
 * How long definitions cached per warm container are used without a read (contacts/manage;
 * contacts/list where no version is at hand). A change less than this long ago may be
 * missed by a container that cached the definitions before it: see docs/ARCHITECTURE.md.
 */
export const DEFINITIONS_CACHE_MS = 5_000;

/** Fetched less than `DEFINITIONS_CACHE_MS` ago (and not in the future: tests move the clock). */
export const isYoung = (fetchedAt: number) => {
  const age = clock.now() - fetchedAt;
  return age >= 0 && age < DEFINITIONS_CACHE_MS;
};

/**
 * Label and custom-field definitions for contacts/manage, per warm container and
 * channel, for `DEFINITIONS_CACHE_MS` (no version is at hand without a read). Bounded:
 * the channel loaded longest ago goes first.
 */
const definitionsCache = new TtlCache<string, { labels: LabelRecord[]; fields: CustomFieldRecord[] }>({ maxAgeMs: DEFINITIONS_CACHE_MS, maxEntries: 256 });

/**
 * The channel's definitions: from this container's cache (not `current`) unless
 * `current` asks for a read now (a create, or a re-read before refusing); a read is
 * `current`, and the cache keeps it.
 */
export async function channelDefinitions(channel: ChannelRef, options: { current?: boolean } = {}): Promise<Definitions> {
  const key = `${channel.workspaceId}#${channel.channelId}`;
  if (options.current) return { ...(await definitionsCache.reload(key, () => listDefinitions(channel))), current: true };
  let read = false;
  const { labels, fields } = await definitionsCache.get(key, () => {
    read = true;
    return listDefinitions(channel);
  });
  return { labels, fields, current: read };
}
