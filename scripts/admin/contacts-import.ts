import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { parseImportRow } from '../../functions/contacts-import';
import type { ChannelRef } from '../../shared/identity';
import { importContacts, MAX_IMPORT_ROWS, type ImportSummary, type ImportRow, type ImportRowError } from '../../shared/domain/contact-import';
import { OperatorError, requireChannel } from './commands';
import { cellValue, csvCell, CsvParser } from './csv';

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

export interface FileImportSummary {
  channelId: string;
  file: string;
  rows: number;
  created: number;
  updated: number;
  /** Rows of existing contacts that changed nothing (a re-import). */
  unchanged: number;
  failed: number;
  /** The failed rows, as sent, with `error` and `message` columns (and the CSV line), or null when none failed. */
  errorsFile: string | null;
  seconds: number;
  rowsPerSecond: number;
}

/** What a header column holds: a contacts/import parameter, or a custom field of that name. */
type Column = { parameter: string } | { field: string };

/** The header's columns, mapped once for the whole file (names compared without case, spaces, `_` or `-`). */
function columnsOf(header: string[]): Column[] {
  return header.map((column) => {
    const parameter = COLUMNS[column.toLowerCase().replace(/[\s_-]/g, '')];
    return parameter ? { parameter } : { field: column.trim() };
  });
}

