/** The CSV the operator CLI reads (contacts import) and writes (its errors file). */

/**
 * What a spreadsheet would read as a formula: a cell starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return (OWASP, CSV injection). Such a cell is written with a single
 * quote before it, which spreadsheets show as text; a phone number such as
 * `+14155550100` so stays readable as written instead of turning into a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as written to a CSV a person opens in a spreadsheet: formulas neutralised, quoted when it needs to be (RFC 4180). */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || /^\s|\s$/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A cell as read back: the quote csvCell put before a formula-like value is taken off again, so a corrected errors file imports as the original. */
export function cellValue(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

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
