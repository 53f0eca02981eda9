/**
 * CSV files as spec section 9 says: comma separator, strings quoted ("" for a quote inside), a byte-order mark
 * so spreadsheet programs read UTF-8, and a header row. Numbers are written bare.
 */
export type CsvCell = string | number | null | undefined;

const BOM = '\uFEFF';

function cell(v: CsvCell): string {
  if (v === null || v === undefined) return '""';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '""';
  return `"${v.replace(/"/g, '""')}"`;
}

export function toCsv(headers: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [headers.map(cell).join(','), ...rows.map((r) => r.map(cell).join(','))];
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/** Saves a CSV text as `<name>.csv` through a temporary link. */
export function downloadCsv(name: string, csv: string): void {
  saveFile(name.endsWith('.csv') ? name : `${name}.csv`, new Blob([csv], { type: 'text/csv;charset=utf-8' }));
}

/** Saves a file the browser holds (a Blob) under `fileName` through a temporary link. */
export function saveFile(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
