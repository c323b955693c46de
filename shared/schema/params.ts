import * as v from 'valibot';
import { MAX_PHONE_INPUT_LENGTH, normalizePhone } from '../phone/phone';
import { described } from './docs';

/**
 * Parameter schemas shared by every endpoint. GET delivers every value as a string,
 * POST as JSON types, so each schema accepts both forms and outputs one type.
 * Every string and list has a maximum (docs/RELIABILITY.md lists them).
 *
 * A parameter's OpenAPI description and example are written on its schema with
 * `described` (./docs.ts): here for the parameters several endpoints share under one
 * name and meaning (channelId, contactId, webhookId, cursor), in the function file for
 * the others. Examples match the demo data of `npm start`, so "try it" works with a demo key.
 */

export const LIMITS = {
  id: 64,
  name: 100,
  shortText: 255,
  url: 2048,
  email: 254,
  messageBody: 4096,
  listEntries: 50,
  customFields: 50,
  customFieldValue: 1000,
  search: 100,
  // Label and custom-field definitions: with the per-channel caps (MAX_LABELS_PER_CHANNEL,
  // MAX_FIELDS_PER_CHANNEL in shared/data/definitions.ts) these keep labels/list and
  // custom-fields/list one 1 MB query page even at the longest values
  // (test/shared/definition-sizes.test.ts).
  /** A label's description. */
  labelDescription: 300,
  /** A dropdown field's options: entries, and characters each. */
  optionEntries: 50,
  optionLength: 50,
} as const;

// Control characters other than tab and newline have no place in any parameter.
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const noControlChars = v.check((s: string) => !CONTROL_CHARS.test(s), 'must not contain control characters');

/** A non-empty, trimmed string of at most `max` characters. */
export const text = (max: number) =>
  v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(max, `must be at most ${max} characters`), noControlChars);

/** A trimmed string that may be empty (to clear a value), of at most `max` characters. */
export const optionalText = (max: number) =>
  v.pipe(v.string('must be a string'), v.trim(), v.maxLength(max, `must be at most ${max} characters`), noControlChars);

/** An identifier such as a channel id. */
export const identifier = () =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.nonEmpty('must not be empty'),
    v.maxLength(LIMITS.id, `must be at most ${LIMITS.id} characters`),
    v.regex(/^[A-Za-z0-9_.:-]+$/, 'is not a valid identifier'),
  );

/**
 * An integer given as a JSON number or as a decimal string. Any number of digits
 * is read as the number (so GET and POST agree, e.g. on a clamped limit); the range
 * check then refuses what lies beyond `max`, including values past 2^53.
 */
export const integer = (min: number, max: number) =>
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.trim(), v.regex(/^-?\d+$/))], 'must be an integer'),
    v.transform(Number),
    v.number('must be an integer'),
    v.integer('must be an integer'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/** A boolean given as JSON true/false or the strings "true"/"false" (GET). */
export const boolean = () =>
  v.pipe(
    v.union([v.boolean(), v.picklist(['true', 'false', 'TRUE', 'FALSE', 'True', 'False'])], 'must be true or false'),
    v.transform((value) => value === true || (typeof value === 'string' && value.toLowerCase() === 'true')),
    // The output schema: never fails, but tells the OpenAPI generator the canonical type.
    v.boolean(),
  );

/**
 * A list given as text (GET): a JSON array — the form for values that contain commas,
 * e.g. `["Smith, Jr.","A-1"]` — or comma-separated values. Text that starts with `[`
 * but is no JSON array is read as comma-separated.
 */
export function listFromText(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: comma-separated values, the first of which starts with a bracket
    }
  }
  return text.split(',');
}

/** Characters a list of `entries` values of `length` characters takes as a JSON array (quotes, commas, brackets). */
const listTextLength = (entries: number, length: number) => entries * (length + 3) + 2;

