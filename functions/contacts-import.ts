import * as v from 'valibot';
import { ImportResult, importContacts, MAX_IMPORT_ROWS, rowError, type ImportRow } from '../shared/domain/contact-import';
import { apiEndpoint } from '../shared/http/api-handler';
import { outboundDeadline } from '../shared/outbound/deadline';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { toBadRequest, unknownParameter } from '../shared/http/middleware/parameters';
import { DefinedParameters } from '../shared/schema/parameter-names';
import { MAX_PHONE_INPUT_LENGTH } from '../shared/phone/phone';
import { channelId, contactStatus, CONTROL_CHARS, LIMITS } from '../shared/schema/params';
import { schema as manageSchema } from './contacts-manage';

/** One row: exactly contacts/manage's parameters (the call's channel applies; a row's own `channelId` is ignored). */
const rowSchema = v.omit(manageSchema, ['channelId']);

/** The names a row may use: contacts/manage's parameters (its `channelId` too, which a row may carry and which is ignored). */
const ROW_PARAMETERS = new DefinedParameters(manageSchema);

/** Levels a row may nest (a contacts/manage request has 2: customFieldsData, labelNames); deeper is an attack on the parser, refused as a whole. */
const MAX_ROW_DEPTH = 4;
const depthOf = (value: unknown, limit: number): number => {
  if (value === null || typeof value !== 'object' || limit === 0) return 0;
  return 1 + Math.max(0, ...Object.values(value).map((inner) => depthOf(inner, limit - 1)));
};

/** A row's shape in the OpenAPI document: contacts/manage's parameters. */
const ROW_DOC = {
  type: 'object',
  description: 'One contact, with the parameters of contacts/manage (see ContactsManageParams for every rule).',
  required: ['phoneNumber'],
  additionalProperties: false,
  maxProperties: Object.keys(manageSchema.entries).length,
  properties: {
    phoneNumber: { type: 'string', maxLength: MAX_PHONE_INPUT_LENGTH },
    name: { type: 'string', maxLength: LIMITS.name },
    email: { type: 'string', maxLength: LIMITS.email },
    profilePictureUrl: { type: 'string', maxLength: LIMITS.url },
    customFieldsData: {
      type: 'object',
      maxProperties: LIMITS.customFields,
      additionalProperties: { anyOf: [{ type: 'string', maxLength: LIMITS.customFieldValue }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
    },
    labelNames: { type: 'array', maxItems: LIMITS.listEntries, items: { type: 'string', maxLength: LIMITS.name } },
    status: { type: 'string', enum: contactStatus().options },
    channelId: { type: 'string', description: 'Ignored: the call’s channelId applies.' },
  },
};

/** `contacts`: a JSON array (or, in a query string, the JSON text of one) of 1 to 1,000 rows; each row is checked on its own. */
const contactRows = () =>
  v.pipe(
    v.union(
      [
        v.array(v.unknown()),
        v.pipe(
          v.string(),
          v.check((text) => !CONTROL_CHARS.test(text), 'must not contain control characters'),
        ),
      ],
      'must be an array of contacts',
    ),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (typeof dataset.value !== 'string') return dataset.value;
      try {
        const parsed: unknown = JSON.parse(dataset.value);
        if (Array.isArray(parsed)) return parsed as unknown[];
      } catch {
        // reported below
      }
      addIssue({ message: 'must be an array of contacts' });
      return NEVER;
    }),
    v.array(v.unknown()),
    v.minLength(1, 'must have at least one contact'),
    v.maxLength(MAX_IMPORT_ROWS, `must have at most ${MAX_IMPORT_ROWS} contacts`),
    v.check((rows) => rows.every((row) => depthOf(row, MAX_ROW_DEPTH + 1) <= MAX_ROW_DEPTH), `rows must not nest more than ${MAX_ROW_DEPTH} levels deep`),
    // For the OpenAPI document: each row is a contacts/manage request (ContactsManageParams states every limit).
    v.metadata({ items: ROW_DOC, minItems: 1, maxItems: MAX_IMPORT_ROWS }),
  );

export const schema = v.object({
  channelId: channelId(),
  contacts: described(
    contactRows(),
    'The contacts: 1 to 1,000 objects, each with the parameters of contacts/manage (`phoneNumber` required; a row’s `channelId` is ignored; any other key refuses the whole call with 400 `unknown_parameter` naming it, e.g. `contacts[2].labels`, and nothing is written). Each row is applied as contacts/manage would apply it; a refused row is reported by its index and does not stop the others. Rows naming the same phone number are applied as one contact: each field’s last value wins (custom fields key by key), and at most one status change (one opt-out event) a contact. Importing the same rows again creates nothing. The body may be up to 1 MiB. In a query string: the JSON text of the array.',
    [
      { phoneNumber: '+14155550123', name: 'Bo Example', email: 'bo@example.com', labelNames: ['VIP'], customFieldsData: { city: 'Oakland' } },
      { phoneNumber: '+442079460958', name: 'Ann Example' },
    ],
  ),
});

/**
 * A row key contacts/manage does not define refuses the whole call before any row is
 * applied, as an unknown parameter of any endpoint is refused: a typo (`labels` for
 * `labelNames`) must not import contacts without what it meant. A row that is no object
 * is left to parseImportRow, which reports it as that row's error.
 */
function refuseUnknownRowKeys(rows: readonly unknown[]): void {
  rows.forEach((row, index) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) return;
    const unknown = Object.keys(row).find((key) => !ROW_PARAMETERS.defines(key));
    if (unknown !== undefined) throw unknownParameter(`contacts[${index}].${unknown}`, ROW_PARAMETERS.closestTo(unknown));
  });
}

/** Reads one row as contacts/manage reads its parameters; a row it would refuse becomes that row's error. */
export function parseImportRow(raw: unknown, index: number): ImportRow {
  const sentPhone = (raw as { phoneNumber?: unknown } | null)?.phoneNumber;
  const phoneNumber = typeof sentPhone === 'string' || typeof sentPhone === 'number' ? String(sentPhone) : null;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      index,
      error: {
        index,
        phoneNumber: null,
        error: 'invalid_parameter',
        message: 'Each contact must be an object of contacts/manage parameters.',
        parameter: 'contacts',
      },
    };
  }
  const parsed = v.safeParse(rowSchema, raw, { abortPipeEarly: true });
  if (!parsed.success) return { index, error: rowError(index, phoneNumber, toBadRequest(parsed.issues)) };
  return { index, input: parsed.output };
}

export const response = endpointResponse({
  data: ImportResult,
  message: 'Imported 1000 row(s): 998 created, 1 updated, 1 failed',
  description: 'Each row applied as contacts/manage would apply it; a refused row does not stop the others and is reported by its index in `errors`.',
});

export const handler = apiEndpoint({
  path: 'contacts/import',
  schema,
  response,
  channelScoped: true,
  handle: async ({ contacts }, { channel, principal }) => {
    refuseUnknownRowKeys(contacts);
    // The call answers 200 by its deadline whatever it holds: rows it had no time for come back as `pending`, for the caller to send again.
    const result = await importContacts(channel, contacts.map(parseImportRow), { userId: principal.userId, deadlineMs: outboundDeadline() });
    const counts = `${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.failed} failed`;
    const rest = result.pending.length > 0 ? `; ${result.pending.length} pending (out of time: send them again)` : '';
    return { data: result, message: `Imported ${contacts.length} row(s): ${counts}${rest}` };
  },
});