/** The row of the CSV as contacts/import takes it: mapped columns, the rest as custom fields; empty cells are left out. */
function rowFromCells(columns: Column[], cells: string[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const fields: Record<string, string> = Object.create(null);
  columns.forEach((column, i) => {
    const value = cellValue(cells[i]?.trim() ?? '');
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
  /** An absolute path (the CLI resolves it from where the command was typed). */
  file: string;
  errorsFile?: string;
  progress?: (line: string, done: boolean) => void;
}): Promise<FileImportSummary> {
  const channel = await requireChannel(options.channelId);
  const size = await stat(options.file).then(
    (info) => info.size,
    (error: NodeJS.ErrnoException) => {
      throw new OperatorError(`Cannot read ${options.file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    },
  );
  const run = new ImportRun({ workspaceId: channel.workspaceId, channelId: options.channelId }, options.file, await countRows(options.file), size);
  const errors = new ErrorsFile(options.errorsFile ?? `${options.file}.errors.csv`);
  const calls = new ImportCalls(run, errors, () => {
    const line = run.progressLine(false);
    if (line) options.progress?.(line, false);
  });
  const reader = new RowReader(options.file, (batch) => calls.send(batch));
  try {
    for await (const chunk of createReadStream(options.file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      run.bytesRead += Buffer.byteLength(chunk as string);
      await reader.push(chunk as string, errors);
    }
    await reader.end(errors);
    await calls.finish();
  } finally {
    await calls.settle();
    await errors.close();
  }
  options.progress?.(run.progressLine(true), true);
  return run.summary(errors.written ? errors.path : null);
}

/** The data rows of the file (records after the header, blank lines left out): what the progress line counts toward. */
async function countRows(file: string): Promise<number> {
  const parser = new CsvParser();
  let records = 0;
  const count = (found: Array<[string[], number]>) => {
    for (const [cells] of found) if (!(cells.length === 1 && cells[0].trim() === '')) records++;
  };
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) count(parser.push(chunk as string));
  count(parser.end());
  return Math.max(0, records - 1);
}

/** One import's totals and its progress line: rows done of the file's rows; the ETA from the bytes read so far. */
class ImportRun {
  readonly totals = { rows: 0, created: 0, updated: 0, unchanged: 0, failed: 0 };
  bytesRead = 0;
  private readonly started = performance.now();
  private lastProgress = 0;

  constructor(
    readonly channel: ChannelRef,
    readonly file: string,
    readonly rowsInFile: number,
    readonly size: number,
  ) {}

  add(result: ImportSummary, rows: number): void {
    this.totals.rows += rows;
    this.totals.created += result.created;
    this.totals.updated += result.updated;
    this.totals.unchanged += result.unchanged;
    this.totals.failed += result.failed;
  }

  /** The progress line; a line that is not the last is given at most every PROGRESS_EVERY_MS (else empty). */
  progressLine(done: boolean): string {
    const now = performance.now();
    if (!done && now - this.lastProgress < PROGRESS_EVERY_MS) return '';
    this.lastProgress = now;
    const seconds = (now - this.started) / 1000;
    const rate = this.totals.rows / Math.max(seconds, 0.001);
    const share = this.size ? this.bytesRead / this.size : 1;
    const eta = share > 0 && !done ? (seconds / share) * (1 - share) : 0;
    const percent = this.rowsInFile ? (this.totals.rows / this.rowsInFile) * 100 : 100;
    const { rows, created, updated, unchanged, failed } = this.totals;
    return `${rows} of ${this.rowsInFile} rows (${percent.toFixed(0)} %), ${rate.toFixed(0)} rows/s, ETA ${done ? 0 : eta.toFixed(0)} s — ${created} created, ${updated} updated, ${unchanged} unchanged, ${failed} failed`;
  }

  summary(errorsFile: string | null): FileImportSummary {
    const seconds = (performance.now() - this.started) / 1000;
    return {
      channelId: this.channel.channelId,
      file: this.file,
      ...this.totals,
      errorsFile,
      seconds: Math.round(seconds * 10) / 10,
      rowsPerSecond: Math.round(this.totals.rows / Math.max(seconds, 0.001)),
    };
  }
}

/**
 * The failed rows, as read, with `error`, `message` and `line` columns, in the file's line
 * order whatever order the calls finish in: each batch's rows are written after the
 * batch before it. Created at the first failed row.
 */
class ErrorsFile {
  private out: ReturnType<typeof createWriteStream> | undefined;
  private header: string[] = [];
  /** The last batch's write: the next one waits for it. */
  private previous: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  get written(): boolean {
    return this.out !== undefined;
  }

  useHeader(header: string[]): void {
    this.header = header;
  }

  /** Reserves the batch's place in the file now (in file order); writes its errors once `result` is known. */
  inOrder(batch: Batch, result: Promise<ImportRowError[]>): Promise<void> {
    const previous = this.previous;
    const written = (async () => {
      const errors = await result.catch(() => []);
      await previous;
      await this.write(batch, errors);
    })();
    this.previous = written;
    return written;
  }

  private async write(batch: Batch, errors: ImportRowError[]): Promise<void> {
    if (errors.length === 0) return;
    if (!this.out) {
      this.out = createWriteStream(this.path);
      this.out.write(`${[...this.header, 'error', 'message', 'line'].map(csvCell).join(',')}\r\n`);
    }
    for (const error of errors) {
      const line = [...batch.cells[error.index], error.error, error.message, String(batch.lines[error.index])].map(csvCell).join(',');
      if (!this.out.write(`${line}\r\n`)) await once(this.out, 'drain');
    }
  }

  async close(): Promise<void> {
    await this.previous.catch(() => undefined);
    if (!this.out) return;
    this.out.end();
    await once(this.out, 'close');
  }
}

/**
 * The calls to importContacts, at most IN_FLIGHT at once. Rows of one phone number apply
 * in file order: a call waits for the calls in flight that share a number with it.
 */
class ImportCalls {
  private readonly lastCallOf = new Map<string, Promise<void>>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly run: ImportRun,
    private readonly errors: ErrorsFile,
    private readonly progress: () => void,
  ) {}

  async send(batch: Batch): Promise<void> {
    const rows = batch.rows.map((raw, index): ImportRow => (raw === null ? { index, error: tooManyCells(index) } : parseImportRow(raw, index)));
    const phones = rows.flatMap((row) => ('input' in row ? [row.input.phoneNumber] : []));
    const before = [...new Set(phones.map((phone) => this.lastCallOf.get(phone)).filter((call): call is Promise<void> => call !== undefined))];
    const result = (async () => {
      await Promise.all(before);
      return importContacts(this.run.channel, rows);
    })();
    // The batch's place in the errors file is taken now, in file order.
    const written = this.errors.inOrder(
      batch,
      result.then((applied) => applied.errors),
    );
    const call = (async () => {
      this.run.add(await result, rows.length);
      await written;
      this.progress();
    })();
    for (const phone of phones) this.lastCallOf.set(phone, call);
    this.inFlight.add(call);
    void call.then(
      () => {
        this.inFlight.delete(call);
        for (const phone of phones) if (this.lastCallOf.get(phone) === call) this.lastCallOf.delete(phone);
      },
      () => this.inFlight.delete(call),
    );
    if (this.inFlight.size >= IN_FLIGHT) await Promise.race(this.inFlight);
  }

  finish(): Promise<unknown> {
    return Promise.all(this.inFlight);
  }

  settle(): Promise<unknown> {
    return Promise.allSettled(this.inFlight);
  }
}

function tooManyCells(index: number): ImportRowError {
  return { index, phoneNumber: null, error: 'invalid_parameter', message: 'The line has more cells than the header has columns.', parameter: 'contacts' };
}

/** Reads records into batches of MAX_IMPORT_ROWS rows, the first record being the header. */
class RowReader {
  private readonly parser = new CsvParser();
  private header: string[] | undefined;
  private columns: Column[] = [];
  private batch = newBatch();

  constructor(
    private readonly file: string,
    private readonly send: (batch: Batch) => Promise<void>,
  ) {}

  async push(text: string, errors: ErrorsFile): Promise<void> {
    for (const [cells, line] of this.parser.push(text)) await this.record(cells, line, errors);
  }

  async end(errors: ErrorsFile): Promise<void> {
    for (const [cells, line] of this.parser.end()) await this.record(cells, line, errors);
    if (!this.header) throw new OperatorError(`${this.file} is empty: it needs a header line and rows.`);
    if (this.batch.rows.length > 0) await this.send(this.batch);
  }

  private async record(cells: string[], line: number, errors: ErrorsFile): Promise<void> {
    if (!this.header) {
      this.header = cells.map((cell, i) => (i === 0 ? cell.replace(/^\uFEFF/, '') : cell));
      this.columns = columnsOf(this.header);
      if (!this.columns.some((column) => 'parameter' in column && column.parameter === 'phoneNumber'))
        throw new OperatorError(`${this.file}: the first line must be a header with a phone column (phone or phoneNumber); found ${this.header.join(', ')}`);
      errors.useHeader(this.header);
      return;
    }
    if (cells.length === 1 && cells[0].trim() === '') return; // a blank line
    this.batch.rows.push(cells.length > this.header.length ? null : rowFromCells(this.columns, cells));
    this.batch.cells.push(cells);
    this.batch.lines.push(line);
    if (this.batch.rows.length === MAX_IMPORT_ROWS) {
      await this.send(this.batch);
      this.batch = newBatch();
    }
  }
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
