import * as v from 'valibot';
import { InvalidInputError } from '../errors';
import { LIMITS } from '../schema/params';
import type { CustomFieldRecord, LabelRecord } from '../data/definitions';
import type { CustomFieldValue } from '../data/contacts';
import { matchKey } from '../identity';
import { normalizePhone } from '../phone/phone';

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