/** A list of names: a JSON array of strings, or (GET) a JSON array or comma-separated string. Duplicates are dropped. */
export const nameList = (maxEntries: number, maxLength: number) =>
  v.pipe(
    v.union(
      [
        v.pipe(v.array(v.string(), 'must be an array of strings'), v.maxLength(maxEntries, `must have at most ${maxEntries} entries`)),
        v.pipe(
          v.string(),
          v.maxLength(listTextLength(maxEntries, maxLength), `must have at most ${maxEntries} entries`),
          v.transform(listFromText),
          v.array(v.string(), 'must be an array of strings'),
        ),
      ],
      'must be an array of strings or a comma-separated string',
    ),
    v.transform((names) => [
      ...new Map(
        names
          .map((n) => n.trim())
          .filter((n) => n !== '')
          .map((n) => [n.toLowerCase(), n]),
      ).values(),
    ]),
    v.array(v.string()),
    v.maxLength(maxEntries, `must have at most ${maxEntries} entries`),
    v.check(
      (names) => names.every((n) => n.length <= maxLength && !CONTROL_CHARS.test(n)),
      `entries must be at most ${maxLength} characters, without control characters`,
    ),
    // For the OpenAPI document: the limits the check above enforces on each entry.
    v.metadata({ items: { type: 'string', minLength: 1, maxLength } }),
  );

/** A phone number in any common notation, normalized to digits with country code. */
export const phone = () =>
  v.pipe(
    v.union([v.string(), v.number()], 'must be a phone number string'),
    v.transform(String),
    noControlChars,
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const normalized = normalizePhone(dataset.value);
      if (normalized === undefined) {
        addIssue({ message: 'must be a phone number with country code, e.g. +14155550100' });
        return NEVER;
      }
      return normalized;
    }),
    v.string(),
    // For the OpenAPI document: what normalizePhone accepts before it parses.
    v.metadata({ maxLength: MAX_PHONE_INPUT_LENGTH, pattern: '^[+0-9 ().-]+$' }),
  );

export const email = () =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.maxLength(LIMITS.email, `must be at most ${LIMITS.email} characters`),
    v.email('must be a valid email address'),
    v.toLowerCase(),
  );

export const httpUrl = () =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.maxLength(LIMITS.url, `must be at most ${LIMITS.url} characters`),
    // The URL parser would accept (and percent-encode) them, but the raw string is what is stored.
    noControlChars,
    v.url('must be an http or https URL'),
    v.check((s) => /^https?:\/\//i.test(s), 'must be an http or https URL'),
  );

