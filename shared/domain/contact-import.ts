import { isDeepStrictEqual } from 'node:util';
import * as v from 'valibot';
import { AppError } from '../errors';
import { newId } from '../ids';
import { mapLimit } from '../map-limit';
import { groupedContactIds, writeIdPointers } from '../data/contact-ids';
import {
  claimAndCount,
  createImportedContact,
  deleteImportLedger,
  finishImportLedgers,
  IMPORT_WRITE_CONCURRENCY,
  putImportLedger,
  readContacts,
} from '../data/contact-import';
import { writeIndexEntries } from '../data/contact-index';
import { ensureContact, updateContact, type ContactChanges, type ContactRecord } from '../data/contacts';
import { listDefinitions } from '../data/definitions';
import type { ChannelRef } from '../identity';
import { contactChanges, missingFieldsError, missingRequiredFields, type Definitions, type ManageContactInput } from './contact-values';
import { changeContactStatus } from './opt-out';
import { clock } from '../clock';
import { described } from '../schema/docs';

/** Rows one contacts/import call takes. */
export const MAX_IMPORT_ROWS = 1000;

/** Time kept back, before the call's deadline, for the writes in flight when it stops starting new ones (they finish, then it answers). */
export const IMPORT_STOP_MARGIN_MS = 1_000;

/** Who imports, and by when the call must answer (real clock, ms since the epoch; none: no deadline, e.g. the CLI). */
export interface ImportOptions {
  userId?: string;
  deadlineMs?: number;
}

/** A row that was not applied, by its index in the request. */
const ImportRowError = v.strictObject({
  index: described(v.pipe(v.number(), v.integer()), 'Position of the row in `contacts` (from 0)', 7),
  /** Normalized when it could be, else as sent; null when absent or not a string. */
  phoneNumber: described(v.nullable(v.string()), 'The row’s phone number (normalized when it could be), or null', '14155550123'),
  error: described(v.string(), 'The error code contacts/manage would answer for this row', 'invalid_parameter'),
  message: described(v.string(), 'What is wrong with the row', 'Unknown labels: Nope. Create them with labels/manage first.'),
  parameter: v.optional(described(v.string(), 'The row’s parameter at fault', 'labelNames')),
});
export type ImportRowError = v.InferOutput<typeof ImportRowError>;

/** A row as the caller parsed it: the contacts/manage input, or why it could not be read. */
export type ImportRow = { index: number; input: ManageContactInput } | { index: number; error: ImportRowError };

/** What contacts/import answers: the rows applied, and each refused row by its index. */
export const ImportResult = v.strictObject({
  created: described(v.pipe(v.number(), v.integer()), 'Contacts this call created', 998),
  updated: described(v.pipe(v.number(), v.integer()), 'Existing contacts this call changed', 1),
  unchanged: described(
    v.pipe(v.number(), v.integer()),
    'Rows of existing contacts that changed nothing (a re-run of the same rows counts all its rows here)',
    0,
  ),
  merged: described(
    v.pipe(v.number(), v.integer()),
    'Rows folded into a later row naming the same phone number: applied with it as one contact (each field’s last value wins)',
    0,
  ),
  failed: described(v.pipe(v.number(), v.integer()), 'Rows not applied; each is in `errors`', 1),
  errors: described(v.array(ImportRowError), 'The rows not applied, by index'),
  pending: described(
    v.array(v.pipe(v.number(), v.integer())),
    'Indexes of the rows the call had no time left to apply (wholly or their `status`), in request order; empty when the call is complete. Send the same call again (or these rows) to finish them: what was applied is not applied twice.',
    [],
  ),
});
export type ImportSummary = v.InferOutput<typeof ImportResult>;

/** A contact's rows, checked and folded into one ({@link collapseByPhone}). */
interface ReadyRow {
  /** The rows of this phone number, in request order (one unless the call repeats the number). */
  indexes: number[];
  phone: string;
  changes: ContactChanges;
  /** Required custom fields a create of this row would lack (an update needs none). */
  missing: string[];
  /** The row's `status`, applied after its contact is written, as contacts/manage applies it (audit record, event). */
  status?: ManageContactInput['status'];
}

/** The row error of a refusal contacts/manage would answer for this row. */
export function rowError(index: number, phoneNumber: string | null, error: AppError): ImportRowError {
  return { index, phoneNumber, error: error.code, message: error.message, ...(error.parameter ? { parameter: error.parameter } : {}) };
}

