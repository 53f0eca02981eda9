import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, toCsv } from './csv.ts';

describe('the one CSV cell writer (server exports and browser downloads)', () => {
  it('quotes strings, doubles quotes inside, writes numbers bare and nothing as an empty string', () => {
    expect(csvCell('Ada "A" Lovelace')).toBe('"Ada ""A"" Lovelace"');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(Number.NaN)).toBe('""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
  });

  it('writes a cell a spreadsheet would run as a formula as text, with a leading apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
    );
    for (const start of ['+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1`)).toBe(`"'${start}1"`);
    expect(csvCell('a=b')).toBe('"a=b"');
  });

  it('a file: byte-order mark, header row, CRLF lines', () => {
    expect(csvLine(['a', 1])).toBe('"a",1\r\n');
    expect(toCsv(['name', 'n'], [['=x', 2]])).toBe('\uFEFF"name","n"\r\n"\'=x",2\r\n');
  });
});