export const hexColor = () =>
  v.pipe(v.string('must be a string'), v.trim(), v.regex(/^#[0-9A-Fa-f]{6}$/, 'must be # followed by six hex digits, e.g. #FF8800'), v.toUpperCase());

export const channelId = () =>
  v.optional(
    described(
      identifier(),
      'The channel to work on. Optional when the key may use exactly one channel; otherwise required (400 `channel_required`). A channel the key may not use is a 403.',
      'ch_demoacmesupport',
    ),
  );

/** A contact named by its id (or, where the endpoint takes it instead, by phoneNumber). */
export const contactId = () =>
  v.optional(
    described(
      identifier(),
      'Id of the contact (`data.id` of contacts/manage); alternative to phoneNumber. Unknown, or of another channel: 404.',
      'ct_01jhx3k8m0',
    ),
  );

/** A webhook subscription of the channel, by id. */
export const webhookId = () => described(identifier(), 'Id of a webhook subscription of the channel (webhooks/list).', 'wh_01jhx3k8m0');

/** The cursor of a cursor-paged list, as a previous answer's `nextCursor` gave it (`schema` checks its form). */
export const cursorOf = <T extends v.GenericSchema>(schema: T) =>
  described(schema, "Opaque cursor from a previous answer's `nextCursor` (bound to the channel and the query).", 'eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8');

/** A contact's opt-out status. */
export const contactStatus = () => v.picklist(['active', 'opted_out'], 'must be active or opted_out');

const customFieldValue = v.union(
  [
    v.pipe(
      v.string(),
      v.maxLength(LIMITS.customFieldValue, `values must be at most ${LIMITS.customFieldValue} characters`),
      v.check((s) => !CONTROL_CHARS.test(s), 'values must not contain control characters'),
    ),
    v.number(),
    v.boolean(),
    v.null(),
  ],
  'values must be strings, numbers, booleans or null',
);

/** A value `customFieldsData` may carry for a field (checked against the field's type later). */
export type CustomFieldInput = string | number | boolean | null;

/**
 * Custom-field names that cannot be stored: the DynamoDB document client rebuilds maps
 * on plain objects, where `__proto__` is no key. Refused where a field is defined and
 * in every map of values, never dropped.
 */
export const UNSTORABLE_FIELD_NAMES: ReadonlySet<string> = new Set(['__proto__']);

/** Any JSON object (not an array), passed through whole: `v.record` and `v.object` drop keys named `constructor`, `prototype` and `__proto__`. */
const plainObject = (message: string) =>
  v.custom<Record<string, unknown>>((input) => input !== null && typeof input === 'object' && !Array.isArray(input), message);

/** The object's own entries in a null-prototype copy: a key named `constructor` or `valueOf` is data there, never an inherited member. */
export function ownEntries<T>(object: Record<string, T>): Record<string, T> {
  const copy: Record<string, T> = Object.create(null);
  for (const [key, value] of Object.entries(object)) copy[key] = value;
  return copy;
}

/**
 * Checks every value of a map of custom-field values with `value` and keeps every key
 * (a null-prototype copy); a key that cannot be stored is refused, naming it.
 */
export const customFieldMap = <T>(value: v.GenericSchema<unknown, T>) =>
  v.rawTransform<Record<string, unknown>, Record<string, T>>(({ dataset, addIssue, NEVER }) => {
    const input = dataset.value;
    const output: Record<string, T> = Object.create(null);
    for (const [key, entry] of Object.entries(input)) {
      const path: [v.IssuePathItem] = [{ type: 'object', origin: UNSTORABLE_FIELD_NAMES.has(key) ? 'key' : 'value', input, key, value: entry }];
      if (UNSTORABLE_FIELD_NAMES.has(key)) {
        addIssue({ message: `"${key}" cannot be a custom field name`, path });
        return NEVER;
      }
      const result = v.safeParse(value, entry);
      if (!result.success) {
        addIssue({ message: result.issues[0].message, path });
        return NEVER;
      }
      output[key] = result.output;
    }
    return output;
  });

/** `customFieldsData`: a JSON object, a JSON object in a string (GET), or `key:value,key2:value2`. Every key is kept (null-prototype objects). */
export const customFieldsData = () =>
  v.pipe(
    v.union(
      [plainObject('must be an object or key:value pairs'), v.pipe(v.string(), v.maxLength(LIMITS.customFields * (LIMITS.customFieldValue + LIMITS.name)))],
      'must be an object or key:value pairs',
    ),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (typeof value !== 'string') return ownEntries(value);
      if (value.trim().startsWith('{')) {
        try {
          const parsed: unknown = JSON.parse(value);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return ownEntries(parsed as Record<string, unknown>);
        } catch {
          // reported below
        }
        addIssue({ message: 'is not a valid JSON object' });
        return NEVER;
      }
      const pairs: Record<string, unknown> = Object.create(null);
      for (const pair of value.split(',')) {
        if (pair.trim() === '') continue;
        const colon = pair.indexOf(':');
        if (colon <= 0) {
          addIssue({ message: `"${pair.trim().slice(0, 40)}" is not a key:value pair` });
          return NEVER;
        }
        pairs[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
      }
      return pairs;
    }),
    v.check((data) => Object.keys(data).length <= LIMITS.customFields, `must have at most ${LIMITS.customFields} fields`),
    v.check(
      (data) => Object.keys(data).every((key) => key.trim() !== '' && key.length <= LIMITS.name && !CONTROL_CHARS.test(key)),
      `keys must be 1 to ${LIMITS.name} characters`,
    ),
    customFieldMap(customFieldValue),
    // For the OpenAPI document (it reads the last schema of the pipe, and the checks above): the
    // map is checked by hand rather than with v.record, which drops keys such as `constructor`.
    v.custom<Record<string, CustomFieldInput>>(() => true),
    v.metadata({
      type: 'object',
      propertyNames: { type: 'string', minLength: 1, maxLength: LIMITS.name },
      additionalProperties: { anyOf: [{ type: 'string', maxLength: LIMITS.customFieldValue }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
      maxProperties: LIMITS.customFields,
    }),
  );