/**
 * contacts/import: applies each row exactly as contacts/manage would (labels and custom
 * fields checked against the channel's definitions, read once and consistently for the
 * call; required fields enforced on creates only), reporting a refused row by its index
 * without stopping the others. New contacts are written in bulk under an import ledger
 * (shared/data/contact-import.ts: ≈ 1.1 writes a contact instead of contacts/manage's 5),
 * existing ones updated as contacts/manage updates them, at most
 * `IMPORT_WRITE_CONCURRENCY` writes in flight. Importing the same rows again creates
 * nothing. Rows repeating a phone number are folded into one before anything is
 * written, so a call's work is bounded by its distinct numbers: one write (and at most
 * one status change, one event) per contact, whatever the rows repeat.
 */
export async function importContacts(channel: ChannelRef, rows: ImportRow[], options: ImportOptions = {}): Promise<ImportSummary> {
  const errors: ImportRowError[] = [];
  const ready: ReadyRow[] = [];
  const definitions: Definitions | undefined = rows.some((row) => 'input' in row) ? { ...(await listDefinitions(channel)), current: true } : undefined;
  for (const row of rows) {
    if (!('input' in row)) {
      errors.push(row.error);
      continue;
    }
    try {
      const changes = contactChanges(row.input, definitions!);
      ready.push({ indexes: [row.index], phone: row.input.phoneNumber, changes, status: row.input.status, missing: [] });
    } catch (error) {
      if (!(error instanceof AppError) || !error.isCallerFault) throw error;
      errors.push(rowError(row.index, row.input.phoneNumber, error));
    }
  }
  const contacts = collapseByPhone(ready).map((row) => ({ ...row, missing: missingRequiredFields(definitions!.fields, row.changes.customFields ?? {}) }));
  const pending: number[] = [];
  const counts = await applyContacts(channel, contacts, { errors, pending }, options);
  errors.sort((a, b) => a.index - b.index);
  return { ...counts, failed: errors.length, errors, pending: pending.sort((a, b) => a - b) };
}

/**
 * Folds the rows naming one phone number into one, as consecutive contacts/manage calls
 * would leave the contact: each field's last value wins, custom fields key by key, the
 * last status asked for. A refused row was never ready, so it folds into nothing.
 */
function collapseByPhone(rows: ReadyRow[]): ReadyRow[] {
  const byPhone = new Map<string, ReadyRow>();
  for (const row of rows) {
    const earlier = byPhone.get(row.phone);
    if (!earlier) {
      byPhone.set(row.phone, row);
      continue;
    }
    const later = Object.fromEntries(Object.entries(row.changes).filter(([, value]) => value !== undefined)) as ContactChanges;
    const changes: ContactChanges = { ...earlier.changes, ...later };
    if (earlier.changes.customFields && row.changes.customFields) changes.customFields = { ...earlier.changes.customFields, ...row.changes.customFields };
    byPhone.set(row.phone, {
      indexes: [...earlier.indexes, ...row.indexes],
      phone: row.phone,
      changes,
      status: row.status ?? earlier.status,
      missing: [],
    });
  }
  return [...byPhone.values()];
}

/** What a row may change on a contact; `updatedAt` and the bookkeeping attributes aside. */
const IMPORTED_FIELDS = ['name', 'email', 'profilePictureUrl', 'labelIds', 'customFields', 'waId'] as const;

/** Whether a row's write left its contact as it was: the same fields after as before, and no other status asked for. */
function unchangedBy(before: ContactRecord | undefined, after: ContactRecord, row: ReadyRow): boolean {
  if (!before || (row.status !== undefined && row.status !== before.status)) return false;
  return IMPORTED_FIELDS.every((field) => isDeepStrictEqual(before[field] ?? null, after[field] ?? null));
}

/**
 * The call's contacts (distinct phones): reads which exist (consistent BatchGet), creates
 * the others under a new ledger, updates the existing ones as contacts/manage does,
 * then indexes, claims and counts the created ones, and finishes any other import's
 * ledger its contacts name (a crashed or concurrent import of the same numbers).
 */
/**
 * Wraps one row's work so that it either starts before the call's stop time and finishes, or
 * waits for another call (its rows go to `pending`): never half of a contact's write or status change.
 */
function withinDeadline(deadlineMs: number | undefined, pending: number[]) {
  const stopAt = deadlineMs === undefined ? Infinity : deadlineMs - IMPORT_STOP_MARGIN_MS;
  return <T>(work: (item: T, place: number) => Promise<void>, rowOf: (item: T) => ReadyRow) =>
    async (item: T, place: number) => {
      if (clock.realNow() < stopAt) return work(item, place);
      pending.push(...rowOf(item).indexes);
    };
}

