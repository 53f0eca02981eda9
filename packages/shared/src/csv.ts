/*
 * CSV files as the product writes them, on the server (streamed exports) and in the browser (tables saved as
 * files): comma separated, every string quoted ("" for a quote inside), numbers bare, a byte-order mark so
 * spreadsheet programs read UTF-8, a header row, CRLF line ends. One cell writer for both sides.
 */

export type CsvValue = string | number | null | undefined;

export const CSV_BOM = '\uFEFF';

/**
 * A cell a spreadsheet would run as a formula starts with =, +, - or @ (and a tab or carriage return before
 * one of them can hide it): `=HYPERLINK("http://…","click")` in a Slack name would open as a live link.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: strings quoted, a formula start defused with a leading apostrophe; numbers bare. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '""';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '""';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One CSV line, CRLF included. */
export const csvLine = (cells: readonly CsvValue[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A whole CSV file: the byte-order mark, the header row, then the rows. */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return `${CSV_BOM}${csvLine(headers)}${rows.map(csvLine).join('')}`;
}
