import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { parseImportRow } from '../../functions/contacts-import';
import { importContacts, MAX_IMPORT_ROWS, type ImportRow, type ImportRowError } from '../../shared/domain/contact-import';
import { OperatorError, requireChannel } from './commands';

/**
 * `admin contacts import --channel CH --file contacts.csv [--errors FILE]`: streams a CSV
 * of any size through contacts/import's own path — the rows parsed by the endpoint's
 * row parser (functions/contacts-import.ts) and applied by the same domain function
 * (`importContacts`), 1,000 rows a call — straight against the table, like the other
 * operator commands (locally the stack's store or DATA_DIR's, in AWS `TABLE_NAME`).
 * So it needs no API key and no running stack, is not rate-limited, and every rule of
 * the endpoint applies unchanged. README "Importing contacts" documents the columns.
 *
 * Memory stays flat: the file is read as a stream, at most `IN_FLIGHT` calls of 1,000
 * rows are held, and failed rows are written to the errors file as they come.
 */

/** Calls of 1,000 rows in flight at once (each keeps 16 table writes in flight). */
const IN_FLIGHT = 4;
/** How often the progress line is rewritten. */
const PROGRESS_EVERY_MS = 1000;

/** Header names (lowercased, without spaces, dashes and underscores) of the columns that are not custom fields. */
export const COLUMNS: Readonly<Record<string, string>> = {
  phone: 'phoneNumber',
  phonenumber: 'phoneNumber',
  name: 'name',
  email: 'email',
  labels: 'labelNames',
  labelnames: 'labelNames',
  profilepictureurl: 'profilePictureUrl',
  status: 'status',
};

/** Separators of several labels in one `labels` cell. */
const LABEL_SEPARATOR = /[;|]/;

export interface ImportSummary {
  channelId: string;
  file: string;
  rows: number;
  created: number;
  updated: number;
  failed: number;
  /** The failed rows, as sent, with `error` and `message` columns (and the CSV line), or null when none failed. */
  errorsFile: string | null;
  seconds: number;
  rowsPerSecond: number;
}

/** What a header column holds: a contacts/import parameter, or a custom field of that name. */
type Column = { parameter: string } | { field: string };

/** The header's columns, mapped once for the whole file (names compared without case, spaces, `_` or `-`). */
export function columnsOf(header: string[]): Column[] {
  return header.map((column) => {
    const parameter = COLUMNS[column.toLowerCase().replace(/[\s_-]/g, '')];
    return parameter ? { parameter } : { field: column.trim() };
  });
}