/** The call's new contacts enter the list index and get id pointers; then the ledger's claim counts them. */
async function indexCreatedContacts(channel: ChannelRef, ledgerId: string, created: ContactRecord[]): Promise<void> {
  if (created.length === 0) return;
  await writeIndexEntries(channel, created, true);
  await writeIdPointers(channel, created, true);
  await claimAndCount(
    channel,
    ledgerId,
    created.map((contact) => contact.phone),
  );
}

/** Statuses last, each as contacts/manage applies one (its audit record and event), once the contact is counted. */
async function applyImportedStatuses(
  channel: ChannelRef,
  written: Map<ReadyRow, ContactRecord>,
  options: ImportOptions,
  unlessOutOfTime: ReturnType<typeof withinDeadline>,
): Promise<void> {
  await mapLimit(
    [...written].filter(([row]) => row.status !== undefined),
    IMPORT_WRITE_CONCURRENCY,
    unlessOutOfTime(
      async ([row, contact]) => {
        await changeContactStatus(channel, contact, { status: row.status!, source: 'import', at: clock.now(), userId: options.userId });
      },
      ([row]) => row,
    ),
  );
}

async function applyContacts(
  channel: ChannelRef,
  contacts: ReadyRow[],
  { errors, pending }: { errors: ImportRowError[]; pending: number[] },
  options: ImportOptions,
): Promise<{ created: number; updated: number; unchanged: number; merged: number }> {
  const unlessOutOfTime = withinDeadline(options.deadlineMs, pending);
  const existing = await readContacts(
    channel,
    contacts.map((row) => row.phone),
  );
  const ledgerId = newId('imp');
  const otherLedgers = new Set<string>();
  const noteLedger = (contact: ContactRecord) => {
    if (contact.importedBy && contact.importedBy !== ledgerId) otherLedgers.add(contact.importedBy);
  };
  existing.forEach(noteLedger);
  const toCreate = contacts.filter((row) => !existing.has(row.phone) && row.missing.length === 0);
  const toUpsert = contacts.filter((row) => existing.has(row.phone) || row.missing.length > 0);
  const createdContacts: ContactRecord[] = [];
  const counts = { updated: 0, unchanged: 0, createdByUpsert: 0 };
  const written = new Map<ReadyRow, ContactRecord>();

  // contacts/manage's own path: an update, or a create (as contacts/manage counts it) when the contact is gone and the row has every required field.
  const upsert = async (row: ReadyRow) => {
    let result: { contact: ContactRecord; created: boolean } | undefined;
    if (row.missing.length === 0) result = await ensureContact(channel, row.phone, row.changes);
    else {
      const contact = await updateContact(channel, row.phone, row.changes);
      result = contact && { contact, created: false };
    }
    if (!result) {
      for (const index of row.indexes) errors.push(rowError(index, row.phone, missingFieldsError(row.missing)));
      return;
    }
    noteLedger(result.contact);
    written.set(row, result.contact);
    if (result.created) counts.createdByUpsert++;
    else if (unchangedBy(existing.get(row.phone), result.contact, row)) counts.unchanged++;
    else counts.updated++;
  };

  if (toCreate.length > 0) {
    await putImportLedger(
      channel,
      ledgerId,
      toCreate.map((row) => row.phone),
    );
  }
  // The call's new contacts get ids of one group: one pointer item and a few index chunks for all of them.
  const ids = groupedContactIds(toCreate.length);
  const ownRow = (row: ReadyRow) => row;
  await mapLimit(
    toCreate,
    IMPORT_WRITE_CONCURRENCY,
    unlessOutOfTime(async (row, place) => {
      const contact = await createImportedContact(channel, row.phone, row.changes, ledgerId, ids[place]);
      // Created meanwhile by someone else: update it, as contacts/manage converges.
      if (contact) {
        createdContacts.push(contact);
        written.set(row, contact);
      } else await upsert(row);
    }, ownRow),
  );
  await mapLimit(toUpsert, IMPORT_WRITE_CONCURRENCY, unlessOutOfTime(upsert, ownRow));
  await indexCreatedContacts(channel, ledgerId, createdContacts);
  if (toCreate.length > 0) await deleteImportLedger(channel, ledgerId);
  await applyImportedStatuses(channel, written, options, unlessOutOfTime);
  await finishImportLedgers(channel, [...otherLedgers]);
  const merged = [...written.keys()].reduce((sum, row) => sum + row.indexes.length - 1, 0);
  return { created: createdContacts.length + counts.createdByUpsert, updated: counts.updated, unchanged: counts.unchanged, merged };
}
