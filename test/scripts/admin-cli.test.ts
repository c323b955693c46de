import { describe, expect, it } from 'vitest';
import { fromTypedFolder, parseCommandLine } from '../../scripts/admin/command-line';
import { cellValue, csvCell, CsvParser } from '../../scripts/admin/csv';

describe('the operator CLI’s command line', () => {
  it.each([
    [['--longitude', '-9.14'], '-9.14'],
    [['--longitude', '-.5'], '-.5'],
    [['--longitude=-9.14'], '-9.14'],
    [['--longitude', '9.14'], '9.14'],
  ])('reads %j as the flag’s value', (args, value) => {
    // Act
    const parsed = parseCommandLine(['inbound', '--type', 'location', ...args]);
    // Assess
    expect(parsed).toEqual({ command: 'inbound', flags: { type: 'location', longitude: value }, help: false });
  });

  it('still refuses a flag where a value belongs when it is not a number', () => {
    // Act / Assess
    expect(() => parseCommandLine(['inbound', '--text', '-x'])).toThrow(/ambiguous/);
  });

  it.each([[['help']], [['--help']], [['-h']], [['key', 'create', '--help']]])('reads %j as a request for help', (args) => {
    // Act / Assess
    expect(parseCommandLine(args).help).toBe(true);
  });

  it('resolves a file from the folder the command was typed in (INIT_CWD), an absolute path as it is', () => {
    // Prepare
    const before = process.env.INIT_CWD;
    process.env.INIT_CWD = '/home/someone/exports';
    try {
      // Act / Assess
      expect(fromTypedFolder('contacts.csv')).toBe('/home/someone/exports/contacts.csv');
      expect(fromTypedFolder('../a.csv')).toBe('/home/someone/a.csv');
      expect(fromTypedFolder('/tmp/b.csv')).toBe('/tmp/b.csv');
    } finally {
      if (before === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = before;
    }
  });
});

describe('the CLI’s CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['+14155550100', "'+14155550100"],
    ['Jane', 'Jane'],
    ['a, b', '"a, b"'],
    ['', ''],
  ])('writes %j so no spreadsheet runs it: %s', (value, written) => {
    // Act / Assess
    expect(csvCell(value)).toBe(written);
  });

  it.each(['=HYPERLINK("x")', '@SUM(A1)', '+14155550100', '-1', '\tx', 'Jane', "'quoted", "'"])('reads %j back as it was written', (value) => {
    // Prepare
    const parser = new CsvParser();
    // Act
    const [[cells]] = [...parser.push(`${csvCell(value)}\n`)];
    // Assess
    expect(cellValue(cells[0])).toBe(value);
  });
});