/** The row of the CSV as contacts/import takes it: mapped columns, the rest as custom fields; empty cells are left out. */
export function rowFromCells(columns: Column[], cells: string[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const fields: Record<string, string> = Object.create(null);
  columns.forEach((column, i) => {
    const value = cells[i]?.trim() ?? '';
    if (value === '') return;
    if ('field' in column) fields[column.field] = value;
    else if (column.parameter === 'labelNames')
      row.labelNames = value
        .split(LABEL_SEPARATOR)
        .map((label) => label.trim())
        .filter(Boolean);
    else row[column.parameter] = value;
  });
  if (Object.keys(fields).length > 0) row.customFieldsData = fields;
  return row;
}

export async function contactsImport(options: {
  channelId: string;
  file: string;
  errorsFile?: string;
  progress?: (line: string, done: boolean) => void;
}): Promise<ImportSummary> {
  const channel = await requireChannel(options.channelId);
  const size = await stat(options.file).then(
    (info) => info.size,
    (error: Error) => {
      throw new OperatorError(`Cannot read ${options.file}: ${error.message}`);
    },
  );
  const errorsPath = options.errorsFile ?? `${options.file}.errors.csv`;
  const started = performance.now();
  const totals = { rows: 0, created: 0, updated: 0, failed: 0 };
  let errorsOut: ReturnType<typeof createWriteStream> | undefined;
  let header: string[] | undefined;
  let columns: Column[] = [];
  let bytesRead = 0;
  let lastProgress = 0;

  const progress = (done: boolean) => {
    const now = performance.now();
    if (!done && now - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = now;
    const seconds = (now - started) / 1000;
    const rate = totals.rows / Math.max(seconds, 0.001);
    const share = size ? bytesRead / size : 1;
    const eta = share > 0 && !done ? (seconds / share) * (1 - share) : 0;
    options.progress?.(
      `${totals.rows} rows (${(share * 100).toFixed(0)} %), ${rate.toFixed(0)} rows/s, ETA ${done ? 0 : eta.toFixed(0)} s — ${totals.created} created, ${totals.updated} updated, ${totals.failed} failed`,
      done,
    );
  };

  const writeErrors = async (batch: Batch, errors: ImportRowError[]) => {
    if (errors.length === 0) return;
    if (!errorsOut) {
      errorsOut = createWriteStream(errorsPath);
      errorsOut.write(`${[...header!, 'error', 'message', 'line'].map(csvCell).join(',')}\r\n`);
    }
    for (const error of errors) {
      const line = [...batch.cells[error.index], error.error, error.message, String(batch.lines[error.index])].map(csvCell).join(',');
      if (!errorsOut.write(`${line}\r\n`)) await once(errorsOut, 'drain');
    }
  };

  // Rows of one phone number apply in file order: a call waits for the calls in flight that share a number with it.
  const lastCallOf = new Map<string, Promise<void>>();
  const inFlight = new Set<Promise<void>>();
  const send = async (batch: Batch) => {
    const rows: ImportRow[] = batch.rows.map((raw, index) =>
      raw === null
        ? {
            index,
            error: {
              index,
              phoneNumber: null,
              error: 'invalid_parameter',
              message: 'The line has more cells than the header has columns.',
              parameter: 'contacts',
            },
          }
        : parseImportRow(raw, index),
    );
    const phones = rows.flatMap((row) => ('input' in row ? [row.input.phoneNumber] : []));
    const before = [...new Set(phones.map((phone) => lastCallOf.get(phone)).filter((call): call is Promise<void> => call !== undefined))];
    const call = (async () => {
      await Promise.all(before);
      const result = await importContacts({ workspaceId: channel.workspaceId, channelId: options.channelId }, rows);
      totals.rows += rows.length;
      totals.created += result.created;
      totals.updated += result.updated;
      totals.failed += result.failed;
      await writeErrors(batch, result.errors);
      progress(false);
    })();
    for (const phone of phones) lastCallOf.set(phone, call);
    inFlight.add(call);
    void call.then(
      () => {
        inFlight.delete(call);
        for (const phone of phones) if (lastCallOf.get(phone) === call) lastCallOf.delete(phone);
      },
      () => inFlight.delete(call),
    );
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
  };

  let batch = newBatch();
  const parser = new CsvParser();
  const onRecord = async (cells: string[], line: number) => {
    if (!header) {
      header = cells.map((cell, i) => (i === 0 ? cell.replace(/^\uFEFF/, '') : cell));
      columns = columnsOf(header);
      if (!columns.some((column) => 'parameter' in column && column.parameter === 'phoneNumber')) {
        throw new OperatorError(`${options.file}: the first line must be a header with a phone column (phone or phoneNumber); found ${header.join(', ')}`);
      }
      return;
    }
    if (cells.length === 1 && cells[0].trim() === '') return; // a blank line
    batch.rows.push(cells.length > header.length ? null : rowFromCells(columns, cells));
    batch.cells.push(cells);
    batch.lines.push(line);
    if (batch.rows.length === MAX_IMPORT_ROWS) {
      await send(batch);
      batch = newBatch();
    }
  };

  try {
    for await (const chunk of createReadStream(options.file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      bytesRead += Buffer.byteLength(chunk as string);
      for (const [cells, line] of parser.push(chunk as string)) await onRecord(cells, line);
    }
    for (const [cells, line] of parser.end()) await onRecord(cells, line);
    if (batch.rows.length > 0) await send(batch);
    await Promise.all(inFlight);
  } finally {
    await Promise.allSettled(inFlight);
    if (errorsOut) {
      errorsOut.end();
      await once(errorsOut, 'close');
    }
  }
  if (!header) throw new OperatorError(`${options.file} is empty: it needs a header line and rows.`);
  progress(true);
  const seconds = (performance.now() - started) / 1000;
  return {
    channelId: options.channelId,
    file: options.file,
    ...totals,
    errorsFile: errorsOut ? errorsPath : null,
    seconds: Math.round(seconds * 10) / 10,
    rowsPerSecond: Math.round(totals.rows / Math.max(seconds, 0.001)),
  };
}

interface Batch {
  /** Rows as contacts/import takes them; null for a line with more cells than the header (refused by the row parser). */
  rows: unknown[];
  /** The cells as read, for the errors file. */
  cells: string[][];
  /** The CSV line each row starts on (1 = the header). */
  lines: number[];
}

const newBatch = (): Batch => ({ rows: [], cells: [], lines: [] });

/** A CSV cell, quoted when it needs to be (RFC 4180). */
export const csvCell = (value: string) => (/[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * A streaming RFC 4180 parser: fields separated by commas, records by CRLF or LF,
 * quoted fields may hold commas, quotes (doubled) and line breaks. `push` returns the
 * records completed by a chunk (with the line each starts on); `end` the last one.
 */
export class CsvParser {
  private field = '';
  private record: string[] = [];
  private quoted = false;
  /** The previous character closed a quoted section (a quote now is an escaped quote). */
  private afterQuote = false;
  private line = 1;
  private recordLine = 1;
  private pendingCr = false;

  push(text: string): Array<[string[], number]> {
    const done: Array<[string[], number]> = [];
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (this.pendingCr) {
        this.pendingCr = false;
        if (char === '\n') continue;
      }
      if (this.quoted) {
        if (char === '"') {
          this.quoted = false;
          this.afterQuote = true;
        } else {
          if (char === '\n') this.line++;
          this.field += char;
        }
        continue;
      }
      if (char === '"') {
        if (this.afterQuote) this.field += '"';
        this.quoted = true;
        this.afterQuote = false;
        continue;
      }
      this.afterQuote = false;
      if (char === ',') {
        this.record.push(this.field);
        this.field = '';
      } else if (char === '\n' || char === '\r') {
        this.record.push(this.field);
        done.push([this.record, this.recordLine]);
        this.record = [];
        this.field = '';
        this.line++;
        this.recordLine = this.line;
        this.pendingCr = char === '\r';
      } else {
        this.field += char;
      }
    }
    return done;
  }

  end(): Array<[string[], number]> {
    if (this.field === '' && this.record.length === 0) return [];
    this.record.push(this.field);
    const last: [string[], number] = [this.record, this.recordLine];
    this.record = [];
    this.field = '';
    return [last];
  }
}
